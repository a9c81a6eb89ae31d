package render

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// The references' own renderings of names, numbers and text, written
// apart from the writers' helpers (TypeName, AppendFloat, validText, …)
// so that a wrong helper cannot make a writer and its reference agree:
// names from libpcp's texts (pcp.Type.String is pmTypeStr, pcp.Sem.String
// pmSemStr), numbers and text from the standard library and msgp.

// refTypeName is the schema's name of a PCP type: pmTypeStr's in lower
// case, "nosupport" for NO_SUPPORT, the number for a code it does not
// know.
func refTypeName(t pcp.Type) string {
	switch s := t.String(); s {
	case "???":
		return strconv.Itoa(int(t))
	case "NO_SUPPORT":
		return "nosupport"
	default:
		return strings.ToLower(s)
	}
}

// refSemName is pmSemStr's name of s, the number for a code it does not
// know.
func refSemName(s pcp.Sem) string {
	if n := s.String(); n != "???" {
		return n
	}
	return strconv.Itoa(int(s))
}

// refLevel is the schema's name of an MMV label's level.
func refLevel(f mmv.LabelFlags) string {
	return map[mmv.LabelFlags]string{mmv.LabelCluster: "cluster", mmv.LabelItem: "item", mmv.LabelInDom: "indom", mmv.LabelInstances: "instance"}[f.Level()]
}

// refFloat appends f as a MessagePack float64, NaN and the infinities
// as strconv's text.
func refFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return msgp.AppendString(b, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return msgp.AppendFloat64(b, f)
}

// refHex32 is v in hex, 0x first.
func refHex32(v uint32) string { return fmt.Sprintf("%#x", v) }

// refIDs is the text of each identifier.
func refIDs(in []pcp.ID) []string {
	out := make([]string, 0, len(in))
	for _, id := range in {
		out = append(out, id.String())
	}
	return out
}

// refDesc is a metric descriptor as the schema holds it.
func refDesc(d pduwire.Desc) schema.Desc {
	return schema.Desc{PMID: d.ID.String(), Type: refTypeName(d.Type), InDom: d.InDom.String(), Sem: refSemName(d.Sem), Units: d.Units.String()}
}

// refRaw is b as a value's Raw.
func refRaw(b []byte) *schema.Raw {
	r := schema.Raw(append([]byte(nil), b...))
	return &r
}

// refValidText is b as a string with each byte that is not UTF-8
// replaced by U+FFFD, through the rune conversion encoding/json's rule
// is stated in.
func refValidText(b []byte) string { return string([]rune(string(b))) }

// refTextString is b as text and, when b is not UTF-8, b in hex.
func refTextString(b []byte) (s, hexOf string) {
	if utf8.Valid(b) {
		return string(b), ""
	}
	return refValidText(b), fmt.Sprintf("%x", b)
}

// refPDUError is a body's decoding error placed in the stream: the
// offset counted from the stream's start, the field after the PDU's type
// and offset.
func refPDUError(p pduwire.PDU, err error) error {
	pe, ok := errors.AsType[*pduwire.ParseError](err)
	if !ok {
		return err
	}
	abs := *pe
	abs.Offset += p.Offset
	abs.Field = fmt.Sprintf("%v PDU at offset %d: %s", p.Header.Type, p.Offset, pe.Field)
	return &abs
}
