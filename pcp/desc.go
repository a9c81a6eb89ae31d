package pcp

import "strconv"

// Desc is a metric descriptor (pmDesc): on the wire five big-endian words,
// pmID, type, instance domain, semantics and units.
type Desc struct {
	ID    ID
	Type  Type
	InDom InDom // InDomNull for a singular metric
	Sem   Sem
	Units Units
}

var typeWords = [...]string{
	"32-bit int", "32-bit unsigned int", "64-bit int", "64-bit unsigned int", "float", "double",
	"string", "aggregate", "static aggregate", "event record array", "highres event record array",
}

// AppendText appends the two lines libpcp's pmPrintDesc prints (and
// pminfo -d shows), each indented by four spaces and ending in a newline:
//
//	Data Type: 32-bit int  InDom: 29.1 0x7400001
//	Semantics: instant  Units: Mbyte / sec
//
// Dimensionless units print as "none"; unknown codes as "??? (N)"; a
// NOSUPPORT type prints only "    Data Type: Not Supported". It never
// fails (encoding.TextAppender).
func (d Desc) AppendText(b []byte) ([]byte, error) {
	b = append(b, "    Data Type: "...)
	switch {
	case d.Type == TypeNoSupport:
		return append(b, "Not Supported\n"...), nil
	case d.Type >= 0 && int(d.Type) < len(typeWords):
		b = append(b, typeWords[d.Type]...)
	default:
		b = appendUnknown(b, int32(d.Type))
	}
	b = append(b, "  InDom: "...)
	if d.InDom == InDomNull {
		b = append(b, "PM_INDOM_NULL"...)
	} else {
		b = strconv.AppendUint(b, uint64(d.InDom.Domain()), 10)
		b = append(b, '.')
		b = strconv.AppendUint(b, uint64(d.InDom.Serial()), 10)
	}
	b = append(b, " 0x"...)
	b = strconv.AppendUint(b, uint64(d.InDom), 16)
	b = append(b, "\n    Semantics: "...)
	if s := d.Sem.String(); s != "???" {
		b = append(b, s...)
	} else {
		b = appendUnknown(b, int32(d.Sem))
	}
	b = append(b, "  Units: "...)
	n := len(b)
	b, _ = d.Units.AppendText(b)
	if len(b) == n {
		b = append(b, "none"...)
	}
	return append(b, '\n'), nil
}

func appendUnknown(b []byte, v int32) []byte {
	b = append(b, "??? ("...)
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, ')')
}

// String returns the AppendText form.
func (d Desc) String() string {
	b, _ := d.AppendText(make([]byte, 0, 128))
	return string(b)
}
