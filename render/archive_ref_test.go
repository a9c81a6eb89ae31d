package render

import (
	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
)

// The reference AppendArchiveRecord is held to (TestAppendArchiveRecord,
// TestArchiveSessionBytes): an archive record built as ArchiveRecord and
// ArchiveValue values, then marshalled. It was archive_next's and
// `perfwire archive --json`'s implementation before 2026-11-27
// (NewArchiveRecord and ArchiveValueOf).

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
	if b := appendNumber(nil, v, t); b != nil {
		o.Value = raw(b)
		return
	}
	h := valueHex(v)
	o.Hex = &h
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
