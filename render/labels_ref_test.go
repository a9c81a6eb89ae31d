package render

import (
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/schema"
)

// The reference AppendLabels and AppendLabelSet are held to
// (TestAppendLabels, FuzzDecoders): a label set built as LabelSet and
// Label values, then marshalled. It was labels_canon's, labels_merge's
// and `perfwire labels --json`'s implementation before 2026-11-27
// (CanonLabels, MergeLabels and NewLabelSet).
// The input is read with ReadLabels, the ABI's decoder of the call's
// arguments, not part of the writers this reference checks.

// canonLabelsRef is AppendLabels(_, in, false)'s result as a value.
func canonLabelsRef(in []byte) schema.LabelSet { return labelSetOf(in, false) }

// mergeLabelsRef is AppendLabels(_, in, true)'s result as a value.
func mergeLabelsRef(in []byte) schema.LabelSet { return labelSetOf(in, true) }

// labelSetOf is canonLabelsRef's or mergeLabelsRef's result.
func labelSetOf(in []byte, merge bool) schema.LabelSet {
	var s labels.Set
	if err := ReadLabels(&s, in, merge); err != nil {
		return schema.LabelSet{Error: schema.ErrorOf(err), Labels: []schema.Label{}}
	}
	return labelSetRef(&s)
}

// labelSetRef is the schema of a parsed label set as values.
func labelSetRef(s *labels.Set) schema.LabelSet {
	res := schema.LabelSet{JSON: string(s.JSON), Labels: make([]schema.Label, 0, s.Len())}
	for i, l := range s.Index {
		p := s.At(i)
		res.Labels = append(res.Labels, schema.Label{Name: string(p.Name), Value: string(p.Value), Flags: uint8(l.Flags),
			NameOff: l.NameOff, NameLen: l.NameLen, ValueOff: l.ValueOff, ValueLen: l.ValueLen})
	}
	return res
}
