package abi

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/labels"
	"github.com/tinylib/msgp/msgp"
)

// MaxLabelSets bounds the sets one labels_merge call takes.
const MaxLabelSets = 64

// CanonLabels parses one label set (JSON text) and returns it in the
// canonical form libpcp produces: sorted, flattened, no white space.
func CanonLabels(in []byte) LabelSet {
	var s labels.Set
	if err := labels.Parse(&s, in, labels.Options{}); err != nil {
		return LabelSet{Error: ErrorOf(err), Labels: []Label{}}
	}
	return NewLabelSet(&s)
}

// MergeLabels merges label sets given as a MessagePack array of JSON
// texts (str or bin), ordered from the lowest hierarchy level (context)
// to the highest (instances): on equal names the later set wins.
func MergeLabels(in []byte) LabelSet {
	n, rest, err := msgp.ReadArrayHeaderBytes(in)
	if err != nil || n > MaxLabelSets {
		if err == nil {
			err = wire.ErrLimit
		} else {
			err = abiError(ErrBadInput)
		}
		return LabelSet{Error: ErrorOf(err), Labels: []Label{}}
	}
	texts := make([][]byte, 0, n)
	for range n {
		var t []byte
		// A str (fixstr, str8, str16, str32) where msgp.NextType says
		// StrType, tested here: NextType cost the module 0.8 KB.
		if len(rest) > 0 && (rest[0]&0xe0 == 0xa0 || rest[0] >= 0xd9 && rest[0] <= 0xdb) {
			var s []byte
			s, rest, err = msgp.ReadStringZC(rest)
			t = s
		} else {
			t, rest, err = msgp.ReadBytesZC(rest)
		}
		if err != nil {
			return LabelSet{Error: ErrorOf(abiError(ErrBadInput)), Labels: []Label{}}
		}
		texts = append(texts, t)
	}
	var s labels.Set
	if err := labels.MergeTexts(&s, texts, nil); err != nil {
		return LabelSet{Error: ErrorOf(err), Labels: []Label{}}
	}
	return NewLabelSet(&s)
}

// NewLabelSet is the schema of a parsed label set, as labels_canon and
// `perfwire labels --json` give it.
func NewLabelSet(s *labels.Set) LabelSet {
	res := LabelSet{JSON: string(s.JSON), Labels: make([]Label, 0, s.Len())}
	for i, l := range s.Index {
		p := s.At(i)
		res.Labels = append(res.Labels, Label{Name: string(p.Name), Value: string(p.Value), Flags: uint8(l.Flags),
			NameOff: l.NameOff, NameLen: l.NameLen, ValueOff: l.ValueOff, ValueLen: l.ValueLen})
	}
	return res
}
