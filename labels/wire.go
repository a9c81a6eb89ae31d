package labels

import (
	"bytes"
	"encoding/binary"
)

// IndexEntrySize is the size of one label index entry in LABEL PDUs and
// archive label records.
const IndexEntrySize = 8

// AppendLabel appends l in wire form: name offset (big-endian 16 bits),
// name length, flags, value offset and value length (big-endian 16 bits).
func AppendLabel(b []byte, l Label) []byte {
	b = binary.BigEndian.AppendUint16(b, l.NameOff)
	b = append(b, l.NameLen, byte(l.Flags))
	b = binary.BigEndian.AppendUint16(b, l.ValueOff)
	return binary.BigEndian.AppendUint16(b, l.ValueLen)
}

// ConsumeLabel decodes one wire-form entry from the start of b. It
// returns the number of bytes used, or -1 if b is shorter than an entry.
func ConsumeLabel(b []byte) (Label, int) {
	if len(b) < IndexEntrySize {
		return Label{}, -1
	}
	return Label{
		NameOff:  binary.BigEndian.Uint16(b),
		NameLen:  b[2],
		Flags:    Flags(b[3]),
		ValueOff: binary.BigEndian.Uint16(b[4:]),
		ValueLen: binary.BigEndian.Uint16(b[6:]),
	}, IndexEntrySize
}

// AppendIndex appends s's index in wire form, one entry per label, as a
// LABEL PDU or an archive label record carries it after the set header.
func (s *Set) AppendIndex(b []byte) []byte {
	for _, l := range s.Index {
		b = AppendLabel(b, l)
	}
	return b
}

// Verify selects how much DecodeWire checks a received index against its
// JSON.
type Verify uint8

const (
	// VerifyIndex (the default) checks that every span lies inside the
	// JSON, that names are legal (Relaxed, dotted), that the index is
	// sorted without duplicates and that no two spans overlap.
	VerifyIndex Verify = iota
	// VerifyBounds checks only that every span lies inside the JSON,
	// which is all that makes a Set safe to read. It trusts the sender as
	// libpcp does, so a value such as the bare word none in qa/567 passes.
	VerifyBounds
	// VerifyStrict adds to VerifyIndex a re-parse of the JSON (Relaxed,
	// dotted names, input order kept) whose index must match the received
	// one span for span.
	VerifyStrict
)

// DecodeWire makes dst the set described by json and index, as found in a
// LABEL PDU or an archive label record: index holds len(index)/8 wire-form
// entries. dst.JSON aliases json (no copy); dst.Index reuses its buffer.
//
// It fails with a *ParseError of kind ErrLimit (more than 255 entries,
// JSON over 65534 bytes), errIndex (a partial entry or any check v
// selects) or, under VerifyStrict, the error that re-parsing the JSON
// gives. Offsets are into index, or into json for VerifyStrict parse
// errors. On failure dst is empty.
func (s *Set) DecodeWire(json, index []byte, v Verify) error {
	err := s.decodeWire(json, index, v)
	if err != nil {
		s.Reset()
	}
	return err
}

func (s *Set) decodeWire(json, index []byte, v Verify) error {
	if len(json) > MaxJSONLen {
		return limitAt("jsonlen", 0, len(json), MaxJSONLen)
	}
	if len(index)%IndexEntrySize != 0 {
		return errAt("index", len(index)/IndexEntrySize*IndexEntrySize, errIndex)
	}
	n := len(index) / IndexEntrySize
	if n > MaxLabelsArchive {
		return limitAt("nlabels", 0, n, MaxLabelsArchive)
	}
	s.borrow(json)
	s.Index = s.Index[:0]
	for i := 0; i < n; i++ {
		l, _ := ConsumeLabel(index[i*IndexEntrySize:])
		if int(l.NameOff)+int(l.NameLen) > len(json) || int(l.ValueOff)+int(l.ValueLen) > len(json) {
			return errAt("label", i*IndexEntrySize, errIndex)
		}
		s.Index = append(s.Index, l)
	}
	if v == VerifyBounds {
		return nil
	}
	s.spans = s.spans[:0]
	for i, l := range s.Index {
		name := s.name(l)
		if !validName(name, Relaxed, true) {
			return errAt("label.name", i*IndexEntrySize, errIndex)
		}
		if i > 0 && bytes.Compare(s.name(s.Index[i-1]), name) >= 0 {
			return errAt("label.name", i*IndexEntrySize, errIndex)
		}
		s.spans = append(s.spans, uint32(l.NameOff)<<16|uint32(l.NameLen), uint32(l.ValueOff)<<16|uint32(l.ValueLen))
	}
	if !s.disjointSpans() {
		return errAt("label", 0, errIndex)
	}
	if v == VerifyStrict {
		return s.verifyStrict()
	}
	return nil
}

// disjointSpans sorts s.spans (offset<<16 | length) by offset and reports
// whether no two overlap.
func (s *Set) disjointSpans() bool {
	sp := s.spans
	for i := 1; i < len(sp); i++ {
		v := sp[i]
		j := i
		for ; j > 0 && sp[j-1] > v; j-- {
			sp[j] = sp[j-1]
		}
		sp[j] = v
	}
	for i := 1; i < len(sp); i++ {
		if sp[i-1]>>16+sp[i-1]&0xffff > sp[i]>>16 {
			return false
		}
	}
	return true
}

// verifyStrict re-parses s.JSON and compares the index spans.
func (s *Set) verifyStrict() error {
	if len(s.JSON) == 0 && len(s.Index) == 0 {
		return nil // instances without labels travel with no JSON at all
	}
	if s.check == nil {
		s.check = new(Set)
	}
	c := s.check
	if err := Parse(c, s.JSON, Options{Dotted: true, KeepOrder: true, Limits: Limits{MaxLabels: MaxLabelsArchive}}); err != nil {
		return err
	}
	if len(c.Index) != len(s.Index) {
		return errAt("nlabels", 0, errIndex)
	}
	for i, l := range s.Index {
		r := c.Index[i]
		if l.NameOff != r.NameOff || l.NameLen != r.NameLen || l.ValueOff != r.ValueOff || l.ValueLen != r.ValueLen {
			return errAt("label", i*IndexEntrySize, errIndex)
		}
	}
	return nil
}

// Normalize makes dst the canonical form of a received set whose index may
// not be in the form DecodeWire requires. libpcp's single parse keeps
// nested maps in the JSON ({"z":{"a":1}}) and points each compound
// label's name span at its last component ("a"), holding the full name in
// a side table that never reaches the wire. Normalize parses json
// (Relaxed, dotted names allowed), matches every index entry to the key it
// points at and to that key's value text, and writes the sorted canonical
// form with full dotted names and the received flags. dst does not alias
// json or index.
//
// It fails with the error Parse gives for json, or with errIndex when an
// entry matches no label, two entries match the same label, or a label
// has no entry. On failure dst is empty.
func Normalize(dst *Set, json, index []byte) error {
	err := normalize(dst, json, index)
	if err != nil {
		dst.Reset()
	}
	return err
}

func normalize(dst *Set, json, index []byte) error {
	if len(index)%IndexEntrySize != 0 {
		return errAt("index", len(index)/IndexEntrySize*IndexEntrySize, errIndex)
	}
	n := len(index) / IndexEntrySize
	if n > MaxLabelsArchive {
		return limitAt("nlabels", 0, n, MaxLabelsArchive)
	}
	o := Options{Dotted: true, Limits: Limits{MaxLabels: MaxLabelsArchive}}
	p := parser{in: json, o: o, lim: o.Limits.resolve(), s: dst}
	dst.ownJSON()
	dst.JSON = dst.JSON[:0]
	dst.Index = dst.Index[:0]
	dst.src = dst.src[:0]
	dst.path = dst.path[:0]
	if len(json) > 0 || n > 0 {
		if err := p.parse(); err != nil {
			return err
		}
	}
	if n != len(dst.Index) {
		return errAt("nlabels", 0, errIndex)
	}
	// Parsed labels are in input order, so their key offsets (src)
	// increase: find each entry's key by binary search. A matched label's
	// flags are marked with the high bit of src until all are matched.
	const matched = -1 << 31
	for i := 0; i < n; i++ {
		l, _ := ConsumeLabel(index[i*IndexEntrySize:])
		src := dst.src
		lo, hi := 0, len(src)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if src[m]&^matched < int32(l.NameOff) {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo == len(src) || src[lo]&^matched != int32(l.NameOff) || src[lo]&matched != 0 {
			return errAt("label.name", i*IndexEntrySize, errIndex)
		}
		k := dst.Index[lo]
		last := dst.name(k)
		if j := lastDot(last); j >= 0 {
			last = last[j+1:]
		}
		// The name span must be the key's text (the full name when the
		// JSON is flat, the last component when maps were kept), and the
		// value span must hold the same text the parser kept.
		nameEnd, valueEnd := int(l.NameOff)+int(l.NameLen), int(l.ValueOff)+int(l.ValueLen)
		if nameEnd > len(json) || valueEnd > len(json) {
			return errAt("label", i*IndexEntrySize, errIndex)
		}
		if name := json[l.NameOff:nameEnd]; string(name) != string(last) && string(name) != string(dst.name(k)) {
			return errAt("label.name", i*IndexEntrySize, errIndex)
		}
		if string(json[l.ValueOff:valueEnd]) != string(dst.JSON[k.ValueOff:int(k.ValueOff)+int(k.ValueLen)]) {
			return errAt("label.value", i*IndexEntrySize, errIndex)
		}
		dst.Index[lo].Flags = l.Flags
		src[lo] |= matched
	}
	for i := range dst.src {
		dst.src[i] &^= matched
	}
	return dst.finish(false, "name")
}

func lastDot(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '.' {
			return i
		}
	}
	return -1
}
