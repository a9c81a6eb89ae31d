package mmv

import (
	"github.com/perfwire/perfwire/pcp"
)

// Registry describes the file a writer lays out: metrics, instance
// domains, help and labels. Fill it, then call [Registry.Plan].
type Registry struct {
	// Version forces 1, 2 or 3; 0 picks the lowest that works, as
	// libpcp_mmv does: 3 with labels, else 2 when a metric or instance
	// name needs 64 bytes or more, else 1.
	Version int32
	Flags   Flags
	// Cluster is the PMID cluster, 1…4095. 0 lets pmdammv pick one,
	// which loses cluster labels; prefer an explicit cluster.
	Cluster uint32
	Process int32  // writer pid, used with FlagProcess
	Gen     uint64 // generation, non-zero; mmvfile uses the clock
	Indoms  []IndomDef
	Metrics []MetricDef
	Labels  []LabelDef
}

// MetricDef defines one metric.
type MetricDef struct {
	Name      string // letters, digits, '_' and '.', starting with a letter
	Item      uint32 // 0…1023, unique in the file
	Type      Type   // any valid type but TypeNoSupport
	Sem       pcp.Sem
	Units     pcp.Units
	Indom     uint32 // serial of an IndomDef, 0 for a singular metric
	ShortText string // < 256 bytes
	HelpText  string // < 256 bytes
}

// IndomDef defines one instance domain.
type IndomDef struct {
	Serial    uint32 // 1…2047 keeps pmdammv's indom numbers distinct
	Instances []InstanceDef
	ShortText string
	HelpText  string
}

// InstanceDef is one instance: a unique id and a unique non-empty name.
type InstanceDef struct {
	ID   int32
	Name string
}

// LabelDef is one label: its level (one of the Label* level bits,
// optionally with LabelOptional), the cluster, indom serial or item it
// belongs to (for LabelInstances the indom serial, with Internal the
// instance id), and Name plus Value, a JSON value text such as `"web"`,
// `42`, `true`, `null`, `[1,2]` or `{"a":1}`.
type LabelDef struct {
	Flags    LabelFlags
	Identity uint32
	Internal int32
	Name     string
	Value    string
}

// Plan is a validated layout of a Registry: the version, the size and
// the offset of every entry. Build it with [Registry.Plan]; it is
// immutable afterwards and safe to share.
type Plan struct {
	reg     Registry
	version int32
	size    int
	isz     int
	msz     int
	tocs    int
	indoms  int   // section offsets
	insts   int   //
	metrics int   //
	values  int   //
	strs    int   //
	labels  int   //
	nstrs   int   // string slots
	nvals   int   // value entries
	first   []int // per metric: index of its first value entry
	nval    []int // per metric: number of value entries
	dindex  []int // per metric: indom index, -1 when singular
	dfirst  []int // per indom: index of its first instance entry
}

// Version returns the file version the plan writes.
func (p *Plan) Version() int32 { return p.version }

// Size returns the exact file size in bytes.
func (p *Plan) Size() int { return p.size }

// regErr reports a registry problem; offsets are meaningless before a
// layout exists, so they are -1.
//
//go:noinline
func regErr(field string, kind error) error {
	return &ParseError{Format: "mmv", Field: field, Offset: -1, Err: kind}
}

// regValueErr is regErr for a number that broke a limit or a range.
//
//go:noinline
func regValueErr(field string, kind error, value, limit int64) error {
	return &ParseError{Format: "mmv", Field: field, Offset: -1, Err: kind,
		Value: value, Limit: limit, HasValue: true, HasLimit: true}
}

// validName checks a metric name (dots allowed) or a label name.
func validName(s string, dots bool) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !isDigit(c) && c != '_' && !(dots && c == '.') {
			return false
		}
	}
	return true
}

// Plan validates the registry and computes the layout. It rejects
// everything a reader of this package would reject, and what pmdammv
// would silently mishandle: duplicate or out-of-range items, unknown or
// duplicate indoms, bad names, texts of 256 bytes or more, bad labels.
// Errors are *[ParseError] with Offset -1 and Field naming the
// definition. Plan copies the registry's slices' headers, not their
// contents: do not modify the registry while the plan is in use.
func (reg *Registry) Plan() (*Plan, error) {
	p := &Plan{reg: *reg}
	if reg.Gen == 0 {
		return nil, regErr("gen", ErrGeneration)
	}
	if reg.Cluster > MaxCluster {
		return nil, regValueErr("cluster", ErrRange, int64(reg.Cluster), MaxCluster)
	}
	// Counts pmdammv (or our reader's defaults) would not accept.
	switch {
	case len(reg.Metrics) > DefaultMaxMetrics:
		return nil, regValueErr("metrics", ErrLimit, int64(len(reg.Metrics)), DefaultMaxMetrics)
	case len(reg.Indoms) > DefaultMaxIndoms:
		return nil, regValueErr("indoms", ErrLimit, int64(len(reg.Indoms)), DefaultMaxIndoms)
	case len(reg.Labels) > DefaultMaxLabels:
		return nil, regValueErr("labels", ErrLimit, int64(len(reg.Labels)), DefaultMaxLabels)
	}
	long := false
	for i, d := range reg.Indoms {
		if d.Serial == 0 || d.Serial == 0xffffffff {
			return nil, regErr(entryField("indoms", i, "serial"), ErrField)
		}
		for j := range i {
			if reg.Indoms[j].Serial == d.Serial {
				return nil, regErr(entryField("indoms", i, "serial"), errInDom)
			}
		}
		if len(d.ShortText) >= StringSize || len(d.HelpText) >= StringSize {
			return nil, regErr(entryField("indoms", i, "help"), ErrTooLong)
		}
		ids, names := make(map[int32]bool, len(d.Instances)), make(map[string]bool, len(d.Instances))
		for _, in := range d.Instances {
			if in.Name == "" || nul([]byte(in.Name)) >= 0 {
				return nil, regErr(entryField("indoms", i, "instance name"), errName)
			}
			if len(in.Name) >= StringSize {
				return nil, regErr(entryField("indoms", i, "instance name"), ErrTooLong)
			}
			long = long || len(in.Name) >= NameSizeV1
			if ids[in.ID] || names[in.Name] {
				return nil, regErr(entryField("indoms", i, "instance"), errInstance)
			}
			ids[in.ID], names[in.Name] = true, true
		}
	}
	var seen [(MaxItem + 1) / 64]uint64
	p.first, p.nval, p.dindex = make([]int, len(reg.Metrics)), make([]int, len(reg.Metrics)), make([]int, len(reg.Metrics))
	for i, m := range reg.Metrics {
		if !validName(m.Name, true) {
			return nil, regErr(entryField("metrics", i, "name"), errName)
		}
		if len(m.Name) >= StringSize {
			return nil, regErr(entryField("metrics", i, "name"), ErrTooLong)
		}
		long = long || len(m.Name) >= NameSizeV1
		if m.Item > MaxItem {
			return nil, regValueErr(entryField("metrics", i, "item"), ErrRange, int64(m.Item), MaxItem)
		}
		if seen[m.Item/64]&(1<<(m.Item%64)) != 0 {
			return nil, regErr(entryField("metrics", i, "item"), errItem)
		}
		seen[m.Item/64] |= 1 << (m.Item % 64)
		if !m.Type.Valid() || m.Type == TypeNoSupport {
			return nil, regErr(entryField("metrics", i, "type"), ErrType)
		}
		switch m.Sem {
		case pcp.SemCounter, pcp.SemInstant, pcp.SemDiscrete:
		default:
			return nil, regErr(entryField("metrics", i, "semantics"), ErrField)
		}
		if len(m.ShortText) >= StringSize || len(m.HelpText) >= StringSize {
			return nil, regErr(entryField("metrics", i, "help"), ErrTooLong)
		}
		p.dindex[i] = -1
		p.first[i], p.nval[i] = p.nvals, 1
		if m.Indom != 0 {
			for j, d := range reg.Indoms {
				if d.Serial == m.Indom {
					p.dindex[i] = j
				}
			}
			if p.dindex[i] < 0 {
				return nil, regErr(entryField("metrics", i, "indom"), errInDom)
			}
			p.nval[i] = len(reg.Indoms[p.dindex[i]].Instances)
		}
		p.nvals += p.nval[i]
		if p.nvals > DefaultMaxValues {
			return nil, regValueErr("values", ErrLimit, int64(p.nvals), DefaultMaxValues)
		}
	}
	for i, l := range reg.Labels {
		if !l.Flags.valid() || !validName(l.Name, false) {
			return nil, regErr(entryField("labels", i, "name"), errLabel)
		}
		if len(l.Name)+len(l.Value)+5 > LabelPayload-1 {
			return nil, regErr(entryField("labels", i, "value"), ErrTooLong)
		}
		if e := checkLabel(labelPayload(nil, l)); e >= 0 {
			return nil, regErr(entryField("labels", i, "value"), errLabel)
		}
	}
	p.version = reg.Version
	want := int32(1)
	if long {
		want = 2
	}
	if len(reg.Labels) > 0 {
		want = 3
	}
	switch {
	case p.version == 0:
		p.version = want
	case p.version < want || p.version > 3:
		return nil, regErr("version", ErrVersion)
	}
	p.layout()
	return p, nil
}

// labelPayload appends {"name":value}.
func labelPayload(b []byte, l LabelDef) []byte {
	b = append(b, `{"`...)
	b = append(b, l.Name...)
	b = append(b, `":`...)
	b = append(b, l.Value...)
	return append(b, '}')
}

// layout computes offsets in libpcp_mmv's order: header, TOC, indoms,
// instances, metrics, values, strings, labels, packed without gaps.
func (p *Plan) layout() {
	reg := &p.reg
	p.isz, p.msz = InstanceSizeV1, MetricSizeV1
	if p.version > 1 {
		p.isz, p.msz = InstanceSizeV2, MetricSizeV2
	}
	ninst := 0
	p.dfirst = make([]int, len(reg.Indoms))
	for i, d := range reg.Indoms {
		p.dfirst[i] = ninst
		ninst += len(d.Instances)
	}
	p.nstrs = 0
	if p.version > 1 {
		p.nstrs += ninst + len(reg.Metrics)
	}
	for i, m := range reg.Metrics {
		if m.Type == TypeString {
			p.nstrs += p.nval[i]
		}
		p.nstrs += nonEmpty(m.ShortText) + nonEmpty(m.HelpText)
	}
	for _, d := range reg.Indoms {
		p.nstrs += nonEmpty(d.ShortText) + nonEmpty(d.HelpText)
	}
	p.tocs = 2
	if len(reg.Indoms) > 0 {
		p.tocs += 2
	}
	if p.nstrs > 0 {
		p.tocs++
	}
	if len(reg.Labels) > 0 {
		p.tocs++
	}
	off := HeaderSize + p.tocs*TOCEntrySize
	p.indoms = off
	off += len(reg.Indoms) * IndomSize
	p.insts = off
	off += ninst * p.isz
	p.metrics = off
	off += len(reg.Metrics) * p.msz
	p.values = off
	off += p.nvals * ValueSize
	p.strs = off
	off += p.nstrs * StringSize
	p.labels = off
	off += len(reg.Labels) * LabelSize
	p.size = off
}

func nonEmpty(s string) int {
	if s == "" {
		return 0
	}
	return 1
}
