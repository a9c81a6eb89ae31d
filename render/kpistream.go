package render

import (
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// NewKPIStream starts a session fed piece by piece, for a live DLT stream
// (dlt-receive's output, a daemon's TCP port with FramingBare, a serial
// line). The bytes go through a dlt.Feeder, which frames and
// resynchronises over damage exactly as the scanner of a whole capture
// (NewKPISession, perfwire kpi) does, whatever the pieces; a record comes
// out as soon as what follows it decides it. Memory is bounded: the
// feeder keeps only the bytes not yet decided.
func NewKPIStream(framing dlt.Framing) *KPISession {
	if framing > dlt.FramingBare {
		framing = dlt.FramingStorage
	}
	return newKPISession(nil, true, framing)
}

// Feed decodes every record that chunk decides and returns the progress
// (Offset: stream bytes decided, records or skipped; Total: bytes fed)
// and what the records reported (KPIStep). The session copies what it
// keeps of chunk.
func (k *KPISession) Feed(chunk []byte) schema.KPIStep { return k.call(KPICallFeed, chunk, 0) }

// take passes every message the feeder has decided to the reassembler;
// an error the feeder cannot get past ends the session.
func (k *KPISession) take() {
	for k.f.Next() {
		k.kp.Push(k.f.Message())
		k.drain()
	}
	if err := k.f.Err(); err != nil {
		k.finish(err)
	}
}

// Cut ends the current input as End does, without ending the session: a
// record cut off by the input's end is truncated and ends the session, as
// in a scan of that input alone; else the next Feed starts a new input
// (offsets and errors count from its start) while the processes, groups
// and counters carry on. perfwire kpi FILE... reads its files so. On a
// session done, Cut is End.
func (k *KPISession) Cut() schema.KPIStep { return k.call(KPICallCut, nil, 0) }

// End declares the stream finished: the records still undecided are
// decided, one cut off by the end is reported as truncated, and the
// reassembler is flushed.
func (k *KPISession) End() schema.KPIStep { return k.call(KPICallEnd, nil, 0) }

// KPICall is a call on a KPISession, for Run: the work of the methods
// Step, Feed, Cut and End.
type KPICall uint8

// The calls, as Run takes them.
const (
	KPICallStep KPICall = iota
	KPICallFeed
	KPICallCut
	KPICallEnd
)

// call runs call o (run) and returns its KPIStep.
func (k *KPISession) call(o KPICall, in []byte, max int) schema.KPIStep {
	return k.progress(k.Run(o, in, max))
}

// next starts the next input after Cut of a stream session not done,
// once the cut's step is reported.
func (k *KPISession) next() {
	cut := k.cut
	k.cut = false
	if cut && k.stream && !k.done {
		k.base += k.f.Offset()
		k.skippedBefore += k.f.Skipped()
		k.placesBefore += k.f.Resyncs()
		k.f = dlt.NewFeeder(k.f.Options())
	}
}

// position is the session's error (callErr instead when there is one),
// the input's bytes consumed and its length, and a stream's skip error.
func (k *KPISession) position(callErr error) (err error, off, total int, skipErr error) {
	err = k.err
	if callErr != nil {
		err = callErr
	}
	if k.stream {
		return err, k.base + k.f.Offset(), k.fed, k.f.SkipError()
	}
	return err, k.s.Offset(), len(k.in), nil
}

// progress is the KPIStep for the session's current state; a call error
// (ErrBadMode) is reported instead of the session's own. It hands the
// step's samples, interrupt rows and ended processes over to the step.
func (k *KPISession) progress(callErr error) schema.KPIStep {
	err, off, total, skipErr := k.position(callErr)
	st := schema.KPIStep{
		Error:    schema.ErrorOf(err),
		Done:     k.done,
		Messages: k.kp.Stats().Messages,
		Offset:   off,
		Total:    total,
	}
	if k.stream {
		st.SkipError = schema.ErrorOf(skipErr)
	}
	from := 0
	for _, m := range k.samples {
		to := m.to
		st.Samples = append(st.Samples, schema.CPUSample{TMSP: m.tmsp, PIDs: k.colPIDs[from:to:to], CPU: k.colCPU[from:to:to],
			RSS: k.colRSS[from:to:to], Ctx: k.colCtx[from:to:to], IO: k.colIO[from:to:to]})
		from = to
	}
	st.IRQs = AppendIRQs(nil, k.irqs, nil)
	k.samples, k.irqs = k.samples[:0], k.irqs[:0]
	k.colPIDs, k.colCPU, k.colRSS, k.colCtx, k.colIO = nil, nil, nil, nil, nil // the samples' now
	if ended := k.t.TakeEnded(); len(ended) > 0 {
		st.Ended = make([]schema.KPIProcess, 0, len(ended))
		for i := range ended {
			st.Ended = append(st.Ended, EndedRow(&ended[i]))
		}
	}
	k.next()
	return st
}

// AppendProgress appends the MessagePack KPIStep of the session's state
// after Run, with callErr (Run's error) instead of the session's own
// when there is one, written in place; it starts the next step as the
// methods do (the columns kept for it, written already). Run and
// AppendProgress are the in-place Step, Feed, Cut and End, two calls
// rather than one function around them: module size.
func (k *KPISession) AppendProgress(b []byte, callErr error) []byte {
	err, off, total, skipErr := k.position(callErr)
	hdr := byte(0x88) // a map of 8 keys, 9 with skip_error
	if skipErr != nil {
		hdr++
	}
	e := schema.Map{B: append(b, hdr)}
	e.Err("\xa5error", schema.ErrorOf(err))
	if skipErr != nil {
		e.Err("\xaaskip_error", schema.ErrorOf(skipErr))
	}
	v := [8]uint64{uint64(off), uint64(total), 0, uint64(k.kp.Stats().Messages)}
	if k.done {
		v[2] = 1
	}
	b = schema.AppendFields(e.B, "\xa6offset\xa5total\xa4done\xa8messages", &v, schema.FieldInt|schema.FieldInt<<2|schema.FieldBool<<4|schema.FieldInt<<6)
	b = schema.AppendArrayHeader(append(b, "\xa7samples"...), uint32(len(k.samples)))
	from := 0
	for _, m := range k.samples {
		b = schema.AppendUint64(append(b, "\x86\xa4tmsp"...), uint64(m.tmsp))
		// The five columns by one loop: pids, cpu, rss, ctx, io.
		for c, key := range [...]string{"\xa4pids", "\xa3cpu", "\xa3rss", "\xa3ctx", "\xa2io"} {
			b = schema.AppendArrayHeader(append(b, key...), uint32(m.to-from))
			for i := from; i < m.to; i++ {
				var v uint64
				switch c {
				case 0:
					v = uint64(int64(k.colPIDs[i]))
				case 1:
					b = schema.AppendUint64(b, k.colCPU[i])
					continue
				case 2:
					v = uint64(k.colRSS[i])
				case 3:
					v = uint64(k.colCtx[i])
				default:
					b = schema.AppendUint64(b, k.colIO[i])
					continue
				}
				b = schema.AppendInt64(b, int64(v))
			}
		}
		from = m.to
	}
	b = appendIRQRows(append(b, "\xa4irqs"...), k.irqs)
	k.samples, k.irqs = k.samples[:0], k.irqs[:0]
	k.colPIDs, k.colCPU, k.colRSS, k.colCtx, k.colIO = k.colPIDs[:0], k.colCPU[:0], k.colRSS[:0], k.colCtx[:0], k.colIO[:0]
	ended := k.t.TakeEnded()
	b = schema.AppendArrayHeader(append(b, "\xa5ended"...), uint32(len(ended)))
	for i := range ended {
		by := ended[i].By.String()
		if ended[i].By == dltkpi.KindNone {
			by = "session"
		}
		b = appendProcess(b, ended[i].Process, ended[i].End, by)
	}
	k.next()
	return b
}

// appendIRQRows appends the array of KPIIRQ rows of table, as AppendIRQs
// gives them with a nil event.
func appendIRQRows(b []byte, table []dltkpi.IRQRate) []byte {
	b = schema.AppendArrayHeader(b, uint32(len(table)))
	for i := range table {
		q := &table[i]
		b = msgp.AppendString(append(b, "\x88\xa4name"...), q.Name)
		v := [8]uint64{uint64(q.CPU), uint64(q.Count), 0, uint64(q.Delta), uint64(q.Interval)}
		if q.HasDelta {
			v[2] = 1
		}
		b = schema.AppendFields(b, "\xa3cpu\xa5count\xa9has_delta\xa5delta\xa8interval", &v, schema.FieldInt|schema.FieldInt<<2|schema.FieldBool<<4|schema.FieldInt<<6|schema.FieldUint<<8)
		b = schema.AppendFloat64(append(b, "\xaaper_second"...), q.PerSecond())
		b = schema.AppendUint64(append(b, "\xa4tmsp"...), uint64(q.Time))
	}
	return b
}

// appendProcess appends the KPIProcess of p, as ProcessRow gives it for
// a process in the table (end 0, endBy ""), and EndedRow for one the
// tracker removed.
func appendProcess(b []byte, p *dltkpi.Process, end uint32, endBy string) []byte {
	v := [8]uint64{uint64(int64(p.PID)), uint64(int64(p.PPID)), 0}
	if p.PPIDKnown {
		v[2] = 1
	}
	b = schema.AppendFields(append(b, 0xde, 0, 22), "\xa3pid\xa4ppid\xaappid_known", &v, schema.FieldInt|schema.FieldInt<<2|schema.FieldBool<<4)
	bad := !utf8.Valid(p.Cmd)
	b = appendText(b, "\xa3cmd", "\xa7cmd_hex", p.Cmd, bad)
	if !bad {
		b = append(b, "\xa7cmd_hex\xa0"...)
	}
	b = msgp.AppendString(append(b, "\xa8cmd_kind"...), p.CmdKind.String())
	v = [8]uint64{0, 0, uint64(p.FirstSeen), uint64(p.LastSeen), 0, p.CPU, uint64(p.RSS), uint64(p.Ctx)}
	if p.Partial {
		v[0] = 1
	}
	if p.StatShifted {
		v[1] = 1
	}
	if p.HasACT {
		v[4] = 1
	}
	b = schema.AppendFields(b, "\xa7partial\xacstat_shifted\xaafirst_seen\xa9last_seen\xa7has_act\xa3cpu\xa3rss\xa3ctx", &v,
		schema.FieldBool|schema.FieldBool<<2|schema.FieldUint<<4|schema.FieldUint<<6|schema.FieldBool<<8|schema.FieldUint<<10|schema.FieldInt<<12|schema.FieldInt<<14)
	v = [8]uint64{p.IO, p.IOWait, 0, uint64(p.CtxDelta), p.IODelta, uint64(p.Interval), uint64(end)}
	if p.HasDelta {
		v[2] = 1
	}
	b = schema.AppendFields(b, "\xa2io\xa6iowait\xa9has_delta\xa9ctx_delta\xa8io_delta\xa8interval\xa3end", &v,
		schema.FieldUint|schema.FieldUint<<2|schema.FieldBool<<4|schema.FieldInt<<6|schema.FieldUint<<8|schema.FieldUint<<10|schema.FieldUint<<12)
	return msgp.AppendString(append(b, "\xa6end_by"...), endBy)
}

// AppendTable appends the MessagePack KPITable of Table, written in
// place.
func (k *KPISession) AppendTable(b []byte) []byte {
	e := schema.Map{B: append(b, 0x84)}
	e.Err("\xa5error", schema.ErrorOf(k.err))
	ps := k.t.Processes()
	b = schema.AppendArrayHeader(append(e.B, "\xa9processes"...), uint32(len(ps)))
	for i := range ps {
		b = appendProcess(b, &ps[i], 0, "")
	}
	b = appendIRQRows(append(b, "\xa4irqs"...), k.t.IRQs())
	rs, ts := k.kp.Stats(), k.t.Stats()
	skipped, places := k.skipped()
	b = appendKindCounts(schema.AppendInt64(append(b, "\xa5stats\x8b\xa8messages"...), int64(rs.Messages)), "\xa8datasets", &rs.Datasets)
	b = appendKindCounts(b, "\xa6groups", &rs.Groups)
	v := [8]uint64{uint64(rs.Fragments), uint64(rs.Malformed), uint64(k.kp.OpenGroups()), uint64(skipped), uint64(places),
		uint64(ts.InferredStops), uint64(ts.SuspectIRQ), uint64(ts.Replaced)}
	return schema.AppendFields(b, "\xa9truncated\xa9malformed\xabopen_groups\xadskipped_bytes\xaeskipped_places\xaeinferred_stops\xabsuspect_irq\xa8replaced", &v,
		schema.FieldInt|schema.FieldInt<<2|schema.FieldInt<<4|schema.FieldInt<<6|schema.FieldInt<<8|schema.FieldInt<<10|schema.FieldInt<<12|schema.FieldInt<<14)
}

// appendKindCounts appends key and the KindCounts of a.
func appendKindCounts(b []byte, key string, a *[dltkpi.NumKinds]int) []byte {
	v := [8]uint64{uint64(a[dltkpi.KindNEW]), uint64(a[dltkpi.KindSTP]), uint64(a[dltkpi.KindACT]), uint64(a[dltkpi.KindCHK]), uint64(a[dltkpi.KindIRQ])}
	return schema.AppendFields(append(append(b, key...), 0x85), "\xa3NEW\xa3STP\xa3ACT\xa3CHK\xa3IRQ", &v, schema.FieldInt|schema.FieldInt<<2|schema.FieldInt<<4|schema.FieldInt<<6|schema.FieldInt<<8)
}
