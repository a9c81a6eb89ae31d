package pmda

import (
	"errors"
	"math"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
)

// ErrNoValue is returned by a Fetch callback for an instance that has no
// value now; the instance is left out of the RESULT.
var ErrNoValue = errors.New("pmda: no value")

// kinds of value a Fetch callback set.
const (
	kindNone uint8 = iota
	kindInt
	kindUint
	kindFloat
	kindBytes  // string or aggregate payload in the scratch buffer
	kindEvents // an event array in the scratch buffer
)

// Value receives one instance's value in a Fetch callback. The setters
// convert to the metric's declared type as libpcp_pmda does from a
// pmAtomValue: integers and floats to any numeric type; SetString only for
// PM_TYPE_STRING, SetBytes for PM_TYPE_AGGREGATE, Events for the two event
// types. A value of the wrong kind is left out and logged. A Value is
// valid only during the callback.
type Value struct {
	kind  uint8
	bits  uint64
	off   int // payload start in w.scratch
	w     *worker
	mtype pcp.Type
	eb    *eventrec.Builder
}

// SetInt32 sets a signed integer value.
func (v *Value) SetInt32(x int32) { v.kind, v.bits = kindInt, uint64(int64(x)) }

// SetInt64 sets a signed integer value.
func (v *Value) SetInt64(x int64) { v.kind, v.bits = kindInt, uint64(x) }

// SetUint32 sets an unsigned integer value.
func (v *Value) SetUint32(x uint32) { v.kind, v.bits = kindUint, uint64(x) }

// SetUint64 sets an unsigned integer value.
func (v *Value) SetUint64(x uint64) { v.kind, v.bits = kindUint, x }

// SetFloat64 sets a floating-point value.
func (v *Value) SetFloat64(x float64) { v.kind, v.bits = kindFloat, math.Float64bits(x) }

// SetString sets a PM_TYPE_STRING value; it is copied.
func (v *Value) SetString(s string) {
	v.off = len(v.w.scratch)
	v.w.scratch = append(v.w.scratch, s...)
	v.kind = kindBytes
}

// SetBytes sets a PM_TYPE_AGGREGATE (or STRING) value; it is copied.
func (v *Value) SetBytes(b []byte) {
	v.off = len(v.w.scratch)
	v.w.scratch = append(v.w.scratch, b...)
	v.kind = kindBytes
}

// Events returns a builder for the event array of a PM_TYPE_EVENT or
// PM_TYPE_HIGHRES_EVENT metric (the array type follows the metric's);
// add records and parameters to it and return from the callback: the
// agent finishes the array. It reuses the agent's buffers.
func (v *Value) Events() *eventrec.Builder {
	v.off = len(v.w.scratch)
	v.w.eb.Reset(v.w.scratch, v.mtype)
	v.eb = &v.w.eb
	v.kind = kindEvents
	return v.eb
}
