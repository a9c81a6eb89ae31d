package render

import (
	"encoding/binary"
	"strings"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// The reference AppendMMVServe is held to (checkAppendMMVServe): the
// MMVServe built as values from mmv.File, which AppendMMVServe writes
// in place. It was mmv_serve's implementation before 2026-11-27
// (ServeMMVImages, ServeMMV and serveMMV).
// Names and numbers come from refnames_test.go; the notes' and
// warnings' sentences (mmvSkipText, mmvWarningText) are the writer's
// own: they are the wording, not bytes the reference could derive.

// ServeMMV serves files as pmdammv serves one directory of them (srcs in
// pmdammv's order, each named by its base name, read with
// mmv.Options.SkipRefused unless strict): clusters assigned across the
// files, each metric pmdammv leaves out left out with a note (with
// strict, the first one refuses its file instead), values as they are at
// nowMicros. paths are the files' names as the result prints them.
// `perfwire mmv --json` prints its files; the mmv_serve call returns it.
func serveMMVRef(srcs []mmv.Source, paths []string, strict bool, nowMicros int64) schema.MMVServe {
	res := schema.MMVServe{Files: []schema.MMVServed{}, Notes: []string{}}
	for i, s := range srcs {
		for _, sk := range s.File.Skips() {
			res.Notes = append(res.Notes, paths[i]+": "+mmvSkipText(s.File, sk))
		}
	}
	clusters, warnings := mmv.Assign(srcs)
	dropped := make([][]bool, len(srcs))
	for _, w := range warnings {
		if !w.Kind.Drops() {
			continue
		}
		text := mmvWarningText(w, srcs)
		if strict {
			// The text's only white space at either end is the space
			// before " metric": TrimPrefix drops it as TrimSpace did,
			// without linking Unicode's spaces (module size).
			res.Error = &schema.Error{Kind: schema.KindUnknown, Message: paths[w.File] + ": " + strings.TrimPrefix(text, " "), Offset: -1}
			return res
		}
		if dropped[w.File] == nil {
			dropped[w.File] = make([]bool, srcs[w.File].File.NumMetrics())
		}
		dropped[w.File][w.Metric] = true
		res.Notes = append(res.Notes, paths[w.File]+":"+text)
	}
	for i, s := range srcs {
		f := serveFileRef(s, paths[i], clusters[i], nowMicros, dropped[i])
		for _, w := range warnings {
			if w.File == i {
				f.Warnings = append(f.Warnings, mmvWarningText(w, srcs))
			}
		}
		for _, sk := range s.File.Skips() {
			f.Warnings = append(f.Warnings, mmvSkipText(s.File, sk))
		}
		res.Files = append(res.Files, f)
	}
	return res
}

// ServeMMVImages validates in's images in order (as mmv.Parse with
// SkipRefused unless in.Strict) and serves them with ServeMMV; the first
// file that fails is the result's error, its message prefixed with the
// file's path. It is the mmv_serve call (in the mmv module).
func serveMMVImagesRef(in *schema.MMVServeInput) schema.MMVServe {
	files := make([]mmv.File, len(in.Files))
	srcs := make([]mmv.Source, len(in.Files))
	paths := make([]string, len(in.Files))
	for i, f := range in.Files {
		o := mmv.Options{SkipRefused: !in.Strict}
		if f.BigEndian {
			o.Order = binary.BigEndian
		}
		r, err := mmv.Parse(f.Image, o)
		if err != nil {
			e := schema.ErrorOf(err)
			e.Message = f.Path + ": " + e.Message
			return schema.MMVServe{Error: e, Files: []schema.MMVServed{}, Notes: []string{}}
		}
		files[i], paths[i] = r, f.Path
		srcs[i] = mmv.Source{Name: f.Name, File: &files[i]}
	}
	if in.ValidateOnly {
		return schema.MMVServe{Files: []schema.MMVServed{}, Notes: []string{}}
	}
	return serveMMVRef(srcs, paths, in.Strict, in.Now)
}

// mmvServedLabel is a label entry of the served view; the reader has
// checked its payload.
func mmvServedLabelRef(l mmv.Label) schema.MMVServedLabel {
	return schema.MMVServedLabel{Level: refLevel(l.Flags), Optional: l.Flags&mmv.LabelOptional != 0, JSON: string(l.Payload)}
}

// serveMMV builds the served view of one file. Metrics in drop (by
// entry index) are left out, as pmdammv leaves them.
func serveFileRef(s mmv.Source, path string, cluster uint32, now int64, drop []bool) schema.MMVServed {
	r := s.File
	h := r.Header()
	out := schema.MMVServed{File: path, Version: h.Version, Gen: h.Gen1, Flags: uint32(h.Flags), FlagNames: mmvFlagNamesRef(h.Flags),
		Process: h.Process, Cluster: h.Cluster, Metrics: []schema.MMVServedMetric{}}
	// A metric's place in out.Metrics: entries left out under
	// SkipRefused (and their values, which Values skips) have none.
	pos := make([]int, r.NumMetrics())
	// The metrics as r.Metrics gives them, in a plain loop: a range over
	// the iterator made a closure of this body, a function of its own.
	for i := range r.NumMetrics() {
		if r.Refused(i) {
			continue
		}
		m := r.Metric(i)
		if drop != nil && drop[m.Index] {
			pos[m.Index] = -1
			continue
		}
		sem, units := "counter", m.Units.String()
		if m.Sem != 0 {
			sem = refSemName(m.Sem)
		}
		if m.Type == mmv.TypeElapsed {
			sem, units = "counter", "microsec"
		}
		sm := schema.MMVServedMetric{
			Name: string(r.AppendMetricName(nil, mmv.PrefixMMV, s.Name, m)), PMID: mmv.PMID(cluster, m.Item).String(),
			Item: m.Item, Type: refTypeName(m.Type.PCP()), InDom: pcp.InDomNull.String(), Sem: sem, Units: units,
			ShortText: string(m.ShortText), HelpText: string(m.HelpText), Labels: []schema.MMVServedLabel{}, Values: []schema.MMVServedValue{},
		}
		if !m.Singular() {
			sm.InDom = mmv.InDomID(cluster, m.Indom).String()
		}
		for j := range r.NumLabels() {
			l := r.Label(j)
			switch l.Flags.Level() {
			case mmv.LabelCluster:
				if l.Identity != uint32(h.Cluster) {
					continue
				}
			case mmv.LabelItem:
				if l.Identity != m.Item {
					continue
				}
			case mmv.LabelInDom:
				if m.Singular() || l.Identity != m.Indom {
					continue
				}
			default:
				continue
			}
			sm.Labels = append(sm.Labels, mmvServedLabelRef(l))
		}
		pos[m.Index] = len(out.Metrics)
		out.Metrics = append(out.Metrics, sm)
	}
	for i := range r.NumValues() {
		v := r.Value(i)
		if v.Metric < 0 || r.Refused(v.Metric) || pos[v.Metric] < 0 {
			continue // rewritten after validation, or left out
		}
		m := r.Metric(v.Metric)
		sv := schema.MMVServedValue{Value: mmvServedValueRef(v, now)}
		if v.Instance >= 0 {
			in := r.Instance(v.Instance)
			id, name := in.ID, string(in.Name)
			sv.Inst, sv.Instance = &id, &name
			for j := range r.NumLabels() {
				l := r.Label(j)
				if l.Flags.Level() == mmv.LabelInstances && l.Identity == m.Indom && l.Internal == id {
					sv.Labels = append(sv.Labels, mmvServedLabelRef(l))
				}
			}
		}
		ms := &out.Metrics[pos[v.Metric]]
		ms.Values = append(ms.Values, sv)
	}
	return out
}

// mmvServedValue is a value as pmdammv would return it now, nil when it
// has none.
func mmvServedValueRef(v mmv.Value, now int64) schema.Raw {
	if v.Missing() {
		return nil
	}
	switch v.Type {
	case mmv.TypeU32, mmv.TypeU64:
		return schema.AppendUint64(nil, v.Uint())
	case mmv.TypeFloat, mmv.TypeDouble:
		return refFloat(nil, v.Float())
	case mmv.TypeString:
		return msgp.AppendString(nil, string(v.Text()))
	case mmv.TypeElapsed:
		return schema.AppendInt64(nil, v.Elapsed(now))
	case mmv.TypeNoSupport:
		return nil
	}
	return schema.AppendInt64(nil, v.Int())
}

// mmvFlagNamesRef names the header flags as mmvdump does.
func mmvFlagNamesRef(f mmv.Flags) string {
	var b []byte
	for _, n := range [...]struct {
		f    mmv.Flags
		name string
	}{{mmv.FlagNoPrefix, "noprefix"}, {mmv.FlagProcess, "process"}, {mmv.FlagSentinel, "sentinel"}} {
		if f&n.f != 0 {
			if b != nil {
				b = append(b, ',')
			}
			b = append(b, n.name...)
		}
	}
	if b == nil {
		return "none"
	}
	return string(b)
}
