package dlt

import (
	"encoding/binary"
	"iter"
)

// ArgScanner decodes the verbose arguments of one message in order:
//
//	as := m.ArgScanner()
//	for as.Next() {
//		a := as.Arg()
//		...
//	}
//	if err := as.Err(); err != nil { ... }
//
// It decodes at most NOAR arguments, checks every length against the
// payload, and reports [ErrCount] when the payload ends first and
// [ErrTrailing] when bytes remain after the last one. An argument it
// cannot decode ([ErrTruncated], [ErrType]) ends the scan; the
// arguments before it stay valid. It allocates nothing.
type ArgScanner struct {
	p    []byte // payload
	base int    // input offset of p[0]
	off  int
	left int // arguments still expected (NOAR countdown)
	big  bool
	arg  Arg
	err  error
}

// ArgScanner returns a scanner over the message's arguments; for a
// non-verbose message it yields nothing and its Err is [ErrNotVerbose].
func (m Message) ArgScanner() ArgScanner {
	s := ArgScanner{p: m.Payload(), base: m.PayloadOffset(), left: m.NumArgs(), big: m.big()}
	if !m.Verbose() {
		s.err = errAt("MSIN", m.base+int(m.ext), ErrNotVerbose)
	}
	return s
}

// Args returns an iterator over the message's arguments. A decoding
// error is yielded once, with a zero Arg, after the valid arguments.
func (m Message) Args() iter.Seq2[Arg, error] {
	return func(yield func(Arg, error) bool) {
		s := m.ArgScanner()
		for s.Next() {
			if !yield(s.arg, nil) {
				return
			}
		}
		if s.err != nil {
			yield(Arg{}, s.err)
		}
	}
}

// Next decodes the next argument and reports whether there was one.
func (s *ArgScanner) Next() bool {
	if s.err != nil {
		return false
	}
	// Its three failures end in one errAt call.
	var (
		field string
		at    = s.base + s.off
		kind  error
	)
	switch {
	case s.left == 0:
		if s.off == len(s.p) {
			return false
		}
		field, kind = "payload", ErrTrailing
	case s.off == len(s.p):
		field, kind = "NOAR", ErrCount
	default:
		if p := s.p[s.off:]; len(p) >= 6 && s.plainString(p) {
			// Fast path, written into s.arg in place: a plain ASCII
			// string (every dlt-kpi argument) that fits the payload.
			n := int(le16(p[4:]))
			if s.big {
				n = int(be16(p[4:]))
			}
			if n <= len(p)-6 {
				end := 6 + n
				s.arg = Arg{p: p[:end:end], off: at, info: TypeString, big: s.big,
					name: absent, unit: absent, quant: absent, fixo: absent, value: trimNUL(p, span{6, int32(n)})}
				s.off += end
				s.left--
				return true
			}
		}
		a, n, err := decodeArg(s.p[s.off:], s.big)
		if err == nil {
			a.off = at
			s.off += n
			s.left--
			s.arg = a
			return true
		}
		field, at, kind = err.field, at+err.at, err.kind
	}
	s.err = errAt(field, at, kind)
	return false
}

// plainString reports whether p starts with the type info of a plain
// ASCII string (0x200) in the payload's byte order.
func (s *ArgScanner) plainString(p []byte) bool {
	if s.big {
		return p[0] == 0 && p[1] == 0 && p[2] == 2 && p[3] == 0
	}
	return p[0] == 0 && p[1] == 2 && p[2] == 0 && p[3] == 0
}

// Arg returns the current argument; valid after Next returned true.
func (s *ArgScanner) Arg() Arg { return s.arg }

// Err returns the error that ended the scan, nil if all NOAR arguments
// were decoded and filled the payload exactly.
func (s *ArgScanner) Err() error { return s.err }

// Remaining is the number of arguments NOAR still announces.
func (s *ArgScanner) Remaining() int { return s.left }

// ConsumeArg decodes the argument at the start of p, a verbose payload in
// byte order order (nil means little-endian), and returns it with its
// size in bytes. It fails with a [ParseError] ([ErrTruncated] or
// [ErrType]) whose offset counts from p[0].
func ConsumeArg(p []byte, order binary.ByteOrder) (Arg, int, error) {
	a, n, err := decodeArg(p, isBig(order))
	if err != nil {
		return Arg{}, 0, errAt(err.field, err.at, err.kind)
	}
	return a, n, nil
}

// argError is the allocation-free failure of decodeArg; callers turn it
// into a ParseError with the absolute offset.
type argError struct {
	_     [0]func() // not comparable: no equality function in the wasm build
	field string
	at    int
	kind  error
}

// argReader is a cursor over one argument in the payload's byte order.
type argReader struct {
	p   []byte
	off int
	big bool
}

func (r *argReader) u16() (int, bool) {
	if len(r.p)-r.off < 2 {
		return 0, false
	}
	var v uint16
	if r.big {
		v = be16(r.p[r.off:])
	} else {
		v = le16(r.p[r.off:])
	}
	r.off += 2
	return int(v), true
}

// span consumes n bytes and returns where they are.
func (r *argReader) span(n int) (span, bool) {
	if uint64(n) > uint64(len(r.p)-r.off) {
		return absent, false
	}
	s := span{at: int32(r.off), n: int32(n)}
	r.off += n
	return s, true
}

// trimNUL drops one terminating NUL: libdlt counts it in every length.
func trimNUL(p []byte, s span) span {
	if s.n > 0 && p[s.at+s.n-1] == 0 {
		s.n--
	}
	return s
}

var (
	errArgType   = &argError{field: "type info", kind: ErrType}
	errArgHeader = &argError{field: "type info", kind: ErrTruncated}
)

// decodeArg decodes one argument at the start of p. The layout after the
// type info (all in payload byte order) is, per kind:
//
//	bool:            [VARI: u16 name len, name] value(1)
//	sint/uint:       [VARI: u16 name len, u16 unit len, name, unit]
//	                 [FIXP: f32 quantisation, offset(4|8|16)] value
//	float:           [VARI: u16 name len, u16 unit len, name, unit] value
//	string/raw/trai: u16 len, [VARI: u16 name len, name], bytes
func decodeArg(p []byte, big bool) (Arg, int, *argError) {
	if len(p) < 4 {
		return Arg{}, 0, errArgHeader
	}
	var info uint32
	if big {
		info = be32(p)
	} else {
		info = le32(p)
	}
	r := argReader{p: p, off: 4, big: big}
	a := Arg{info: info, big: big, name: absent, unit: absent, quant: absent, fixo: absent}
	// One failure path, not an error and a zero Arg built at each of
	// decode's: module size; see wasm/size.
	switch field := a.decode(&r); field {
	case "":
	case "type":
		return Arg{}, 0, errArgType
	default:
		return Arg{}, 0, &argError{field: field, at: r.off, kind: ErrTruncated}
	}
	a.p = p[:r.off:r.off]
	return a, r.off, nil
}

// decode reads the fields after a's type info from r into a's spans. It
// returns "" or the name of the field cut short at r.off ("type" for a
// type info it does not take).
func (a *Arg) decode(r *argReader) string {
	info := a.info
	if info == TypeString {
		// Fast path: a plain ASCII string, every dlt-kpi argument.
		n, ok := r.u16()
		if !ok {
			return "length"
		}
		if a.value, ok = r.span(n); !ok {
			return "value"
		}
		a.value = trimNUL(r.p, a.value)
		return ""
	}
	k := kindOf(info)
	size := valueSize(k, info)
	if size < 0 ||
		(info&TypeFixed != 0 && k != KindSigned && k != KindUnsigned) {
		return "type"
	}
	vari := info&TypeVarInfo != 0
	var ok bool
	switch k {
	case KindString, KindRaw, KindTrace:
		n, ok1 := r.u16()
		if !ok1 {
			return "length"
		}
		if vari {
			nn, ok2 := r.u16()
			if !ok2 {
				return "name length"
			}
			if a.name, ok = r.span(nn); !ok {
				return "name"
			}
			a.name = trimNUL(r.p, a.name)
		}
		if a.value, ok = r.span(n); !ok {
			return "value"
		}
		if k != KindRaw {
			a.value = trimNUL(r.p, a.value)
		}
		return ""
	}
	if vari {
		nn, ok1 := r.u16()
		un, ok2 := 0, true
		if k != KindBool {
			un, ok2 = r.u16()
		}
		if !ok1 || !ok2 {
			return "name length"
		}
		if a.name, ok = r.span(nn); !ok {
			return "name"
		}
		a.name = trimNUL(r.p, a.name)
		if k != KindBool {
			if a.unit, ok = r.span(un); !ok {
				return "unit"
			}
			a.unit = trimNUL(r.p, a.unit)
		}
	}
	if info&TypeFixed != 0 {
		if a.quant, ok = r.span(4); !ok {
			return "quantization"
		}
		if a.fixo, ok = r.span(max(size, 4)); !ok {
			return "fixed offset"
		}
	}
	if a.value, ok = r.span(size); !ok {
		return "value"
	}
	return ""
}
