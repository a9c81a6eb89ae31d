package schema

import "github.com/tinylib/msgp/msgp"

// Raw is a MessagePack value already encoded, which the schema writes as
// it is: a metric's value, whose type its descriptor decides. It does
// what Raw does without Raw's MarshalJSON method, which would
// link msgp's whole JSON converter into every WebAssembly module.
type Raw []byte

// MarshalMsg appends r, or nil when r is empty.
func (r Raw) MarshalMsg(b []byte) ([]byte, error) {
	if len(r) == 0 {
		return msgp.AppendNil(b), nil
	}
	return append(b, r...), nil
}

// UnmarshalMsg sets r to a copy of the next value of b, empty for nil.
func (r *Raw) UnmarshalMsg(b []byte) ([]byte, error) {
	rest, err := msgp.Skip(b)
	if err != nil {
		return b, err
	}
	v := b[:len(b)-len(rest)]
	if msgp.IsNil(v) {
		v = nil
	}
	*r = append((*r)[:0], v...)
	return rest, nil
}

// Msgsize is the length MarshalMsg appends.
func (r Raw) Msgsize() int { return max(len(r), 1) }
