package abi

import "github.com/perfwire/perfwire/labels"

// The reference AppendLabels and AppendLabelSet are held to
// (TestAppendLabels, FuzzDecoders): a label set built as LabelSet and
// Label values, then marshalled. It was labels_canon's, labels_merge's
// and `perfwire labels --json`'s implementation before 2026-11-27
// (CanonLabels, MergeLabels and NewLabelSet).

// canonLabelsRef is AppendLabels(_, in, false)'s result as a value.
func canonLabelsRef(in []byte) LabelSet { return labelSetOf(in, false) }

// mergeLabelsRef is AppendLabels(_, in, true)'s result as a value.
func mergeLabelsRef(in []byte) LabelSet { return labelSetOf(in, true) }

// labelSetOf is canonLabelsRef's or mergeLabelsRef's result.
func labelSetOf(in []byte, merge bool) LabelSet {
	var s labels.Set
	if err := readLabels(&s, in, merge); err != nil {
		return LabelSet{Error: ErrorOf(err), Labels: []Label{}}
	}
	return labelSetRef(&s)
}

// labelSetRef is the schema of a parsed label set as values.
func labelSetRef(s *labels.Set) LabelSet {
	res := LabelSet{JSON: string(s.JSON), Labels: make([]Label, 0, s.Len())}
	for i, l := range s.Index {
		p := s.At(i)
		res.Labels = append(res.Labels, Label{Name: string(p.Name), Value: string(p.Value), Flags: uint8(l.Flags),
			NameOff: l.NameOff, NameLen: l.NameLen, ValueOff: l.ValueOff, ValueLen: l.ValueLen})
	}
	return res
}
