package abi

import (
	"math"
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/tinylib/msgp/msgp"
)

// DecodeKPI decodes the dlt-kpi messages of a DLT byte stream (a .dlt
// file's bytes), stopping after max messages when max > 0. Messages that
// are not KPI messages are passed over.
func DecodeKPI(in []byte, max int) KPIMessages {
	return decodeKPI(in, max, dlt.Options{})
}

// KPIFramingShift is where kpi_decode's second argument holds the
// framing: max | framing<<KPIFramingShift.
const KPIFramingShift = 24

// DecodeKPIFramed is DecodeKPI of a capture in another framing (kpi_decode
// with the framing in its second argument): a serial capture's, "DLS" 01
// before each message, is scanned and resynchronised over damage as the
// KPI stream session of that framing scans it.
func DecodeKPIFramed(in []byte, max int, framing dlt.Framing) KPIMessages {
	return decodeKPI(in, max, dlt.Options{Framing: framing})
}

func decodeKPI(in []byte, max int, opt dlt.Options) KPIMessages {
	res := KPIMessages{Messages: []KPIMessage{}}
	s := dlt.NewScanner(in, opt)
	var sel dltkpi.Selector
	for (max <= 0 || len(res.Messages) < max) && s.Next() {
		km, src, err := sel.FromDLT(s.Message())
		if err != nil {
			continue
		}
		res.Messages = append(res.Messages, NewKPIMessage(km, src))
	}
	res.Offset = s.Offset()
	res.More = res.Offset < len(in) && s.Err() == nil && max > 0 && len(res.Messages) == max
	res.SkippedBytes = s.Skipped()
	res.Error = ErrorOf(s.Err())
	return res
}

// kpiDecodeCall is kpi_decode's result, written in place into the
// module's buffer when it is marshalled.
type kpiDecodeCall struct {
	in      []byte
	max     int
	framing dlt.Framing
}

func (c *kpiDecodeCall) MarshalMsg(b []byte) ([]byte, error) {
	return AppendKPIMessages(b, c.in, c.max, c.framing), nil
}

// AppendKPIMessages appends to dst the MessagePack KPIMessages of
// DecodeKPIFramed(in, max, framing), each message written in place
// (kpi_decode): no KPIMessage, no allocation per dataset. Building the
// values first made a call in Node spend 40% of its time allocating
// and collecting them, and copying them with write barriers (issue 18).
func AppendKPIMessages(dst, in []byte, max int, framing dlt.Framing) []byte {
	// About a message per 150 bytes of a dlt-kpi capture.
	o := beginList(dst, 0x85, "\xa8messages", len(in)/150)
	s := dlt.NewScanner(in, dlt.Options{Framing: framing})
	var sel dltkpi.Selector
	for (max <= 0 || o.n < max) && s.Next() {
		km, src, err := sel.FromDLT(s.Message())
		if err != nil {
			continue
		}
		o.b = appendKPIMessage(o.b, &km, src.TMSP)
		o.n++
	}
	off := s.Offset()
	more := off < len(in) && s.Err() == nil && max > 0 && o.n == max
	v := [8]uint64{0, uint64(off), uint64(s.Skipped())}
	if more {
		v[0] = 1
	}
	return appendFields(o.end(s.Err()), "\xa4more\xa6offset\xadskipped_bytes", &v, fieldBool|fieldInt<<2|fieldInt<<4)
}

// appendKPIMessage appends NewKPIMessage(*m, src)'s MessagePack, where
// tmsp is src.TMSP.
func appendKPIMessage(b []byte, m *dltkpi.Message, tmsp uint32) []byte {
	b = appendUint64(append(b, "\x85\xa4tmsp"...), uint64(tmsp))
	t := math.Float64bits(float64(tmsp) / 10000)
	b = append(b, 0xa4, 't', 'i', 'm', 'e', 0xcb, byte(t>>56), byte(t>>48), byte(t>>40), byte(t>>32), byte(t>>24), byte(t>>16), byte(t>>8), byte(t))
	b = append(b, kpiKindKeys[m.Kind&7]...)
	b = append(b, kpiSyncKeys[m.Sync&3]...)
	b = appendArrayHeader(b, uint32(m.Datasets+m.Fragments))
	s := m.Scanner()
	for s.Next() {
		d, err := s.Dataset()
		k := d.Kind
		if d.Truncated || err != nil || k == dltkpi.KindIRQ {
			b = appendKPIText(b, d, err)
			continue
		}
		// The kinds led by a pid: the map's size, the numbers, then
		// NEW's and CHK's command.
		n, bad := byte(0x81), false
		v := [8]uint64{uint64(int64(d.PID))}
		keys, forms := "\xa3pid", uint(fieldInt)
		switch k {
		case dltkpi.KindACT:
			n, keys = 0x86, "\xa3pid\xa3cpu\xa3rss\xa3ctx\xa2io\xa6iowait"
			forms = fieldInt | fieldUint<<2 | fieldInt<<4 | fieldInt<<6 | fieldUint<<8 | fieldUint<<10
			v[1], v[2], v[3], v[4], v[5] = d.CPU, uint64(d.RSS), uint64(d.Ctx), d.IO, d.IOWait
		case dltkpi.KindNEW, dltkpi.KindCHK:
			n = 0x82
			if k == dltkpi.KindNEW {
				n, keys, forms = 0x83, "\xa3pid\xa4ppid", fieldInt|fieldInt<<2
				v[1] = uint64(int64(d.PPID))
			}
			if bad = !utf8.Valid(d.Cmd); bad {
				n++
			}
		}
		b = appendFields(append(b, n), keys, &v, forms)
		if k == dltkpi.KindNEW || k == dltkpi.KindCHK {
			b = appendText(b, "\xa3cmd", "\xa7cmd_hex", d.Cmd, bad)
		}
	}
	return b
}

// kpiKindKeys and kpiSyncKeys are a KPIMessage's keys and values after
// its time, by its kind and its sync, up to its datasets' array header:
// two appends where the keys and the strings were six.
var (
	kpiKindKeys = [8]string{"\xa4kind\xa0\xa4sync", "\xa4kind\xa3NEW\xa4sync", "\xa4kind\xa3STP\xa4sync",
		"\xa4kind\xa3ACT\xa4sync", "\xa4kind\xa3CHK\xa4sync", "\xa4kind\xa3IRQ\xa4sync"}
	kpiSyncKeys = [4]string{"\xa0\xa8datasets", "\xa3BEG\xa8datasets", "\xa3END\xa8datasets"}
)

// appendFields appends each key of keys (MessagePack strings back to
// back) and the value of v at its index, of the form its two bits of
// forms give (the first field's the lowest): fieldUint (as
// appendUint64 writes it), fieldInt (appendInt64) or fieldBool (0 or 1).
// One call for a run of keys and numbers, where a key's append and a
// number's are two at each call site. The keys are copied byte by byte:
// an append of a string is a memory.copy, which costs V8 a call.
func appendFields(b []byte, keys string, v *[8]uint64, forms uint) []byte {
	for i, k := 0, 0; k < len(keys); i++ {
		for end := k + 1 + int(keys[k]&0x1f); k < end && k < len(keys); k++ {
			b = append(b, keys[k])
		}
		switch x, form := v[i&7], forms>>(2*i)&3; {
		case form == fieldBool:
			b = append(b, 0xc2|byte(x&1))
		case x < 0x80: // a positive fixint in both forms, without a call
			b = append(b, byte(x))
		case form == fieldInt:
			b = appendInt64(b, int64(x))
		default:
			b = appendUint64(b, x)
		}
	}
	return b
}

// The forms of appendFields' values.
const (
	fieldUint = iota
	fieldInt
	fieldBool
)

// appendKPIText appends the map of a dataset led by its text: a
// fragment's or a malformed dataset's (truncated or error, then raw), an
// IRQ's (name, then counts).
//
//go:noinline
func appendKPIText(b []byte, d *dltkpi.Dataset, err error) []byte {
	irq := !d.Truncated && err == nil
	text, key, hexKey := d.Raw, "\xa3raw", "\xa7raw_hex"
	if irq {
		text, key, hexKey = d.IRQ, "\xa4name", "\xa8name_hex"
	}
	bad := !utf8.Valid(text)
	n := byte(0x82)
	if bad {
		n++
	}
	b = append(b, n)
	if d.Truncated {
		b = append(b, "\xa9truncated\xc3"...)
	} else if err != nil {
		b = msgp.AppendString(append(b, "\xa5error"...), err.Error())
	}
	b = appendText(b, key, hexKey, text, bad)
	if irq {
		b = appendArrayHeader(append(b, "\xa6counts"...), uint32(d.CPUs))
		for c := range d.Counts() {
			b = appendInt64(b, c.Count)
		}
	}
	return b
}

// appendText appends key and text as textString gives it, then, when
// text is not UTF-8 (bad), hexKey and its bytes in hex.
func appendText(b []byte, key, hexKey string, text []byte, bad bool) []byte {
	b = append(b, key...)
	if !bad {
		return appendStr(b, text)
	}
	s, h := textString(text)
	return msgp.AppendString(append(msgp.AppendString(b, s), hexKey...), h)
}

// NewKPIMessage is the schema of one KPI message, as kpi_decode and
// `perfwire kpi --json` give it.
func NewKPIMessage(m dltkpi.Message, src dltkpi.Source) KPIMessage {
	km := KPIMessage{TMSP: src.TMSP, Time: float64(src.TMSP) / 10000, Kind: m.Kind.String(), Sync: m.Sync.String(),
		Datasets: make([]KPIDataset, 0, m.Datasets+m.Fragments)}
	// A scanner, not All: a range over an iterator checks its state
	// through calls even inlined (issue 18).
	s := m.Scanner()
	for s.Next() {
		d, err := s.Dataset()
		var o KPIDataset
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
			v.text, *hexOut = textString(text)
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

// textString renders raw /proc bytes as a string and, when they are not
// valid UTF-8, their exact bytes in hex. Each invalid byte becomes
// U+FFFD, as encoding/json would render it.
func textString(b []byte) (s, hexOf string) {
	if utf8.Valid(b) {
		return string(b), ""
	}
	return validText(b), hexText(b)
}

// ProcessRow is the schema's row of a tracked process.
func ProcessRow(p *dltkpi.Process) KPIProcess {
	cmd, cmdHex := textString(p.Cmd)
	return KPIProcess{
		PID: p.PID, PPID: p.PPID, PPIDKnown: p.PPIDKnown, Cmd: cmd, CmdHex: cmdHex,
		CmdKind: p.CmdKind.String(), Partial: p.Partial, StatShifted: p.StatShifted,
		FirstSeen: p.FirstSeen, LastSeen: p.LastSeen, HasACT: p.HasACT,
		CPU: p.CPU, RSS: p.RSS, Ctx: p.Ctx, IO: p.IO, IOWait: p.IOWait,
		HasDelta: p.HasDelta, CtxDelta: p.CtxDelta, IODelta: p.IODelta, Interval: p.Interval,
	}
}

// EndedRow is the schema's row of a process the tracker removed.
func EndedRow(e *dltkpi.Ended) KPIProcess {
	r := ProcessRow(e.Process)
	r.End, r.EndBy = e.End, e.By.String()
	if e.By == dltkpi.KindNone {
		r.EndBy = "session"
	}
	return r
}

// AppendIRQs appends the schema's rows of a tracker's interrupt table
// (Tracker.IRQs): all of them for a nil ev, else those the IRQ group ev
// ended updated, whose latest sample has the group's time (none when the
// tracker found the group suspect). Inlined into its two callers in the
// plugins it cost them 2 KB.
//
//go:noinline
func AppendIRQs(rows []KPIIRQ, table []dltkpi.IRQRate, ev *dltkpi.Event) []KPIIRQ {
	for _, q := range table {
		if ev == nil || q.Time == ev.Group.Begin {
			rows = append(rows, KPIIRQ{
				Name: q.Name, CPU: q.CPU, Count: q.Count, HasDelta: q.HasDelta,
				Delta: q.Delta, Interval: q.Interval, PerSecond: q.PerSecond(), TMSP: q.Time,
			})
		}
	}
	return rows
}

// IRQGroupEnd reports whether ev ends an IRQ group, which the tracker
// applies unless it is suspect.
func IRQGroupEnd(ev *dltkpi.Event) bool {
	return ev.Kind == dltkpi.KindIRQ && (ev.Type == dltkpi.EventGroupEnd || ev.Type == dltkpi.EventGroupAborted)
}

// Stats is the schema's summary of a reassembler's and a tracker's
// counters, with the groups left open and the bytes skipped.
func Stats(rs dltkpi.Stats, ts dltkpi.TrackerStats, open, skipped, places int) KPIStats {
	return KPIStats{SkippedPlaces: places,
		Messages: rs.Messages, Datasets: kindCounts(rs.Datasets), Groups: kindCounts(rs.Groups),
		Truncated: rs.Fragments, Malformed: rs.Malformed, OpenGroups: open, SkippedBytes: skipped,
		InferredStops: ts.InferredStops, SuspectIRQ: ts.SuspectIRQ, Replaced: ts.Replaced,
	}
}

func kindCounts(a [dltkpi.NumKinds]int) KindCounts {
	return KindCounts{NEW: a[dltkpi.KindNEW], STP: a[dltkpi.KindSTP], ACT: a[dltkpi.KindACT], CHK: a[dltkpi.KindCHK], IRQ: a[dltkpi.KindIRQ]}
}

// KPISession decodes one DLT capture step by step through dltkpi's
// reassembler and tracker, as `perfwire kpi` does, so a host can show
// progress and the process table while a large capture is decoded.
type KPISession struct {
	in   []byte
	s    dlt.Scanner
	kp   *dltkpi.Session
	t    *dltkpi.Tracker // kp's
	done bool
	err  error
	// What the step reports: where each of its samples ends in the
	// columns below, and the interrupt rows its IRQ groups updated.
	samples []kpiSample
	irqs    []dltkpi.IRQRate
	actPIDs []int32 // pids listed by the open ACT group
	// The columns of the step's samples back to back: each sample's
	// slices are windows of them. A few allocations as they grow, not
	// five per ACT group.
	colPIDs []int32
	colCPU  []uint64
	colRSS  []int64
	colCtx  []int64
	colIO   []uint64

	// A stream session (NewKPIStream) has no whole input: bytes arrive
	// with Feed and wait in the feeder until their record is decided.
	stream bool
	f      *dlt.Feeder
	fed    int
	// What the inputs before the current one (kpi_cut) consumed and
	// skipped.
	base, skippedBefore, placesBefore int
}

// NewKPISession starts a session over in, which it keeps (the caller must
// not modify it while the session lives).
func NewKPISession(in []byte) *KPISession {
	k := &KPISession{in: in, s: dlt.NewScanner(in, dlt.Options{})}
	return k.withPipeline()
}

// withPipeline gives k the dltkpi session both kinds of KPI session decode
// through; its tracker keeps the processes it ends, for KPIStep.ended.
func (k *KPISession) withPipeline() *KPISession {
	k.kp = dltkpi.NewSession(dltkpi.Options{}, dltkpi.TrackerOptions{KeepEnded: true})
	k.t = k.kp.Tracker()
	return k
}

// Step reads up to max DLT messages (all when max ≤ 0) and returns the
// progress and the CPU samples of the ACT groups that ended meanwhile.
// At the end of the input it flushes the reassembler; later steps return
// Done again with no samples. A framing error the scanner cannot get
// past ends the session with that error; what came before it is kept.
func (k *KPISession) Step(max int) KPIStep { return k.call(OpKPIStep, nil, max) }

// run does the work of kpi_step (up to max messages), kpi_feed (of in),
// kpi_end or kpi_cut (op o) and returns the call's error: ErrBadMode for
// a call of the other kind of session. A session done does nothing more.
// What the step reports waits in k for progress or appendProgress.
func (k *KPISession) run(o Op, in []byte, max int) error {
	if k.stream == (o == OpKPIStep) {
		return abiError(ErrBadMode)
	}
	switch {
	case k.done:
	case o == OpKPIStep:
		for n := 0; !k.done && (max <= 0 || n < max); n++ {
			if !k.s.Next() {
				k.finish(k.s.Err())
				break
			}
			k.kp.Push(k.s.Message())
			k.drain()
		}
	case o == OpKPIFeed:
		k.fed += len(in)
		k.f.Feed(in)
		k.take()
	default: // kpi_end, kpi_cut
		k.f.End()
		k.take()
		if !k.done && o == OpKPIEnd {
			k.finish(nil)
		}
	}
	return nil
}

// finish ends the session with err (nil: the input's end): the groups
// still open are counted and the reassembler is flushed.
func (k *KPISession) finish(err error) {
	k.err = err
	k.kp.End()
	k.drain()
	k.done = true
}

// drain applies the reassembler's events to the tracker: when an ACT
// group ends, it samples the tracker's values for the pids that group
// listed; when an IRQ group is applied, it copies the rows it updated.
func (k *KPISession) drain() {
	for k.kp.Next() {
		ev := k.kp.Current()
		if IRQGroupEnd(ev) {
			// The table appended, then the rows the group updated kept:
			// those whose latest sample has its time (none when the
			// tracker found the group suspect).
			n := len(k.irqs)
			rows := k.t.AppendIRQs(k.irqs)
			for _, q := range rows[n:] {
				if q.Time == ev.Group.Begin {
					rows[n] = q
					n++
				}
			}
			k.irqs = rows[:n]
		}
		if ev.Kind != dltkpi.KindACT {
			continue
		}
		switch ev.Type {
		case dltkpi.EventGroupBegin, dltkpi.EventGroupAborted:
			k.actPIDs = k.actPIDs[:0]
		case dltkpi.EventDataset:
			if !ev.Orphan && ev.Err == nil && !ev.Dataset.Truncated {
				k.actPIDs = append(k.actPIDs, ev.Dataset.PID)
			}
		case dltkpi.EventGroupEnd:
			k.sample(ev.Source.TMSP)
			k.actPIDs = k.actPIDs[:0]
		}
	}
}

// sample reads the values the tracker now holds for the pids of the ACT
// group that just ended. Looking pids up one by one, instead of copying
// and sorting the whole table per group, keeps a step cheap.
func (k *KPISession) sample(tmsp uint32) {
	for _, pid := range k.actPIDs {
		if p, ok := k.t.Process(pid); ok && p.HasACT {
			ctx := int64(-1)
			if p.HasDelta {
				ctx = p.CtxDelta
			}
			k.colPIDs = append(k.colPIDs, p.PID)
			k.colCPU = append(k.colCPU, p.CPU)
			k.colRSS = append(k.colRSS, p.RSS)
			k.colCtx = append(k.colCtx, ctx)
			k.colIO = append(k.colIO, p.IODelta)
		}
	}
	k.samples = append(k.samples, kpiSample{tmsp: tmsp, to: len(k.colPIDs)})
}

// kpiSample is a sample of a step: its ACT group's time, and where its
// rows end in the session's columns (they start where the previous
// sample's end).
type kpiSample struct {
	_    noCompare
	tmsp uint32
	to   int
}

// Table returns the tracker's current process table, interrupt rates and
// counters.
func (k *KPISession) Table() KPITable {
	res := KPITable{Error: ErrorOf(k.err), Processes: []KPIProcess{}, IRQs: AppendIRQs([]KPIIRQ{}, k.t.IRQs(), nil)}
	ps := k.t.Processes()
	for i := range ps { // by index: a 200-byte row copied per process is code too
		res.Processes = append(res.Processes, ProcessRow(&ps[i]))
	}
	skipped, places := k.skipped()
	res.Stats = Stats(k.kp.Stats(), k.t.Stats(), k.kp.OpenGroups(), skipped, places)
	return res
}

// skipped is the bytes the session's scanner or feeders resynchronised
// over and in how many places.
func (k *KPISession) skipped() (bytes, places int) {
	if k.stream {
		return k.skippedBefore + k.f.Skipped(), k.placesBefore + k.f.Resyncs()
	}
	return k.s.Skipped(), k.s.Resyncs()
}
