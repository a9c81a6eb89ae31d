package render

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// MaxLabelSets bounds the sets one labels_merge call takes.
const MaxLabelSets = 64

// ReadLabels parses in, a label set's JSON text, into s (labels_canon) or, with merge, merges the
// texts of the MessagePack array in (labels_merge).
func ReadLabels(s *labels.Set, in []byte, merge bool) error {
	if !merge {
		return labels.Parse(s, in, labels.Options{})
	}
	n, rest, err := msgp.ReadArrayHeaderBytes(in)
	if err != nil {
		return schema.ABIError(schema.ErrBadInput)
	}
	if n > MaxLabelSets {
		return wire.ErrLimit
	}
	// Made at its length and filled by index: no append.
	texts := make([][]byte, n)
	for i := range texts {
		// A str (fixstr, str8, str16, str32) where msgp.NextType says
		// StrType, tested here: NextType kept out (module size).
		if len(rest) > 0 && (rest[0]&0xe0 == 0xa0 || rest[0] >= 0xd9 && rest[0] <= 0xdb) {
			texts[i], rest, err = msgp.ReadStringZC(rest)
		} else {
			texts[i], rest, err = msgp.ReadBytesZC(rest)
		}
		if err != nil {
			return schema.ABIError(schema.ErrBadInput)
		}
	}
	return labels.MergeTexts(s, texts, nil)
}

// AppendLabels parses one label set (JSON text, labels_canon) into the
// canonical form libpcp produces (sorted, flattened, no white space) or,
// with merge (labels_merge), merges the label sets of in, a MessagePack
// array of JSON texts (str or bin) ordered from the lowest hierarchy
// level (context) to the highest (instances), on equal names the later
// set winning; and appends the result to dst as AppendLabelSet writes
// it, with the failure in its error key.
func AppendLabels(dst, in []byte, merge bool) []byte {
	// On failure s holds no labels: the json is "" and the labels none.
	var s labels.Set
	return AppendLabelSet(dst, &s, ReadLabels(&s, in, merge))
}

// AppendLabelSet appends to dst the MessagePack LabelSet of s, written
// in place: its error (err, after which s holds no labels), its JSONB
// text and each label of its index with its name and value (no LabelSet
// value, no string per label). labels_canon's and labels_merge's
// results; `perfwire labels --json` prints it.
func AppendLabelSet(dst []byte, s *labels.Set, err error) []byte {
	e := schema.BeginMap(dst, 3)
	e.Err("\xa5error", schema.ErrorOf(err))
	e.Text("\xa4json", s.JSON)
	e.Array("\xa6labels", s.Len())
	for _, l := range s.Index {
		e.B = appendLabel(e.B, s.JSON, l.NameOff, l.NameLen, uint8(l.Flags), l.ValueOff, l.ValueLen)
	}
	return e.End()
}

// appendLabel appends the Label of the label whose name and value lie
// in json as the offsets and lengths say, as Label's MarshalMsg does:
// for label sets and for the sets of LABEL PDUs.
func appendLabel(b, json []byte, nameOff uint16, nameLen, flags uint8, valueOff, valueLen uint16) []byte {
	e := schema.BeginMap(b, 7)
	e.Text("\xa4name", json[nameOff:int(nameOff)+int(nameLen)])
	e.Text("\xa5value", json[valueOff:int(valueOff)+int(valueLen)])
	e.Uint("\xa5flags", uint64(flags))
	e.Uint("\xa8name_off", uint64(nameOff))
	e.Uint("\xa8name_len", uint64(nameLen))
	e.Uint("\xa9value_off", uint64(valueOff))
	e.Uint("\xa9value_len", uint64(valueLen))
	return e.End()
}
