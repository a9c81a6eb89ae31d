package main

import (
	"io"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/wasm/abi"
)

// archiveJSON prints every data record as one JSON line of the shared
// schema (abi.ArchiveRecord).
func archiveJSON(w io.Writer, a *archive.Archive, name string) error {
	j := jsonLines{w: w}
	var rec abi.ArchiveRecord
	s := a.NewScanner()
	p := archiveProgress(name, a)
	defer p.finish()
	for s.Next() {
		r := s.Record()
		p.at(r)
		rec = abi.ArchiveRecord{Timestamp: r.Time.Time().Format(time.RFC3339Nano), Mark: r.Mark}
		vss := r.Result.Scan()
		for vss.Next() {
			vs := vss.ValueSet()
			base := abi.ArchiveValue{PMID: vs.PMID.String(), Name: vs.PMID.String(), Inst: pcp.InNull}
			typ, indom := pcp.Type(pcp.TypeAggregate), pcp.InDomNull
			if m, ok := a.Meta.Metric(vs.PMID); ok {
				if len(m.Names) > 0 {
					base.Name = m.Names[0]
				}
				typ, indom = m.Type, m.InDom
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
				abi.ArchiveValueOf(&v, pv, typ)
				rec.Values = append(rec.Values, v)
			}
		}
		if err := j.write(&rec); err != nil {
			return err
		}
	}
	warnSkipped(name, s)
	if err := s.Err(); err != nil {
		return &inputError{file: name, err: err}
	}
	return nil
}
