package render

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/schema"
)

// The reference AppendKPIMessages and AppendKPIMessage are held to
// (TestAppendKPIMessages, FuzzDecoders): the KPIMessages built as
// KPIMessage and KPIDataset values, then marshalled. It was kpi_decode's
// and `perfwire kpi --json`'s implementation before 2026-11-27
// (DecodeKPI, DecodeKPIFramed and NewKPIMessage).

// decodeKPIRef decodes the dlt-kpi messages of a DLT byte stream in
// framing, stopping after max messages when max > 0, as KPIMessages
// values.
func decodeKPIRef(in []byte, max int, framing dlt.Framing) schema.KPIMessages {
	res := schema.KPIMessages{Messages: []schema.KPIMessage{}}
	s := dlt.NewScanner(in, dlt.Options{Framing: framing})
	var sel dltkpi.Selector
	for (max <= 0 || len(res.Messages) < max) && s.Next() {
		km, src, err := sel.FromDLT(s.Message())
		if err != nil {
			continue
		}
		res.Messages = append(res.Messages, kpiMessageRef(km, src))
	}
	res.Offset = s.Offset()
	res.More = res.Offset < len(in) && s.Err() == nil && max > 0 && len(res.Messages) == max
	res.SkippedBytes = s.Skipped()
	res.Error = schema.ErrorOf(s.Err())
	return res
}

// kpiMessageRef is the schema of one KPI message as values.
func kpiMessageRef(m dltkpi.Message, src dltkpi.Source) schema.KPIMessage {
	km := schema.KPIMessage{TMSP: src.TMSP, Time: float64(src.TMSP) / 10000, Kind: m.Kind.String(), Sync: m.Sync.String(),
		Datasets: make([]schema.KPIDataset, 0, m.Datasets+m.Fragments)}
	// A scanner, not All: a range over an iterator checks its state
	// through calls even inlined.
	s := m.Scanner()
	for s.Next() {
		d, err := s.Dataset()
		var o schema.KPIDataset
		// The dataset's values in one block the fields point into: one
		// allocation per dataset, not one per field (an ACT dataset had
		// six).
		v := new(kpiValues)
		// The raw text, the command or the IRQ's name: which bytes, and
		// the fields their text and hex go to, written by one call.
		var text []byte
		var textOut **string
		var hexOut *string
		switch {
		case d.Truncated || err != nil:
			o.Truncated = d.Truncated
			if !d.Truncated {
				o.Error = err.Error()
			}
			text, textOut, hexOut = d.Raw, &o.Raw, &o.RawHex
		case d.Kind == dltkpi.KindNEW:
			v.pid, v.ppid = d.PID, d.PPID
			o.PID, o.PPID = &v.pid, &v.ppid
			text, textOut, hexOut = d.Cmd, &o.Cmd, &o.CmdHex
		case d.Kind == dltkpi.KindCHK:
			v.pid = d.PID
			o.PID = &v.pid
			text, textOut, hexOut = d.Cmd, &o.Cmd, &o.CmdHex
		case d.Kind == dltkpi.KindSTP:
			v.pid = d.PID
			o.PID = &v.pid
		case d.Kind == dltkpi.KindACT:
			v.pid, v.cpu, v.rss, v.ctx, v.io, v.iowait = d.PID, d.CPU, d.RSS, d.Ctx, d.IO, d.IOWait
			o.PID, o.CPU, o.RSS, o.Ctx, o.IO, o.IOWait = &v.pid, &v.cpu, &v.rss, &v.ctx, &v.io, &v.iowait
		case d.Kind == dltkpi.KindIRQ:
			text, textOut, hexOut = d.IRQ, &o.Name, &o.NameHex
			o.Counts = make([]int64, 0, d.CPUs)
			for c := range d.Counts() {
				o.Counts = append(o.Counts, c.Count)
			}
		}
		if textOut != nil {
			v.text, *hexOut = refTextString(text)
			*textOut = &v.text
		}
		km.Datasets = append(km.Datasets, o)
	}
	return km
}

// kpiValues holds the values a KPIDataset's fields point to.
type kpiValues struct {
	_ noCompare

	pid, ppid       int32
	cpu, io, iowait uint64
	rss, ctx        int64
	text            string // the raw text, the command or the name
}
