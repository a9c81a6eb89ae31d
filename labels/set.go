package labels

import "iter"

// Label is one entry of a set's index, exactly the fields of libpcp's
// pmLabel: where the name and the value lie in the set's JSON, and the
// label's flags. NameOff points just after the name's opening quote; a
// string value's span includes both quotes.
type Label struct {
	NameOff  uint16
	NameLen  uint8
	Flags    Flags
	ValueOff uint16
	ValueLen uint16
}

// Pair is a label as seen through its set: views of the name and value
// text (valid while the set's JSON is) and the flags.
type Pair struct {
	Name  []byte // full name, dotted for compound labels, without quotes
	Value []byte // JSON value text, verbatim
	Flags Flags
}

// ClassicName reports whether PCP 6.x (any PCP before 7.2) would accept
// the name: every dot-separated component starts with an ASCII letter.
func (p Pair) ClassicName() bool { return validName(p.Name, Classic, true) }

// Set is one label set: its JSON text and an index sorted by name. The
// JSON is either the sorted canonical form Parse and Merge emit or, for
// sets received from elsewhere, any order; the index is always sorted.
//
// Parse, Merge and DecodeWire reuse a Set's slices, so a Set kept across
// calls parses without allocating once its buffers have grown. JSON may
// alias the caller's input after DecodeWire; use Clone to keep a set
// beyond the lifetime of its input. Copying a Set shares its buffers.
type Set struct {
	JSON  []byte  // the JSONB text
	Index []Label // one entry per label, sorted by name

	// Scratch space reused by Parse, Merge and DecodeWire.
	alt    []byte
	altIdx []Label
	src    []int32
	path   []byte
	spans  []uint32
	check  *Set

	// borrowed is set while JSON aliases a caller's buffer (DecodeWire):
	// that memory must never be written or recycled as scratch.
	borrowed bool
	spare    []byte // s's own JSON buffer, kept while JSON is borrowed
}

// ownJSON makes s.JSON a buffer s may write into, dropping a borrowed one.
func (s *Set) ownJSON() {
	if s.borrowed {
		s.JSON, s.spare, s.borrowed = s.spare[:0], nil, false
	}
}

// borrow makes json, owned by the caller, the set's JSON.
func (s *Set) borrow(json []byte) {
	if !s.borrowed {
		s.spare = s.JSON[:0]
	}
	s.JSON, s.borrowed = json, true
}

// Reset empties s, keeping its buffers for reuse.
func (s *Set) Reset() {
	s.JSON = s.JSON[:0]
	s.Index = s.Index[:0]
}

// Len returns the number of labels.
func (s *Set) Len() int { return len(s.Index) }

// At returns label i in sorted order; it panics if i is out of range, as
// slice indexing does.
func (s *Set) At(i int) Pair {
	l := s.Index[i]
	return Pair{
		Name:  s.JSON[l.NameOff : int(l.NameOff)+int(l.NameLen)],
		Value: s.JSON[l.ValueOff : int(l.ValueOff)+int(l.ValueLen)],
		Flags: l.Flags,
	}
}

// name returns the name text of entry l.
func (s *Set) name(l Label) []byte {
	return s.JSON[l.NameOff : int(l.NameOff)+int(l.NameLen)]
}

// Lookup finds the label with the given full name by binary search.
func (s *Set) Lookup(name string) (Pair, bool) {
	lo, hi := 0, len(s.Index)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareStr(s.name(s.Index[m]), name) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.Index) && string(s.name(s.Index[lo])) == name {
		return s.At(lo), true
	}
	return Pair{}, false
}

// All yields the labels in sorted name order.
func (s *Set) All() iter.Seq[Pair] {
	return func(yield func(Pair) bool) {
		for i := range s.Index {
			if !yield(s.At(i)) {
				return
			}
		}
	}
}

// Clone returns a deep copy of s's JSON and index that shares nothing
// with s or with the input s was decoded from.
func (s *Set) Clone() Set {
	return Set{
		JSON:  append([]byte(nil), s.JSON...),
		Index: append([]Label(nil), s.Index...),
	}
}

// Equal reports whether s and t hold the same labels: the same names,
// value texts and flags, whatever the order of their JSON texts.
func (s *Set) Equal(t *Set) bool {
	if len(s.Index) != len(t.Index) {
		return false
	}
	for i := range s.Index {
		a, b := s.At(i), t.At(i)
		if a.Flags != b.Flags || string(a.Name) != string(b.Name) || string(a.Value) != string(b.Value) {
			return false
		}
	}
	return true
}

// compareStr orders a name against a string byte-wise, a prefix before
// any longer name, as bytes.Compare does; comparing through string(a)
// does not copy a.
func compareStr(a []byte, b string) int {
	switch {
	case string(a) < b:
		return -1
	case string(a) > b:
		return 1
	}
	return 0
}
