package mmv

import (
	"encoding/binary"
)

// putter writes words in one byte order without an interface call per
// word.
type putter struct {
	b   []byte
	big bool
}

func (w putter) u32(off int, v uint32) {
	if w.big {
		binary.BigEndian.PutUint32(w.b[off:], v)
	} else {
		binary.LittleEndian.PutUint32(w.b[off:], v)
	}
}

func (w putter) u64(off int, v uint64) {
	if w.big {
		binary.BigEndian.PutUint64(w.b[off:], v)
	} else {
		binary.LittleEndian.PutUint64(w.b[off:], v)
	}
}

// text copies s into the slot at off and terminates it.
func (w putter) text(off int, s string) {
	w.b[off+copy(w.b[off:], s)] = 0
}

// AppendFile appends a complete, published file (g2 equal to g1, values
// zero, string values empty) in byte order order (nil: little-endian).
func (p *Plan) AppendFile(dst []byte, order binary.ByteOrder) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, p.size)...)
	p.Write(dst[n:], order)
	Publish(dst[n:], order)
	return dst
}

// Write lays the file out in dst[:Size()], which it first clears, with
// g2 = 0 so that pmdammv ignores the file until [Publish]. dst is
// typically a fresh shared mapping; Write panics if it is too short.
func (p *Plan) Write(dst []byte, order binary.ByteOrder) {
	dst = dst[:p.size]
	clear(dst)
	w := putter{b: dst, big: isBig(order)}
	reg := &p.reg
	copy(dst, Magic)
	w.u32(4, uint32(p.version))
	w.u64(8, reg.Gen)
	w.u32(24, uint32(p.tocs))
	w.u32(28, uint32(reg.Flags))
	w.u32(32, uint32(reg.Process))
	w.u32(36, reg.Cluster)
	toc := HeaderSize
	entry := func(s Section, count, off int) {
		w.u32(toc, uint32(s))
		w.u32(toc+4, uint32(count))
		w.u64(toc+8, uint64(off))
		toc += TOCEntrySize
	}
	ninst := (p.metrics - p.insts) / p.isz
	if len(reg.Indoms) > 0 {
		entry(SectionIndoms, len(reg.Indoms), p.indoms)
		entry(SectionInstances, ninst, p.insts)
	}
	entry(SectionMetrics, len(reg.Metrics), p.metrics)
	entry(SectionValues, p.nvals, p.values)
	if p.nstrs > 0 {
		entry(SectionStrings, p.nstrs, p.strs)
	}
	if len(reg.Labels) > 0 {
		entry(SectionLabels, len(reg.Labels), p.labels)
	}

	// Strings are handed out in libpcp_mmv's order (see layout).
	next := p.strs
	str := func(s string) uint64 {
		if s == "" {
			return 0
		}
		off := next
		w.text(off, s)
		next += StringSize
		return uint64(off)
	}
	for i, d := range reg.Indoms {
		for k, in := range d.Instances {
			at := p.insts + (p.dfirst[i]+k)*p.isz
			w.u64(at, uint64(p.indoms+i*IndomSize))
			w.u32(at+12, uint32(in.ID))
			if p.version == 1 {
				w.text(at+16, in.Name)
			} else {
				w.u64(at+16, str(in.Name))
			}
		}
	}
	for i, m := range reg.Metrics {
		at := p.metrics + i*p.msz
		base := at
		if p.version == 1 {
			w.text(at, m.Name)
			base = at + NameSizeV1 - 8
		} else {
			w.u64(at, str(m.Name))
		}
		w.u32(base+8, m.Item)
		w.u32(base+12, uint32(m.Type))
		w.u32(base+16, uint32(m.Sem))
		w.u32(base+20, uint32(m.Units))
		w.u32(base+24, m.Indom)
		for k := range p.nval[i] {
			v := p.values + (p.first[i]+k)*ValueSize
			w.u64(v+16, uint64(at))
			if p.dindex[i] >= 0 {
				w.u64(v+24, uint64(p.insts+(p.dfirst[p.dindex[i]]+k)*p.isz))
			}
		}
	}
	for i, m := range reg.Metrics {
		if m.Type != TypeString {
			continue
		}
		for k := range p.nval[i] {
			w.u64(p.values+(p.first[i]+k)*ValueSize+8, uint64(next))
			next += StringSize
		}
	}
	for i, m := range reg.Metrics {
		base := p.metrics + i*p.msz
		if p.version == 1 {
			base += NameSizeV1 - 8
		}
		w.u64(base+32, str(m.ShortText))
		w.u64(base+40, str(m.HelpText))
	}
	for i, d := range reg.Indoms {
		at := p.indoms + i*IndomSize
		w.u32(at, d.Serial)
		w.u32(at+4, uint32(len(d.Instances)))
		w.u64(at+8, uint64(p.insts+p.dfirst[i]*p.isz))
		w.u64(at+16, str(d.ShortText))
		w.u64(at+24, str(d.HelpText))
	}
	for i, l := range reg.Labels {
		at := p.labels + i*LabelSize
		w.u32(at, uint32(l.Flags))
		w.u32(at+4, l.Identity)
		internal := l.Internal
		if l.Flags.Level() != LabelInstances {
			internal = -1
		}
		w.u32(at+8, uint32(internal))
		labelPayload(dst[at+12:at+12], l)
	}
}

// Publish stores g2 = g1 in a file laid out by [Plan.Write]: the last
// store of the generation protocol, after which pmdammv uses the file.
// Go has no atomic store into a byte slice without package unsafe, so
// this is one plain 8-byte store; on amd64 and arm64 an aligned 8-byte
// store is single-copy atomic in practice.
func Publish(b []byte, order binary.ByteOrder) {
	w := putter{b: b, big: isBig(order)}
	r := File{b: b, big: w.big}
	w.u64(16, r.u64(8))
}

// Republish stores a new non-zero generation in g1 and g2 (g2 last):
// what a writer does after editing metadata in place, so that pmdammv
// drops and rescans the file.
func Republish(b []byte, order binary.ByteOrder, gen uint64) {
	w := putter{b: b, big: isBig(order)}
	w.u64(16, 0)
	w.u64(8, gen)
	w.u64(16, gen)
}
