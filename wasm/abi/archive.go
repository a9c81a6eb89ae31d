package abi

import (
	"encoding/hex"
	"math"

	"github.com/tinylib/msgp/msgp"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// ArchiveValueOf sets the value keys of o from v, a value of a metric of
// type t: a number or a string as the type says, the records of an event
// array, or the hex of anything else.
func ArchiveValueOf(o *ArchiveValue, v pduwire.Value, t pcp.Type) {
	if t == pcp.TypeEvent || t == pcp.TypeHighResEvent {
		if a, err := v.Events(); err == nil {
			o.Records = eventRecords(a)
			return
		}
	}
	a, err := pcp.Extract(v.Raw(), t, t)
	var b []byte
	switch {
	case err != nil:
	case t == pcp.Type32:
		b = msgp.AppendInt32(nil, a.Int32())
	case t == pcp.TypeU32:
		b = msgp.AppendUint32(nil, a.Uint32())
	case t == pcp.Type64:
		b = msgp.AppendInt64(nil, a.Int64())
	case t == pcp.TypeU64:
		b = msgp.AppendUint64(nil, a.Uint64())
	case t == pcp.TypeFloat && !math.IsNaN(float64(a.Float32())) && !math.IsInf(float64(a.Float32()), 0):
		b = msgp.AppendFloat32(nil, a.Float32()) // JSON gets the float's shortest text
	case t == pcp.TypeFloat:
		b = appendFloat(nil, float64(a.Float32()))
	case t == pcp.TypeDouble:
		b = appendFloat(nil, a.Float64())
	case t == pcp.TypeString:
		b = msgp.AppendString(nil, string(a.Bytes()))
	}
	if b != nil {
		o.Value = raw(b)
		return
	}
	h := hex.EncodeToString(v.Payload())
	if !v.Block() {
		h = hex32(v.Word)[2:]
	}
	o.Hex = &h
}
