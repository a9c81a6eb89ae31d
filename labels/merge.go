package labels

import "bytes"

// Filter decides whether Merge keeps a label; it returns false to drop it.
// Merge calls it once per label about to be written, but libpcp calls its
// filters several times for the same label, so filters meant for both
// should not depend on being called once.
type Filter func(p Pair) bool

// Merge merges sets, given lowest precedence first (context, domain,
// indom, cluster, item, instance), into dst: for equal names the label of
// the later set wins, with its flags. Nil entries are skipped. keep, if
// not nil, can drop labels. The result is in sorted canonical form; a
// label whose value text is empty is written as null.
//
// Every input index must be sorted by name, as Parse and DecodeWire
// ensure. dst may be one of the inputs: the result is built in dst's
// scratch buffers and swapped in at the end. With dst's buffers grown
// and at most 8 sets, Merge allocates nothing.
//
// Merge fails with ErrLimit if the result would exceed the default limits
// (DefaultMaxLabels, DefaultMaxJSONLen); dst is then empty.
func Merge(dst *Set, sets []*Set, keep Filter) error {
	var headBuf [8]int
	heads := headBuf[:0]
	if len(sets) > len(headBuf) {
		heads = make([]int, 0, len(sets))
	}
	heads = heads[:len(sets)]
	clear(heads)

	out := append(dst.alt[:0], '{')
	idx := dst.altIdx[:0]
	var value, limit int // of a limit broken
	for {
		best := -1
		var bestName []byte
		for k, s := range sets {
			if s == nil || heads[k] >= len(s.Index) {
				continue
			}
			if n := s.name(s.Index[heads[k]]); best < 0 || bytes.Compare(n, bestName) <= 0 {
				best, bestName = k, n // a later set wins a tie
			}
		}
		if best < 0 {
			break
		}
		p := sets[best].At(heads[best])
		for k, s := range sets {
			if s != nil && heads[k] < len(s.Index) && bytes.Equal(s.name(s.Index[heads[k]]), bestName) {
				heads[k]++
			}
		}
		if keep != nil && !keep(p) {
			continue
		}
		if len(idx) >= DefaultMaxLabels {
			value, limit = len(idx)+1, DefaultMaxLabels
			goto fail
		}
		if len(idx) > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		nameOff := len(out)
		out = append(out, p.Name...)
		out = append(out, '"', ':')
		valueOff := len(out)
		if len(p.Value) == 0 {
			out = append(out, "null"...)
		} else {
			out = append(out, p.Value...)
		}
		if len(out)+1 > DefaultMaxJSONLen {
			value, limit = len(out)+1, DefaultMaxJSONLen
			goto fail
		}
		idx = append(idx, Label{
			NameOff:  uint16(nameOff),
			NameLen:  uint8(len(p.Name)),
			Flags:    p.Flags,
			ValueOff: uint16(valueOff),
			ValueLen: uint16(len(out) - valueOff),
		})
	}
	out = append(out, '}')
	dst.ownJSON() // a borrowed JSON must not become scratch space
	dst.alt, dst.JSON = dst.JSON, out
	dst.altIdx, dst.Index = dst.Index, idx
	return nil
fail:
	// Both limits fail here: one failure call (module size; see
	// wasm/size).
	dst.alt, dst.altIdx = out, idx
	dst.Reset()
	return limitAt("merge", 0, value, limit)
}

// MergeTexts parses each text in compound mode (dotted names allowed) and
// merges them in the given order, lowest precedence first, as libpcp's
// pmMergeLabels does; empty texts are skipped. It allocates a Set per
// text; keep parsed Sets and call Merge in loops.
func MergeTexts(dst *Set, texts [][]byte, keep Filter) error {
	sets := make([]*Set, len(texts))
	opts := Options{Dotted: true}
	for i, t := range texts {
		if len(t) == 0 {
			continue
		}
		sets[i] = new(Set)
		if err := Parse(sets[i], t, opts); err != nil {
			dst.Reset()
			return err
		}
	}
	return Merge(dst, sets, keep)
}
