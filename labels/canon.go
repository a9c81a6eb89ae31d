package labels

import "bytes"

// finish sorts the index of a freshly written set by name, rejects
// duplicate names and, unless keepOrder, rewrites the JSON in sorted
// canonical form. s.src holds each entry's input offset for errors.
func (s *Set) finish(keepOrder bool, field string) error {
	// Binary insertion sort: sets hold at most 255 labels and usually
	// arrive sorted or nearly so, where this is linear.
	idx := s.Index
	src := s.src[:len(idx)] // one entry each: no bounds checks on src below
	for i := 1; i < len(idx); i++ {
		l, o := idx[i], src[i]
		name := s.name(l)
		if bytes.Compare(s.name(idx[i-1]), name) < 0 {
			continue
		}
		lo, hi := 0, i
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if bytes.Compare(s.name(idx[m]), name) <= 0 {
				lo = m + 1
			} else {
				hi = m
			}
		}
		copy(idx[lo+1:i+1], idx[lo:i])
		copy(src[lo+1:i+1], src[lo:i])
		idx[lo], src[lo] = l, o
	}
	for i := 1; i < len(idx); i++ {
		if bytes.Equal(s.name(idx[i-1]), s.name(idx[i])) {
			return errAt(field, int(max(src[i-1], src[i])), ErrDuplicate)
		}
	}
	if keepOrder {
		return nil
	}
	// The canonical form: s.JSON rewritten in sorted order (the index
	// order), the index offsets moved to match. The output is never
	// longer than the input, so the offsets stay within 16 bits. Kept
	// inline, not a function of its own: module size; see wasm/size.
	out := append(s.alt[:0], '{')
	for i, l := range s.Index {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		nameOff := len(out)
		out = append(out, s.name(l)...)
		out = append(out, '"', ':')
		valueOff := len(out)
		out = append(out, s.JSON[l.ValueOff:int(l.ValueOff)+int(l.ValueLen)]...)
		s.Index[i].NameOff = uint16(nameOff)
		s.Index[i].ValueOff = uint16(valueOff)
	}
	out = append(out, '}')
	s.alt, s.JSON = s.JSON, out
	return nil
}
