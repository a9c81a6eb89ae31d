package render

import (
	"bytes"
	"encoding/hex"
	"math"
	"strconv"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// The reference AppendArchiveRecord is held to (TestAppendArchiveRecord,
// TestArchiveSessionBytes): an archive record built as ArchiveRecord and
// ArchiveValue values, then marshalled, with msgp's encoders and pcp's
// value extraction rather than the writer's own.

// archiveValueOfRef sets the value keys of o from v, a value of a metric of
// type t: a number or a string as the type says, the records of an event
// array, or the hex of anything else. It reads v as pmExtractValue reads
// a value as its own type (what pcp.Extract(v.Raw(), t, t) gives: 32-bit
// types and floats in the word, 64-bit ones and doubles in 8-byte blocks,
// strings up to their NUL), written out so that a wasm module reading
// archives does without pcp's conversions.
func archiveValueOfRef(o *schema.ArchiveValue, v pduwire.Value, t pcp.Type) {
	if t == pcp.TypeEvent || t == pcp.TypeHighResEvent {
		if a, err := v.Events(); err == nil {
			o.Records = eventRecords(a)
			return
		}
	}
	if b := numberRef(v, t); b != nil {
		o.Value = &b
		return
	}
	h := hex.EncodeToString(v.Payload())
	if !v.Block() {
		h = strconv.FormatUint(uint64(v.Word), 16)
	}
	o.Hex = &h
}

// numberRef is a value as its own type, pcp.Extract(v.Raw(), t, t), in
// msgp's encoding (a string up to its NUL; NaN and the infinities as
// strings), or nil when it is no number or string of type t.
func numberRef(v pduwire.Value, t pcp.Type) schema.Raw {
	x, err := pcp.Extract(v.Raw(), t, t)
	if err != nil {
		return nil
	}
	var f float64
	switch t {
	case pcp.Type32:
		return msgp.AppendInt32(nil, x.Int32())
	case pcp.TypeU32:
		return msgp.AppendUint32(nil, x.Uint32())
	case pcp.Type64:
		return msgp.AppendInt64(nil, x.Int64())
	case pcp.TypeU64:
		return msgp.AppendUint64(nil, x.Uint64())
	case pcp.TypeFloat:
		if f = float64(x.Float32()); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return msgp.AppendFloat32(nil, x.Float32())
		}
	case pcp.TypeDouble:
		f = x.Float64()
	case pcp.TypeString:
		s, _, _ := bytes.Cut(x.Bytes(), []byte{0})
		return msgp.AppendString(nil, string(s))
	default:
		return nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return msgp.AppendString(nil, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return msgp.AppendFloat64(nil, f)
}

// archiveRecordRef describes record r of archive a in the shared schema:
// its time, and each value with its metric's pmID, first name, instance
// (number and name as of the record's time), whether it counts (counter
// semantics) and value by type.
func archiveRecordRef(a *archive.Archive, r *archive.Record) schema.ArchiveRecord {
	rec := schema.ArchiveRecord{Timestamp: rfc3339.String(r.Time.Sec, int64(r.Time.Nsec), rfc3339.Trimmed), Mark: r.Mark}
	vss := r.Result.Scan()
	for vss.Next() {
		vs := vss.ValueSet()
		base := schema.ArchiveValue{PMID: vs.PMID.String(), Name: vs.PMID.String(), Inst: pcp.InNull}
		typ, indom := pcp.Type(pcp.TypeAggregate), pcp.InDomNull
		if m, ok := a.Meta.Metric(vs.PMID); ok {
			if len(m.Names) > 0 {
				base.Name = m.Names[0]
			}
			typ, indom = m.Type, m.InDom
			base.Counter = m.Sem == pcp.SemCounter
		}
		if vs.NumVal <= 0 {
			v := base
			v.Error = "no values"
			if vs.NumVal < 0 {
				v.Error = pcp.Code(vs.NumVal).Message()
			}
			rec.Values = append(rec.Values, v)
			continue
		}
		var in *archive.Instances
		if indom != pcp.InDomNull {
			in, _ = a.Meta.InDomAt(indom, r.Time)
		}
		for j := range vs.Len() {
			pv := vs.Value(j)
			v := base
			v.Inst = pv.Inst
			if in != nil {
				if n, ok := in.Name(pv.Inst); ok {
					v.Instance = &n
				}
			}
			archiveValueOfRef(&v, pv, typ)
			rec.Values = append(rec.Values, v)
		}
	}
	return rec
}
