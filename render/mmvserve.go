package render

import (
	"encoding/binary"
	"strconv"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// AppendMMVServe validates in's images in order (as mmv.Parse, with
// SkipRefused unless in.Strict) and appends to dst the MessagePack
// MMVServe that serves them as pmdammv serves one directory of them (in
// pmdammv's order, each named by its Name): clusters assigned across the
// files, each metric pmdammv leaves out left out with a note (with
// Strict, the first one refuses its file instead), values as they are
// at in.Now. The first file that fails validation is the result's error,
// its message prefixed with the file's path. It is the mmv_serve call.
// Like AppendMMV it writes straight from the files' views, with no
// MMVServed values, so that the modules link none of their marshalers
// (module size).
func AppendMMVServe(dst []byte, in *schema.MMVServeInput) []byte {
	s := mmvServing{in: in}
	err := s.prepare()
	e := schema.BeginMap(dst, 3)
	e.Err("\xa5error", err)
	e.Array("\xa5files", len(s.srcs))
	for i := range s.srcs {
		e.B = s.appendFile(e.B, i)
	}
	e.Strs("\xa5notes", s.notes)
	return e.End()
}

// MMVOptions are the options mmv_serve reads image f with: its byte
// order, and what pmdammv leaves out skipped unless strict.
func MMVOptions(f *schema.MMVImage, strict bool) mmv.Options {
	o := mmv.Options{SkipRefused: !strict}
	if f.BigEndian {
		o.Order = binary.BigEndian
	}
	return o
}

// mmvServing is one mmv_serve call: its files as pmdammv finds them,
// their clusters, what pmdammv says and leaves out of them, and scratch
// space.
type mmvServing struct {
	in       *schema.MMVServeInput
	srcs     []mmv.Source // nil when nothing is served
	clusters []uint32
	warnings []mmv.Warning
	dropped  [][]bool // by file, by metric entry: left out after a warning
	notes    []string
	name     []byte // a metric's name
}

// prepare validates the files and decides what pmdammv does with them;
// it returns the result's error, if any.
func (s *mmvServing) prepare() *schema.Error {
	in := s.in
	files := make([]mmv.File, len(in.Files))
	srcs := make([]mmv.Source, len(in.Files))
	for i, f := range in.Files {
		r, err := mmv.Parse(f.Image, MMVOptions(&f, in.Strict))
		if err != nil {
			e := schema.ErrorOf(err)
			e.Message = f.Path + ": " + e.Message
			return e
		}
		files[i] = r
		srcs[i] = mmv.Source{Name: f.Name, File: &files[i]}
	}
	if in.ValidateOnly {
		return nil
	}
	for i, src := range srcs {
		for _, sk := range src.File.Skips() {
			s.notes = append(s.notes, in.Files[i].Path+": "+mmvSkipText(src.File, sk))
		}
	}
	s.clusters, s.warnings = mmv.Assign(srcs)
	s.dropped = make([][]bool, len(srcs))
	for _, w := range s.warnings {
		if !w.Kind.Drops() {
			continue
		}
		// The text of a warning that drops a metric starts with the
		// space before "metric": the note is also --strict's message.
		note := in.Files[w.File].Path + ":" + mmvWarningText(w, srcs)
		if in.Strict {
			return &schema.Error{Kind: schema.KindUnknown, Message: note, Offset: -1}
		}
		if s.dropped[w.File] == nil {
			s.dropped[w.File] = make([]bool, srcs[w.File].File.NumMetrics())
		}
		s.dropped[w.File][w.Metric] = true
		s.notes = append(s.notes, note)
	}
	s.srcs = srcs
	return nil
}

// served reports whether pmdammv exports metric entry m of r: not left
// out by the reader (SkipRefused) nor after a warning (drop).
func mmvServed(r *mmv.File, drop []bool, m int) bool {
	return !r.Refused(m) && (drop == nil || !drop[m])
}

// appendFile appends file i as pmdammv serves it (an MMVServed): the
// metrics it exports, each with the labels that apply to it and its
// values, then what pmdammv leaves out of it or merges.
func (s *mmvServing) appendFile(b []byte, i int) []byte {
	src, cluster, drop := s.srcs[i], s.clusters[i], s.dropped[i]
	r := src.File
	h := r.Header()
	nw := len(r.Skips())
	for _, w := range s.warnings {
		if w.File == i {
			nw++
		}
	}
	keys := byte(0x88)
	if nw > 0 {
		keys++
	}
	e := schema.Map{B: append(b, keys)}
	e.Str("\xa4file", s.in.Files[i].Path)
	e.Int("\xa7version", int64(h.Version))
	e.Uint("\xa3gen", h.Gen1)
	e.Uint("\xa5flags", uint64(uint32(h.Flags)))
	e.Str("\xaaflag_names", mmvFlagNames[h.Flags&7])
	e.Int("\xa7process", int64(h.Process))
	e.Int("\xa7cluster", int64(h.Cluster))
	// Each metric's values in file order: a list per metric from its
	// first value on (value index + 1; 0 ends it), and its length. Only
	// the exported metrics' lists are written; a value whose metric was
	// rewritten after validation is in none.
	nm, nv := r.NumMetrics(), r.NumValues()
	lists := make([]int32, 2*nm+nv)
	first, count, next := lists[:nm], lists[nm:2*nm], lists[2*nm:]
	for k := nv - 1; k >= 0; k-- {
		if m := r.Value(k).Metric; m >= 0 {
			next[k], first[m] = first[m], int32(k+1)
			count[m]++
		}
	}
	n := 0
	for m := range nm {
		if mmvServed(r, drop, m) {
			n++
		}
	}
	e.Array("\xa7metrics", n)
	// The metrics as r.Metrics gives them, in a plain loop: a range over
	// the iterator made a closure of this body, a function of its own.
	for k := range nm {
		if !mmvServed(r, drop, k) {
			continue
		}
		m := r.Metric(k)
		sem, units := "counter", "microsec"
		if m.Type != mmv.TypeElapsed {
			units = m.Units.String()
			if m.Sem != 0 {
				sem = semName(m.Sem)
			}
		}
		indom := pcp.InDomNull
		if !m.Singular() {
			indom = mmv.InDomID(cluster, m.Indom)
		}
		s.name = r.AppendMetricName(s.name[:0], mmv.PrefixMMV, src.Name, m)
		f := schema.Map{B: appendKeyBytes(append(e.B, 0x8b), "\xa4name", s.name)}
		f.Str("\xa4pmid", mmv.PMID(cluster, m.Item).String())
		f.Uint("\xa4item", uint64(m.Item))
		f.Str("\xa4type", TypeName(m.Type.PCP()))
		f.Str("\xa5indom", indom.String())
		f.Str("\xa3sem", sem)
		f.Str("\xa5units", units)
		f.B = appendKeyBytes(f.B, "\xa9shorttext", m.ShortText)
		f.B = appendKeyBytes(f.B, "\xa8helptext", m.HelpText)
		f.B = appendMMVLabels(f.B, r, &m, nil)
		f.Array("\xa6values", int(count[k]))
		// Each value as pmdammv would return it now (an MMVServedValue):
		// its instance, its value (nil when it has none) and the labels
		// that apply to its instance, when any does.
		for k := first[k]; k != 0; k = next[k-1] {
			v := r.Value(int(k - 1))
			at := len(f.B)
			f.B = append(f.B, 0x83)
			var in mmv.Instance
			if v.Instance >= 0 {
				in = r.Instance(v.Instance)
				f.Int("\xa4inst", int64(in.ID))
				f.B = appendKeyBytes(f.B, "\xa8instance", in.Name)
			} else {
				f.B = append(f.B, "\xa4inst\xc0\xa8instance\xc0"...)
			}
			b := append(f.B, "\xa5value"...)
			switch {
			case v.Missing() || v.Type == mmv.TypeNoSupport:
				b = msgp.AppendNil(b)
			case v.Type == mmv.TypeU32 || v.Type == mmv.TypeU64:
				b = schema.AppendUint64(b, v.Uint())
			case v.Type == mmv.TypeFloat || v.Type == mmv.TypeDouble:
				b = AppendFloat(b, v.Float())
			case v.Type == mmv.TypeString:
				b = schema.AppendStr(b, v.Text())
			case v.Type == mmv.TypeElapsed:
				b = schema.AppendInt64(b, v.Elapsed(s.in.Now))
			default:
				b = schema.AppendInt64(b, v.Int())
			}
			f.B = b
			if v.Instance >= 0 {
				if l := appendMMVLabels(b, r, &m, &in.ID); len(l) > len(b) {
					f.B = l
					f.B[at]++
				}
			}
		}
		e.B = f.B
	}
	if nw > 0 {
		e.Array("\xa8warnings", nw)
		for _, w := range s.warnings {
			if w.File == i {
				e.B = msgp.AppendString(e.B, mmvWarningText(w, s.srcs))
			}
		}
		for _, sk := range r.Skips() {
			e.B = msgp.AppendString(e.B, mmvSkipText(r, sk))
		}
	}
	return e.B
}

// appendMMVLabels appends the labels key and r's labels that apply to
// metric m (inst nil: its cluster's, its item's and its indom's) or to
// its instance whose id is *inst, in file order, as MMVServedLabels: a
// label's level, whether it is optional (the key only when it is) and
// its payload, which the reader has checked. For an instance it appends
// nothing when no label applies (the key is omitempty).
func appendMMVLabels(b []byte, r *mmv.File, m *mmv.Metric, inst *int32) []byte {
	// Two passes over the labels: count them for the array's header,
	// then write them.
	n := 0
	for pass := range 2 {
		if pass == 1 {
			if n == 0 && inst != nil {
				return b
			}
			b = schema.AppendArrayHeader(append(b, "\xa6labels"...), uint32(n))
		}
		for j := range r.NumLabels() {
			l := r.Label(j)
			var ok bool
			switch l.Flags.Level() {
			case mmv.LabelCluster:
				ok = inst == nil && l.Identity == uint32(r.Header().Cluster)
			case mmv.LabelItem:
				ok = inst == nil && l.Identity == m.Item
			case mmv.LabelInDom:
				ok = inst == nil && !m.Singular() && l.Identity == m.Indom
			case mmv.LabelInstances:
				ok = inst != nil && l.Identity == m.Indom && l.Internal == *inst
			}
			if !ok {
				continue
			}
			if pass == 0 {
				n++
				continue
			}
			lv := ""
			if i := int(l.Flags.Level()); i < len(mmvLevels) {
				lv = mmvLevels[i]
			}
			opt := l.Flags&mmv.LabelOptional != 0
			keys := byte(0x82)
			if opt {
				keys++
			}
			e := schema.Map{B: append(b, keys)}
			e.Str("\xa5level", lv)
			if opt {
				e.Bool("\xa8optional", true)
			}
			b = appendKeyBytes(e.B, "\xa4json", l.Payload)
		}
	}
	return b
}

// mmvSkipText says which metric a reader left out and by which rule.
func mmvSkipText(r *mmv.File, sk mmv.Skip) string {
	return "metric " + strconv.Quote(string(r.Metric(sk.Metric).Name)) +
		" left out, as pmdammv leaves it out (--strict refuses the file): " + sk.Err.Error()
}

var mmvLevels = [...]string{mmv.LabelCluster: "cluster", mmv.LabelItem: "item", mmv.LabelInDom: "indom", mmv.LabelInstances: "instance"}

// mmvFlagNames name the header flags as mmvdump does, indexed by the
// three flags' bits.
var mmvFlagNames = [8]string{"none", "noprefix", "process", "noprefix,process", "sentinel", "noprefix,sentinel",
	"process,sentinel", "noprefix,process,sentinel"}

// mmvWarnings holds each collision's explanation: the text before the
// other file's name, and after it; the metric's name comes first for the
// kinds that name one.
var mmvWarnings = [...]struct {
	metric      bool
	before, end string
}{
	mmv.WarnBadName:        {true, " exported name is invalid, pmdammv drops it", ""},
	mmv.WarnDuplicateName:  {true, " name already exported by another file", ", pmdammv skips it"},
	mmv.WarnSharedCluster:  {false, "cluster shared with another file", "; their pmIDs shadow each other unless intended"},
	mmv.WarnInDomCollision: {false, "an instance domain maps onto another file's", " 22-bit pmInDom"},
	mmv.WarnRepeatedItem:   {true, " repeats an earlier item of the file, pmdammv drops it", ""},
	mmv.WarnNameConflict: {true, " name is a leaf where an earlier name needs an inner node, or the reverse; pmdammv drops it",
		""},
	mmv.WarnClusterLabelsLost: {false, "cluster 0 lets pmdammv choose, so cluster labels never match", ""},
}

// mmvWarningText explains one pmdammv collision.
func mmvWarningText(w mmv.Warning, srcs []mmv.Source) string {
	if w.Kind <= 0 || int(w.Kind) >= len(mmvWarnings) {
		return "unknown warning"
	}
	t := mmvWarnings[w.Kind]
	metric, other := "", ""
	if t.metric && w.Metric >= 0 {
		metric = " metric " + string(srcs[w.File].File.Metric(w.Metric).Name) + ":"
	}
	if t.end != "" && w.Other >= 0 {
		other = " (" + srcs[w.Other].Name + ")"
	}
	return metric + t.before + other + t.end
}
