package archive

import (
	"bytes"
	"cmp"
	"slices"
	"sort"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// The .meta record types (docs/pcp-archive.md §5). Version 2 archives use
// 1–4; version 3 archives use 1, 4 and 5–7; readers accept all of them in
// both, as libpcp does.
const (
	metaDesc       = 1
	metaInDomV2    = 2
	metaLabelV2    = 3
	metaText       = 4
	metaInDom      = 5
	metaInDomDelta = 6
	metaLabel      = 7
)

// Help text kinds (PM_TEXT_*): what a Text record describes and how long
// it is.
const (
	TextOneLine = 1 // the one-line summary
	TextHelp    = 2 // the full help text
	TextPMID    = 4 // Ident is a metric's pmID
	TextInDom   = 8 // Ident is an instance domain
)

// Metric is a metric descriptor with the names the archive gives it.
type Metric struct {
	pcp.Desc
	Names []string
}

// Instances is an instance domain as one .meta record gives it, from Time
// on, its instances in increasing number as libpcp keeps them. For a
// delta record (version 3) Inst and Names are the whole domain as it
// stands after the change; Delta reports how it was recorded.
type Instances struct {
	Time  Timestamp
	InDom pcp.InDom
	Delta bool
	Inst  []int32
	Names []string
}

// Name returns the external name of inst, or "" and false.
func (in *Instances) Name(inst int32) (string, bool) {
	if i, ok := slices.BinarySearch(in.Inst, inst); ok {
		return in.Names[i], true
	}
	return "", false
}

// LabelSets is one label record: the label sets of one object (the
// context, a domain, an instance domain, a cluster, an item, or the
// instances of an instance domain) from Time on. Type is a pduwire.Label*
// constant; Ident the domain, indom or pmID it belongs to.
type LabelSets struct {
	Time  Timestamp
	Type  uint32
	Ident uint32
	Sets  []pduwire.LabelSet
}

// Text is a help text record.
type Text struct {
	Type  uint32 // TextOneLine or TextHelp, with TextPMID or TextInDom
	Ident uint32 // the pmID or the instance domain
	Text  string
}

// Meta is an archive's metadata, read whole from the .meta file.
type Meta struct {
	Metrics []Metric    // in the order the .meta records them
	InDoms  []Instances // every instance domain record, in time order
	Labels  []LabelSets // every label record, in the .meta's order
	Texts   []Text

	byPMID map[pcp.ID]int
	byName map[string]int
	byDom  map[pcp.InDom][]int // indices into InDoms, in time order
	text   map[[2]uint32]int
}

// Metric returns the descriptor of pmid.
func (m *Meta) Metric(pmid pcp.ID) (*Metric, bool) {
	if i, ok := m.byPMID[pmid]; ok {
		return &m.Metrics[i], true
	}
	return nil, false
}

// Lookup returns the metric named name.
func (m *Meta) Lookup(name string) (*Metric, bool) {
	if i, ok := m.byName[name]; ok {
		return &m.Metrics[i], true
	}
	return nil, false
}

// InDomAt returns the instance domain as it was at t: the latest record at
// or before t. Before the first record it returns the first, as values
// recorded in the same instant may precede their domain in time.
func (m *Meta) InDomAt(indom pcp.InDom, t Timestamp) (*Instances, bool) {
	ix := m.byDom[indom]
	if len(ix) == 0 {
		return nil, false
	}
	k := sort.Search(len(ix), func(k int) bool { return t.Before(m.InDoms[ix[k]].Time) })
	if k == 0 {
		k = 1
	}
	return &m.InDoms[ix[k-1]], true
}

// InDomHistory returns every record of indom in time order.
func (m *Meta) InDomHistory(indom pcp.InDom) []*Instances {
	var out []*Instances
	for _, i := range m.byDom[indom] {
		out = append(out, &m.InDoms[i])
	}
	return out
}

// Text returns a help text; kind is TextOneLine or TextHelp ored with
// TextPMID (ident is a pmID) or TextInDom (ident is an instance domain).
func (m *Meta) Text(kind, ident uint32) (string, bool) {
	if i, ok := m.text[[2]uint32{kind, ident}]; ok {
		return m.Texts[i].Text, true
	}
	return "", false
}

// metaParser reads .meta records into a Meta.
type metaParser struct {
	m       *Meta
	v       int
	file    string
	o       Options
	nInst   int
	current map[pcp.InDom]int // the latest record of each domain, for deltas
}

func (p *metaParser) record(rec []byte, off int64) error {
	body := rec[4 : len(rec)-4]
	typ := be32(body, 0)
	c := cursor{b: body, pos: 4, base: off + 4, file: p.file}
	switch {
	case typ == metaDesc:
		// A descriptor, read here rather than by a function of its own
		// with one caller (module size; see wasm/size).
		var d Metric
		var ok bool
		w := [6]uint32{}
		for i := range w {
			if w[i], ok = c.u32(); !ok {
				return c.fail("DESC", ErrTruncated)
			}
		}
		d.Desc = pcp.Desc{ID: pcp.ID(w[0]), Type: pcp.Type(int32(w[1])), InDom: pcp.InDom(w[2]),
			Sem: pcp.Sem(int32(w[3])), Units: pcp.Units(w[4])}
		n := int32(w[5])
		if n < 0 || int(n) > c.left()/4 {
			return c.failValue("DESC.numnames", c.pos-4, ErrCount, int64(n), int64(c.left()/4))
		}
		for range n {
			l, _ := c.u32()
			name, ok := c.bytes(int(int32(l)))
			if !ok {
				return c.fail("DESC.name", ErrTruncated)
			}
			// A name ends at a NUL, as libpcp reads it (old archives pad).
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			// Old pmloggers wrote a name more than once; libpcp keeps one.
			if !slices.Contains(d.Names, string(name)) {
				d.Names = append(d.Names, string(name))
			}
		}
		if c.left() != 0 {
			return c.fail("DESC", ErrTrailing)
		}
		m := p.m
		// pmlogger writes a descriptor once; a later copy (an archive merged
		// by pmlogextract, say) adds names, never a second entry.
		at, dup := m.byPMID[d.ID]
		if !dup {
			at = len(m.Metrics)
			m.byPMID[d.ID] = at
			m.Metrics = append(m.Metrics, d)
		}
		for _, nm := range d.Names {
			if _, seen := m.byName[nm]; !seen {
				if dup {
					m.Metrics[at].Names = append(m.Metrics[at].Names, nm)
				}
				m.byName[nm] = at
			}
		}
		return nil
	case typ == metaText:
		// A help text, read here as a descriptor is.
		typ, ok1 := c.u32()
		ident, ok2 := c.u32()
		if !ok1 || !ok2 {
			return c.fail("TEXT", ErrTruncated)
		}
		rest, _ := c.bytes(c.left())
		if i := bytes.IndexByte(rest, 0); i >= 0 {
			rest = rest[:i]
		}
		p.m.text[[2]uint32{typ, ident}] = len(p.m.Texts)
		p.m.Texts = append(p.m.Texts, Text{Type: typ, Ident: ident, Text: string(rest)})
		return nil
	// The record type, not the archive's version, says how a timestamp
	// is laid out: libpcp reads either kind in either version.
	case typ == metaInDomV2:
		return p.indom(&c, 2, false)
	case typ == metaInDom || typ == metaInDomDelta:
		return p.indom(&c, 3, typ == metaInDomDelta)
	case typ == metaLabelV2:
		return p.labels(&c, 2)
	case typ == metaLabel:
		return p.labels(&c, 3)
	}
	return failValue(p.file, "meta.type", off+4, ErrType, int64(typ), 0)
}

func (p *metaParser) indom(c *cursor, v int, delta bool) error {
	t, ok := c.stamp(v)
	if !ok {
		return c.fail("INDOM", ErrTruncated)
	}
	id, _ := c.u32()
	nw, ok := c.u32()
	if !ok {
		return c.fail("INDOM", ErrTruncated)
	}
	n := int(int32(nw))
	if n < 0 || n > c.left()/8 {
		return c.failValue("INDOM.numinst", c.pos-4, ErrCount, int64(n), int64(c.left()/8))
	}
	if p.nInst+n > p.o.MaxInstances {
		return c.failValue("INDOM.numinst", c.pos-4, ErrLimit, int64(p.nInst+n), int64(p.o.MaxInstances))
	}
	p.nInst += n
	inst := make([]int32, n)
	for i := range inst {
		v, _ := c.u32()
		if inst[i] = int32(v); inst[i] < 0 {
			// PM_IN_NULL and other negative numbers name no instance.
			return c.failValue("INDOM.inst", c.pos-4, ErrRange, int64(inst[i]), 0)
		}
	}
	offsAt := c.pos
	c.pos += 4 * n
	strtab := c.b[c.pos:]
	names := make([]string, n)
	dead := make([]bool, n)
	for i := range names {
		so := int32(be32(c.b, offsAt+4*i))
		if so == -1 && delta {
			dead[i] = true
			continue
		}
		if so < 0 || int(so) >= len(strtab) {
			return c.failValue("INDOM.stroff", offsAt+4*i, ErrRange, int64(so), int64(len(strtab)))
		}
		s := strtab[so:]
		e := bytes.IndexByte(s, 0)
		if e < 0 {
			return c.fail("INDOM.name", ErrTruncated)
		}
		names[i] = string(s[:e])
	}
	rec := Instances{Time: t, InDom: pcp.InDom(id), Delta: delta, Inst: inst, Names: names}
	if delta {
		// The whole domain after the changes to the latest record of the
		// same domain: instances marked dead leave, the others are added
		// or renamed. Here rather than in a function of its own, as
		// record reads a descriptor.
		out := Instances{Time: t, InDom: rec.InDom, Delta: true}
		gone := make(map[int32]bool, len(inst)) // replaced or removed
		for _, v := range inst {
			gone[v] = true
		}
		if k, ok := p.current[rec.InDom]; ok {
			prev := &p.m.InDoms[k]
			for i, v := range prev.Inst {
				if !gone[v] {
					out.Inst = append(out.Inst, v)
					out.Names = append(out.Names, prev.Names[i])
				}
			}
		}
		for i, v := range inst {
			if !dead[i] {
				out.Inst = append(out.Inst, v)
				out.Names = append(out.Names, names[i])
			}
		}
		p.nInst += len(out.Inst) - len(inst)
		rec = out
	}
	// The instances in increasing number, as libpcp keeps them, so that
	// lookups can search and equal domains compare equal; instances with
	// the same number keep their order.
	if !slices.IsSorted(rec.Inst) {
		idx := make([]int, len(rec.Inst))
		for i := range idx {
			idx[i] = i
		}
		sortStable(idx, func(a, b int) int { return cmp.Compare(rec.Inst[a], rec.Inst[b]) })
		inst := make([]int32, len(idx))
		names := make([]string, len(idx))
		for i, k := range idx {
			inst[i], names[i] = rec.Inst[k], rec.Names[k]
		}
		rec.Inst, rec.Names = inst, names
	}
	p.current[rec.InDom] = len(p.m.InDoms)
	p.m.InDoms = append(p.m.InDoms, rec)
	return nil
}

// same reports whether two records list the same instances and names.
func (in *Instances) same(o *Instances) bool {
	return slices.Equal(in.Inst, o.Inst) && slices.Equal(in.Names, o.Names)
}

func (p *metaParser) labels(c *cursor, v int) error {
	t, ok := c.stamp(v)
	if !ok {
		return c.fail("LABEL", ErrTruncated)
	}
	typ, _ := c.u32()
	ident, _ := c.u32()
	nw, ok := c.u32()
	if !ok {
		return c.fail("LABEL", ErrTruncated)
	}
	n := int(int32(nw))
	if n < 0 || n > c.left()/8 {
		return c.failValue("LABEL.nsets", c.pos-4, ErrCount, int64(n), int64(c.left()/8))
	}
	ls := LabelSets{Time: t, Type: typ, Ident: ident, Sets: make([]pduwire.LabelSet, n)}
	for i := range ls.Sets {
		inst, _ := c.u32()
		jl, ok := c.u32()
		if !ok {
			return c.fail("LABEL.set", ErrTruncated)
		}
		if int32(jl) < 0 || int32(jl) > pduwire.MaxJSONLen {
			return c.failValue("LABEL.jsonlen", c.pos-4, ErrRange, int64(int32(jl)), pduwire.MaxJSONLen)
		}
		js, ok := c.bytes(int(jl))
		if !ok {
			return c.fail("LABEL.json", ErrTruncated)
		}
		nl, ok := c.u32()
		if !ok {
			return c.fail("LABEL.nlabels", ErrTruncated)
		}
		// The record's buffer is reused: the set keeps a copy.
		s := pduwire.LabelSet{Inst: int32(inst), NLabels: int32(nl), JSON: bytes.Clone(js)}
		if s.NLabels > 0 {
			if s.NLabels > pduwire.MaxLabels || int(s.NLabels) > c.left()/8 {
				return c.failValue("LABEL.nlabels", c.pos-4, ErrCount, int64(s.NLabels), pduwire.MaxLabels)
			}
			s.Labels = make([]pduwire.LabelEntry, s.NLabels)
			for j := range s.Labels {
				e := c.b[c.pos : c.pos+8]
				l := pduwire.LabelEntry{Name: uint16(e[0])<<8 | uint16(e[1]), NameLen: e[2], Flags: e[3],
					Value: uint16(e[4])<<8 | uint16(e[5]), ValueLen: uint16(e[6])<<8 | uint16(e[7])}
				if int(l.Name)+int(l.NameLen) > len(js) || int(l.Value)+int(l.ValueLen) > len(js) {
					return c.fail("LABEL.index", ErrRange)
				}
				s.Labels[j] = l
				c.pos += 8
			}
		}
		ls.Sets[i] = s
	}
	if c.left() != 0 {
		return c.fail("LABEL", ErrTrailing)
	}
	p.m.Labels = append(p.m.Labels, ls)
	return nil
}

// finish puts each domain's records in time order as libpcp keeps them:
// a record equal to another of the same time is dropped and that other
// moves to the end of its time slot (the newest place, the one lookups
// find); the others go at the end of their slot. InDoms is rebuilt in
// time order from what remains.
func (p *metaParser) finish() {
	m := p.m
	var order []pcp.InDom
	lists := map[pcp.InDom][]int{}
	for i := range m.InDoms {
		rec := &m.InDoms[i]
		l, seen := lists[rec.InDom]
		if !seen {
			order = append(order, rec.InDom)
		}
		// end is just past the slot of rec.Time; start is its first.
		end := sort.Search(len(l), func(k int) bool { return rec.Time.Before(m.InDoms[l[k]].Time) })
		start := end
		for start > 0 && m.InDoms[l[start-1]].Time == rec.Time {
			start--
		}
		dup := -1
		for k := start; k < end; k++ {
			if m.InDoms[l[k]].same(rec) {
				dup = k
				break
			}
		}
		// Written out rather than with slices.Delete and Insert, whose
		// generic code is linked per instantiation (module size; see
		// wasm/size).
		if dup >= 0 {
			// The equal record moves to the end of its slot.
			moved := l[dup]
			copy(l[dup:end-1], l[dup+1:end])
			l[end-1] = moved
		} else {
			l = append(l, 0)
			copy(l[end+1:], l[end:])
			l[end] = i
		}
		lists[rec.InDom] = l
	}
	var keep []int
	for _, d := range order {
		keep = append(keep, lists[d]...)
	}
	sortStable(keep, func(a, b int) int {
		ta, tb := m.InDoms[a].Time, m.InDoms[b].Time
		switch {
		case ta.Before(tb):
			return -1
		case tb.Before(ta):
			return 1
		}
		return 0
	})
	// A domain's records keep their order in the stable sort (its list
	// is in time order), so each one's place is appended in list order.
	recs := make([]Instances, len(keep))
	for j, i := range keep {
		recs[j] = m.InDoms[i]
		m.byDom[recs[j].InDom] = append(m.byDom[recs[j].InDom], j)
	}
	m.InDoms = recs
}

// cursor reads one record's payload; base is the payload's offset in its
// file, for errors.
type cursor struct {
	b    []byte
	pos  int
	base int64
	file string
}

func (c *cursor) left() int { return len(c.b) - c.pos }

func (c *cursor) u32() (uint32, bool) {
	if c.left() < 4 {
		return 0, false
	}
	v := be32(c.b, c.pos)
	c.pos += 4
	return v, true
}

func (c *cursor) bytes(n int) ([]byte, bool) {
	if n < 0 || n > c.left() {
		return nil, false
	}
	b := c.b[c.pos : c.pos+n : c.pos+n]
	c.pos += n
	return b, true
}

func (c *cursor) stamp(v int) (Timestamp, bool) {
	n := stampSize(v)
	if c.left() < n {
		return Timestamp{}, false
	}
	t := readStamp(c.b, c.pos, v)
	c.pos += n
	return t, true
}

// fail and failValue are not inlined: the parsers call them some 20
// times.
//
//go:noinline
func (c *cursor) fail(field string, kind error) error {
	return fail(c.file, field, c.base+int64(c.pos), kind)
}

//go:noinline
func (c *cursor) failValue(field string, at int, kind error, v, limit int64) error {
	return failValue(c.file, field, c.base+int64(at), kind, v, limit)
}
