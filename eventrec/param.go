package eventrec

import (
	"math"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Param is one event parameter: a metric identifier, a value type and a
// view of the value bytes (ep_len − 4 of them, pad excluded). Numbers are
// big-endian and unaligned; strings carry no terminating NUL (a NUL in
// the bytes is data). Value aliases the array's bytes.
type Param struct {
	ID    pcp.ID
	Type  pcp.Type
	Value []byte
}

// fixedLen returns the exact value size of a fixed-size parameter type,
// 0 for the variable-size types and -1 for types that may not appear.
func fixedLen(t pcp.Type) int {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.TypeFloat:
		return 4
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		return 8
	case pcp.TypeString, pcp.TypeAggregate:
		return 0
	}
	return -1
}

// ParamScanner walks the parameters of one validated [Record]:
//
//	ps := r.ParamScanner()
//	for ps.Next() {
//		p := ps.Param()
//	}
type ParamScanner struct {
	b    []byte
	left int32
	p    Param
}

// Next reads the next parameter; it returns false after the last one.
func (s *ParamScanner) Next() bool {
	if s.left <= 0 || len(s.b) < paramHeaderLen {
		return false
	}
	w := be32(s.b[4:])
	epLen := int(w & maxEALen)
	n := 4 + wire.Pad4(epLen)
	if epLen < 4 || n > len(s.b) {
		// Unreachable for records from a Scanner, which validated them.
		s.left = 0
		return false
	}
	s.p = Param{
		ID:    pcp.ID(be32(s.b)),
		Type:  pcp.Type(w >> 24),
		Value: s.b[paramHeaderLen : 4+epLen : 4+epLen],
	}
	s.b = s.b[n:]
	s.left--
	return true
}

// Param returns the parameter read by the last successful Next.
func (s *ParamScanner) Param() Param { return s.p }

func (p Param) fixed(t pcp.Type, n int) bool { return p.Type == t && len(p.Value) == n }

// Int32 returns a PM_TYPE_32 value; ok is false for any other type or a
// value that is not exactly 4 bytes.
func (p Param) Int32() (v int32, ok bool) {
	if !p.fixed(pcp.Type32, 4) {
		return 0, false
	}
	return int32(be32(p.Value)), true
}

// Uint32 returns a PM_TYPE_U32 value.
func (p Param) Uint32() (v uint32, ok bool) {
	if !p.fixed(pcp.TypeU32, 4) {
		return 0, false
	}
	return be32(p.Value), true
}

// Int64 returns a PM_TYPE_64 value.
func (p Param) Int64() (v int64, ok bool) {
	if !p.fixed(pcp.Type64, 8) {
		return 0, false
	}
	return int64(be64(p.Value)), true
}

// Uint64 returns a PM_TYPE_U64 value.
func (p Param) Uint64() (v uint64, ok bool) {
	if !p.fixed(pcp.TypeU64, 8) {
		return 0, false
	}
	return be64(p.Value), true
}

// Float32 returns a PM_TYPE_FLOAT value.
func (p Param) Float32() (v float32, ok bool) {
	if !p.fixed(pcp.TypeFloat, 4) {
		return 0, false
	}
	return math.Float32frombits(be32(p.Value)), true
}

// Float64 returns a PM_TYPE_DOUBLE value.
func (p Param) Float64() (v float64, ok bool) {
	if !p.fixed(pcp.TypeDouble, 8) {
		return 0, false
	}
	return math.Float64frombits(be64(p.Value)), true
}

// Text returns a PM_TYPE_STRING value as a view (no copy, no NUL
// stripping); convert with string() to keep it.
func (p Param) Text() (v []byte, ok bool) {
	if p.Type != pcp.TypeString {
		return nil, false
	}
	return p.Value, true
}

// Aggregate returns a PM_TYPE_AGGREGATE value as a view.
func (p Param) Aggregate() (v []byte, ok bool) {
	if p.Type != pcp.TypeAggregate {
		return nil, false
	}
	return p.Value, true
}

// Clone returns the parameter with a private copy of its value.
func (p Param) Clone() Param {
	if p.Value != nil {
		p.Value = append([]byte(nil), p.Value...)
	}
	return p
}
