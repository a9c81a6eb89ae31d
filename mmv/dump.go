package mmv

import (
	"math"
	"strconv"
)

// flagNames are mmvdump's names for the header flags, in bit order.
var flagNames = [...]string{"noprefix", "process", "sentinel"}

// semNames are mmvdump's names for semantics codes 0…4.
var semNames = [...]string{"?", "counter", "?", "instant", "discrete"}

// AppendDump appends the text PCP 6.0.3's mmvdump prints for the file,
// with name as the "MMV file" line and nowMicros (microseconds since the
// Unix epoch) as the time for open ELAPSED intervals. The layout, the
// field order and mmvdump's quirks (v2/v3 instance offsets stepping by
// 80, strings listed by slot) are reproduced so the two can be diffed.
func AppendDump(b []byte, r *File, name string, nowMicros int64) []byte {
	h := r.Header()
	b = append(b, "MMV file   = "...)
	b = append(b, name...)
	b = append(b, "\nVersion    = "...)
	b = appendInt(b, int64(h.Version))
	b = append(b, "\nGenerated  = "...)
	b = strconv.AppendUint(b, h.Gen1, 10)
	b = append(b, "\nTOC count  = "...)
	b = appendInt(b, int64(h.TOCs))
	b = append(b, "\nCluster    = "...)
	b = appendInt(b, int64(h.Cluster))
	b = append(b, "\nProcess    = "...)
	b = appendInt(b, int64(h.Process))
	b = append(b, "\nFlags      = 0x"...)
	b = strconv.AppendUint(b, uint64(h.Flags), 16)
	b = append(b, " ("...)
	b = appendFlags(b, h.Flags)
	b = append(b, ")\n"...)
	for i := 0; i < int(h.TOCs); i++ {
		at := HeaderSize + i*TOCEntrySize
		s := Section(r.u32(at))
		known := s >= SectionIndoms && s <= SectionLabels && r.sect[s].toc == i
		if !known {
			continue
		}
		sec := r.sect[s]
		b = append(b, "\nTOC["...)
		b = appendInt(b, int64(i))
		if s == SectionMetrics {
			b = append(b, "]: toc offset "...)
		} else {
			b = append(b, "]: offset "...)
		}
		b = appendInt(b, int64(at))
		b = append(b, ", "...)
		b = append(b, [...]string{"", "indoms", "instances", "metrics", "values", "string", "labels"}[s]...)
		b = append(b, " offset "...)
		b = strconv.AppendUint(b, sec.off, 10)
		b = append(b, " ("...)
		b = appendInt(b, int64(sec.count))
		b = append(b, " entries)\n"...)
		switch s {
		case SectionIndoms:
			b = r.dumpIndoms(b)
		case SectionInstances:
			b = r.dumpInstances(b)
		case SectionMetrics:
			b = r.dumpMetrics(b)
		case SectionValues:
			b = r.dumpValues(b, nowMicros)
		case SectionStrings:
			for k := range sec.count {
				off := sec.off + uint64(k)*StringSize
				b = entryHead(b, uint64(k+1), off)
				b = append(b, r.cstring(off, StringSize)...)
				b = append(b, '\n')
			}
		case SectionLabels:
			for l := range r.Labels() {
				b = entryHead(b, uint64(l.Index+1), uint64(l.Offset))
				b = append(b, l.Payload...)
				b = append(b, "\n        flags=0x"...)
				b = strconv.AppendUint(b, uint64(l.Flags), 16)
				b = append(b, ", identity=0x"...)
				b = strconv.AppendUint(b, uint64(l.Identity), 16)
				b = append(b, "\n        internal=0x"...)
				b = strconv.AppendUint(b, uint64(uint32(l.Internal)), 16)
				b = append(b, '\n')
			}
		}
	}
	return b
}

// appendFlags appends "none" or the comma list of flag names.
func appendFlags(b []byte, f Flags) []byte {
	if f == 0 {
		return append(b, "none"...)
	}
	start := len(b)
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			if len(b) > start {
				b = append(b, ", "...)
			}
			b = append(b, n...)
		}
	}
	if rest := f &^ 7; rest != 0 {
		if len(b) > start {
			b = append(b, ", "...)
		}
		b = append(b, "unknown="...)
		b = strconv.AppendUint(b, uint64(rest), 16)
	}
	return b
}

// entryHead appends "  [id/offset] ".
func entryHead(b []byte, id, off uint64) []byte {
	b = append(b, "  ["...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, '/')
	b = strconv.AppendUint(b, off, 10)
	return append(b, "] "...)
}

// appendHelp appends a shorttext= or helptext= line.
func appendHelp(b []byte, key string, text []byte, present bool) []byte {
	if !present {
		b = append(b, "       (no "...)
		b = append(b, key...)
		return append(b, ")\n"...)
	}
	b = append(b, "       "...)
	b = append(b, key...)
	b = append(b, '=')
	b = append(b, text...)
	return append(b, '\n')
}

func (r *File) dumpIndoms(b []byte) []byte {
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		b = entryHead(b, uint64(d.Serial), uint64(d.Offset))
		b = appendInt(b, int64(d.Count))
		b = append(b, " instances, starting at offset "...)
		b = strconv.AppendUint(b, r.u64(d.Offset+8), 10)
		b = append(b, '\n')
		b = appendHelp(b, "shorttext", d.ShortText, r.u64(d.Offset+16) != 0)
		b = appendHelp(b, "helptext", d.HelpText, r.u64(d.Offset+24) != 0)
	}
	return b
}

func (r *File) dumpInstances(b []byte) []byte {
	sec := r.sect[SectionInstances]
	for i := range sec.count {
		in := r.Instance(i)
		serial := uint32(0)
		if in.Indom >= 0 {
			serial = r.Indom(in.Indom).Serial
		}
		// mmvdump steps by the v1 entry size whatever the version.
		b = entryHead(b, uint64(serial), sec.off+uint64(i)*InstanceSizeV1)
		b = append(b, "instance = "...)
		b = appendInst(b, in)
		b = append(b, '\n')
	}
	return b
}

// appendInst appends `[id or "name"]`.
func appendInst(b []byte, in Instance) []byte {
	b = append(b, '[')
	b = appendInt(b, int64(in.ID))
	b = append(b, ` or "`...)
	b = append(b, in.Name...)
	return append(b, `"]`...)
}

func (r *File) dumpMetrics(b []byte) []byte {
	// Every entry, as mmvdump prints them: refused metrics too.
	for i := range r.NumMetrics() {
		m := r.Metric(i)
		b = entryHead(b, uint64(m.Item), uint64(m.Offset))
		b = append(b, m.Name...)
		b = append(b, "\n       type="...)
		b = append(b, m.Type.String()...)
		b = append(b, " (0x"...)
		b = strconv.AppendUint(b, uint64(uint32(m.Type)), 16)
		b = append(b, "), sem="...)
		if m.Sem >= 0 && int(m.Sem) < len(semNames) {
			b = append(b, semNames[m.Sem]...)
		} else {
			b = append(b, '?')
		}
		b = append(b, " (0x"...)
		b = strconv.AppendUint(b, uint64(uint32(m.Sem)), 16)
		b = append(b, "), pad=0x"...)
		b = strconv.AppendUint(b, uint64(m.Pad), 16)
		b = append(b, "\n       units="...)
		b, _ = m.Units.AppendText(b)
		b = append(b, '\n')
		if m.Singular() {
			b = append(b, "       (no indom)\n"...)
		} else {
			b = append(b, "       indom="...)
			b = strconv.AppendUint(b, uint64(m.Indom), 10)
			b = append(b, '\n')
		}
		b = appendHelp(b, "shorttext", m.ShortText, m.ShortText != nil)
		b = appendHelp(b, "helptext", m.HelpText, m.HelpText != nil)
	}
	return b
}

func (r *File) dumpValues(b []byte, now int64) []byte {
	// Every entry, as mmvdump prints them: values of refused metrics too.
	for i := range r.NumValues() {
		v := r.Value(i)
		if v.Metric < 0 {
			continue
		}
		m := r.Metric(v.Metric)
		b = entryHead(b, uint64(m.Item), uint64(v.Offset))
		b = append(b, m.Name...)
		if v.Instance >= 0 {
			b = appendInst(b, r.Instance(v.Instance))
		}
		if !v.Type.Valid() || v.Type == TypeNoSupport {
			b = append(b, "Unknown type "...)
			b = appendInt(b, int64(v.Type))
		} else {
			b = append(b, " = "...)
			b = appendValue(b, v, now)
		}
		b = append(b, '\n')
	}
	return b
}

// appendValue appends a value as mmvdump prints it.
func appendValue(b []byte, v Value, now int64) []byte {
	switch v.Type {
	case TypeI32, TypeI64:
		return appendInt(b, v.Int())
	case TypeU32, TypeU64:
		return strconv.AppendUint(b, v.Uint(), 10)
	case TypeFloat, TypeDouble:
		return appendCFloat(b, v.Float())
	case TypeString:
		b = append(b, '"')
		b = append(b, v.Text()...)
		return append(b, '"')
	case TypeElapsed:
		b = appendInt(b, v.Elapsed(now))
		b = append(b, " (value="...)
		b = appendInt(b, int64(v.Raw()))
		b = append(b, "/extra="...)
		b = appendInt(b, v.Extra())
		b = append(b, ')')
		if v.Extra() > 0 {
			b = append(b, "Bad ELAPSED 'extra' value found!"...)
		}
		return b
	}
	return b
}

// appendCFloat formats f as C's printf("%f") does, including "nan",
// "-nan", "inf" and "-inf".
func appendCFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			b = append(b, '-')
		}
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, f, 'f', 6, 64)
}
