package mmv

import (
	"encoding/binary"
	"iter"
	"math/bits"

	"github.com/perfwire/perfwire/pcp"
)

// Metric is one metric entry. Name and the help texts are views into the
// file's bytes.
type Metric struct {
	Index     int // entry index in the METRICS section
	Offset    int // byte offset of the entry
	Name      []byte
	Item      uint32
	Type      Type
	Sem       pcp.Sem // as stored; 0 is exported as a counter
	Units     pcp.Units
	Indom     uint32 // serial; 0 or 0xffffffff for a singular metric
	Pad       uint32
	ShortText []byte // nil when absent
	HelpText  []byte // nil when absent
}

// Singular reports whether the metric has one value and no indom.
func (m Metric) Singular() bool { return m.Indom == 0 || m.Indom == 0xffffffff }

// Indom is one instance-domain entry.
type Indom struct {
	Index     int
	Offset    int
	Serial    uint32
	Count     int // number of instances
	First     int // index of the first instance in the INSTANCES section
	ShortText []byte
	HelpText  []byte
}

// Instance is one instance entry.
type Instance struct {
	Index  int
	Offset int
	Indom  int   // index of the owning indom entry; -1 if rewritten after validation
	ID     int32 // internal instance identifier
	Name   []byte
}

// Label is one v3 label entry; Payload is the JSON text {"name":value}.
type Label struct {
	Index    int
	Offset   int
	Flags    LabelFlags
	Identity uint32 // cluster, indom serial or item, by level
	Internal int32  // instance id for LabelInstances, else -1
	Payload  []byte
}

// NumMetrics returns the number of metric entries.
func (r *File) NumMetrics() int { return r.sect[SectionMetrics].count }

// NumIndoms returns the number of indom entries.
func (r *File) NumIndoms() int { return r.sect[SectionIndoms].count }

// NumInstances returns the number of instance entries.
func (r *File) NumInstances() int { return r.sect[SectionInstances].count }

// NumValues returns the number of value entries.
func (r *File) NumValues() int { return r.sect[SectionValues].count }

// NumLabels returns the number of label entries (0 before version 3).
func (r *File) NumLabels() int { return r.sect[SectionLabels].count }

// NumStrings returns the count the STRINGS TOC entry declares.
func (r *File) NumStrings() int { return r.sect[SectionStrings].count }

// Metric returns metric entry i; it panics if i is out of range, like a
// slice index.
func (r *File) Metric(i int) Metric {
	r.check(SectionMetrics, i)
	at := r.at(SectionMetrics, i)
	// A v1 name is inline, the fields after it; a later one a reference.
	name, max, base := uint64(at), NameSizeV1, at+NameSizeV1-8
	if r.hdr.Version != 1 {
		name, max, base = r.u64(at), StringSize, at
	}
	m := Metric{Index: i, Offset: at, Name: r.cstring(name, max)}
	// The six words from item to pad, and the two help texts, each read
	// by one loop: in WebAssembly every inlined read costs code.
	var w [6]uint32
	for k := range w {
		w[k] = r.u32Cold(base + 8 + 4*k)
	}
	m.Item, m.Type, m.Sem, m.Units, m.Indom, m.Pad = w[0], Type(int32(w[1])), pcp.Sem(int32(w[2])), pcp.Units(w[3]), w[4], w[5]
	var t [2][]byte
	for k := range t {
		t[k] = r.helpText(r.u64(base + 32 + 8*k))
	}
	m.ShortText, m.HelpText = t[0], t[1]
	return m
}

// Indom returns indom entry i.
func (r *File) Indom(i int) Indom {
	r.check(SectionIndoms, i)
	at := r.at(SectionIndoms, i)
	d := Indom{Index: i, Offset: at, Serial: r.u32Cold(at), Count: int(r.u32Cold(at + 4))}
	d.First = r.index(SectionInstances, r.u64(at+8))
	if d.Count == 0 || d.First < 0 || d.First+d.Count > r.NumInstances() {
		// Only a writer that rewrote the entry after validation gets here.
		d.First, d.Count = 0, 0
	}
	var t [2][]byte
	for k := range t {
		t[k] = r.helpText(r.u64(at + 16 + 8*k))
	}
	d.ShortText, d.HelpText = t[0], t[1]
	return d
}

// Instance returns instance entry i.
func (r *File) Instance(i int) Instance {
	r.check(SectionInstances, i)
	at := r.at(SectionInstances, i)
	name, max := uint64(at+16), NameSizeV1
	if r.hdr.Version != 1 {
		name, max = r.u64(at+16), StringSize
	}
	return Instance{Index: i, Offset: at, Indom: r.index(SectionIndoms, r.u64(at)), ID: int32(r.u32Cold(at + 12)),
		Name: r.cstring(name, max)}
}

// Label returns label entry i.
func (r *File) Label(i int) Label {
	r.check(SectionLabels, i)
	at := r.at(SectionLabels, i)
	return Label{Index: i, Offset: at, Flags: LabelFlags(r.u32Cold(at)), Identity: r.u32Cold(at + 4),
		Internal: int32(r.u32Cold(at + 8)), Payload: r.cstring(uint64(at+12), LabelPayload)}
}

// Value returns value entry i. The Value reads its number or text from
// the file's bytes each time it is asked. If a writer rewrote the entry's
// metric offset after validation (without a new generation), Metric is
// -1 and Type is TypeNoSupport; callers that index metrics must check.
func (r *File) Value(i int) Value {
	r.check(SectionValues, i)
	v := Value{Index: i - 1, Metric: -1, Instance: -1}
	r.NextValue(&v)
	return v
}

// NextValue sets *v to value entry v.Index+1, as Value would return it,
// and reports whether there is one (false after the last entry, and
// for a negative index). Starting from a Value whose Index is -1 it
// reads the entries in file order:
//
//	v := mmv.Value{Index: -1}
//	for r.NextValue(&v) { ... }
//
// It is faster than Value per entry where writers lay the values out as
// they usually do, a metric's values one after the other over its
// instances in order: it takes v's metric and the instance after v's
// when their offsets are those the entry holds, checked against the
// bytes (so any v gives Value's result), and looks up the others.
func (r *File) NextValue(v *Value) bool {
	i := v.Index + 1
	if i < 0 || i >= r.sect[SectionValues].count {
		return false
	}
	at := r.at(SectionValues, i)
	// One reslice: the reads below index the entry's last 16 bytes.
	e := r.b[at+16 : at+ValueSize]
	moff, inst := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:])
	if r.big {
		moff, inst = bits.ReverseBytes64(moff), bits.ReverseBytes64(inst)
	}
	mi, ii := v.Metric, v.Instance
	if mi < 0 || mi >= r.sect[SectionMetrics].count || moff != uint64(r.at(SectionMetrics, mi)) {
		mi = r.index(SectionMetrics, moff)
	}
	if inst == 0 {
		ii = -1
	} else if ii < 0 || ii >= r.sect[SectionInstances].count-1 || inst != uint64(r.at(SectionInstances, ii+1)) {
		ii = r.index(SectionInstances, inst)
	} else {
		ii++
	}
	v.Index, v.Offset, v.Metric, v.Instance, v.Type = i, at, mi, -1, TypeNoSupport
	v.b, v.big, v.sentinel = r.b, r.big, r.hdr.Flags&FlagSentinel != 0
	// A metric offset rewritten after validation leaves no metric, no
	// value. The type word sits 36 bytes before the end of a metric
	// entry in every version.
	if mi >= 0 {
		v.Type = Type(int32(r.u32(r.at(SectionMetrics, mi) + int(r.msz) - 36)))
		v.Instance = ii
	}
	return true
}

// check panics with a clear message when i is not an entry of s.
func (r *File) check(s Section, i int) {
	if i < 0 || i >= r.sect[s].count {
		badIndex(s)
	}
}

// badIndex is check's panic, apart so that the accessors inlining check
// do not each hold its message's concatenation.
//
//go:noinline
func badIndex(s Section) {
	panic("mmv: " + sectionNames[s] + " index out of range")
}

// Metrics iterates over the metric entries in file order, but for those
// left out under [Options.SkipRefused].
func (r *File) Metrics() iter.Seq[Metric] {
	return func(yield func(Metric) bool) {
		for i := range r.NumMetrics() {
			if r.Refused(i) {
				continue
			}
			if !yield(r.Metric(i)) {
				return
			}
		}
	}
}

// Values iterates over the value entries in file order, but for those of
// metrics left out under [Options.SkipRefused].
func (r *File) Values() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		for v := (Value{Index: -1}); r.NextValue(&v); {
			if v.Metric >= 0 && r.Refused(v.Metric) {
				continue
			}
			if !yield(v) {
				return
			}
		}
	}
}

// Instances iterates over the instances of indom entry d, in file order.
func (r *File) Instances(d Indom) iter.Seq[Instance] {
	return func(yield func(Instance) bool) {
		for i := d.First; i < d.First+d.Count; i++ {
			if !yield(r.Instance(i)) {
				return
			}
		}
	}
}

// Labels iterates over the label entries in file order.
func (r *File) Labels() iter.Seq[Label] {
	return func(yield func(Label) bool) {
		for i := range r.NumLabels() {
			if !yield(r.Label(i)) {
				return
			}
		}
	}
}

// IndomOf returns the indom entry of metric m; ok is false for a
// singular metric (or an indom that vanished after validation).
func (r *File) IndomOf(m Metric) (Indom, bool) {
	d := r.indomBySerial(m.Indom)
	if m.Singular() || d < 0 {
		return Indom{}, false
	}
	return r.Indom(d), true
}

// Words returns the value and extra words of value entry i straight from
// the bytes, for pollers that resolved metrics and instances once (with
// [File.Value]) and then only re-read numbers: no offset lookups.
func (r *File) Words(i int) (value uint64, extra int64) {
	r.check(SectionValues, i)
	at := r.at(SectionValues, i)
	return r.u64(at), int64(r.u64(at + 8))
}
