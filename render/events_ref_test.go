package render

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// DecodeEvents is the reference AppendEvents is held to (TestAppendEvents):
// the EventArray built as values, with eventRecords as a RESULT's and an
// archive record's event values are, which AppendEvents writes in place.
func DecodeEvents(in []byte) schema.EventArray {
	a, err := eventrec.Parse(in, eventrec.Options{})
	if err != nil {
		return schema.EventArray{Error: schema.ErrorOf(err), Records: []schema.EventRecord{}}
	}
	return schema.EventArray{HighRes: a.HighRes(), Records: eventRecords(a)}
}

// eventRecords lists the records of a validated event array as values,
// each parameter's value encoded by paramValueRef.
func eventRecords(a eventrec.Array) []schema.EventRecord {
	recs := make([]schema.EventRecord, 0, a.Len())
	for r := range a.Records() {
		o := schema.EventRecord{Sec: r.Seconds(), Nsec: r.Nanoseconds(), Flags: r.Flags().String()}
		if n, ok := r.Missed(); ok {
			o.Missed = &n
		} else {
			o.Params = []schema.EventParam{}
			for p := range r.Params() {
				o.Params = append(o.Params, schema.EventParam{PMID: p.ID.String(), Type: refTypeName(p.Type), Value: paramValueRef(p)})
			}
		}
		recs = append(recs, o)
	}
	return recs
}

// paramValueRef is an event parameter's value as the schema writes it,
// with msgp's encoders: a number of its type (0 when its length is not
// the type's), a string, or the hex of any other type's bytes.
func paramValueRef(p eventrec.Param) schema.Raw {
	v := p.Value
	num := func(size int) uint64 {
		switch {
		case len(v) != size:
			return 0
		case size == 4:
			return uint64(binary.BigEndian.Uint32(v))
		}
		return binary.BigEndian.Uint64(v)
	}
	float := func(f float64) []byte {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return msgp.AppendString(nil, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return msgp.AppendFloat64(nil, f)
	}
	switch p.Type {
	case pcp.Type32:
		return msgp.AppendInt64(nil, int64(int32(num(4))))
	case pcp.TypeU32:
		return msgp.AppendUint64(nil, num(4))
	case pcp.Type64:
		return msgp.AppendInt64(nil, int64(num(8)))
	case pcp.TypeU64:
		return msgp.AppendUint64(nil, num(8))
	case pcp.TypeFloat:
		return float(float64(math.Float32frombits(uint32(num(4)))))
	case pcp.TypeDouble:
		return float(math.Float64frombits(num(8)))
	case pcp.TypeString:
		return msgp.AppendString(nil, string(v))
	}
	return msgp.AppendString(nil, hex.EncodeToString(v))
}
