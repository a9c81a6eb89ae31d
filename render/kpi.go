package render

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// AppendKPIMessages decodes the dlt-kpi messages of in, a DLT byte
// stream (a .dlt file's bytes) in framing, stopping after max messages
// when max > 0, and appends to dst their MessagePack KPIMessages
// (kpi_decode, with the framing in its second argument). Messages that
// are not KPI messages are passed over; a serial capture's ("DLS" 01
// before each message) is scanned and resynchronised over damage as the
// KPI stream session of that framing scans it. Each message is written
// in place: no KPIMessage, no allocation per dataset, so that a call
// spends its time decoding, not allocating, collecting and copying
// values with write barriers.
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
	return schema.AppendFields(o.end(s.Err()), "\xa4more\xa6offset\xadskipped_bytes", &v, schema.FieldBool|schema.FieldInt<<2|schema.FieldInt<<4)
}

// appendKPIMessage is AppendKPIMessage, where tmsp is src.TMSP.
func appendKPIMessage(b []byte, m *dltkpi.Message, tmsp uint32) []byte {
	// The map's keys and values up to its datasets' (at most 55 bytes:
	// tmsp, time, kind, sync, the array's header) as 64-bit stores into
	// h, whose indexes (masked to 63) need no bounds checks: no
	// memory.copy, which costs V8 a call, and no call. Each store may write past what
	// it keeps; the next one writes over it.
	p := len(b)
	for cap(b)-p < 128 {
		b = append(b[:cap(b)], 0)[:p]
	}
	h := (*[128]byte)(b[p : p+128])
	le := binary.LittleEndian
	// appendUint64's forms of tmsp.
	x, l := uint64(tmsp), 1
	switch {
	case tmsp <= math.MaxInt8:
	case tmsp <= math.MaxUint8:
		x, l = 0xcc|x<<8, 2
	case tmsp <= math.MaxUint16:
		x, l = 0xcd|uint64(bits.ReverseBytes16(uint16(tmsp)))<<8, 3
	default:
		x, l = 0xce|uint64(bits.ReverseBytes32(tmsp))<<8, 5
	}
	le.PutUint64(h[:], 0x85|0xa4<<8|'t'<<16|'m'<<24|'s'<<32|'p'<<40)
	le.PutUint64(h[6:], x)
	j := 6 + l
	le.PutUint64(h[j&63:], 0xa4|'t'<<8|'i'<<16|'m'<<24|'e'<<32|0xcb<<40)
	le.PutUint64(h[(j+6)&63:], bits.ReverseBytes64(math.Float64bits(float64(tmsp)/10000)))
	j += 14
	// "kind" and its name (or ""), "sync" and its name, "datasets".
	keys := [2]uint64{0xa4 | 'k'<<8 | 'i'<<16 | 'n'<<24 | 'd'<<32, 0xa4 | 's'<<8 | 'y'<<16 | 'n'<<24 | 'c'<<32}
	for i, v := range [2]uint32{kpiKindNames[m.Kind&7], kpiSyncNames[m.Sync&3]} {
		le.PutUint64(h[j&63:], keys[i])
		x, l = 0xa0, 1
		if v != 0 {
			x, l = 0xa3|uint64(v)<<8, 4
		}
		le.PutUint64(h[(j+5)&63:], x)
		j += 5 + l
	}
	le.PutUint64(h[j&63:], 0xa8|'d'<<8|'a'<<16|'t'<<24|'a'<<32|'s'<<40|'e'<<48|'t'<<56)
	// The array's header as appendArrayHeader writes it: at most 4,096
	// arguments a message.
	x, l = 0x90|uint64(m.Datasets+m.Fragments), 1
	if n := m.Datasets + m.Fragments; n > 15 {
		x, l = 0xdc|uint64(bits.ReverseBytes16(uint16(n)))<<8, 3
		if n > math.MaxUint16 {
			x, l = 0xdd|uint64(bits.ReverseBytes32(uint32(n)))<<8, 5
		}
	}
	le.PutUint64(h[(j+8)&63:], 's'|x<<8)
	b = b[:p+j+9+l]
	s := m.Scanner()
	for s.Next() {
		d, err := s.Dataset()
		if d.Kind != dltkpi.KindACT || d.Truncated || err != nil {
			b = appendKPIDataset(b, d, err)
			continue
		}
		v := [8]uint64{uint64(int64(d.PID)), d.CPU, uint64(d.RSS), uint64(d.Ctx), d.IO, d.IOWait}
		b = schema.AppendFields(append(b, 0x86), "\xa3pid\xa3cpu\xa3rss\xa3ctx\xa2io\xa6iowait", &v,
			schema.FieldInt|schema.FieldUint<<2|schema.FieldInt<<4|schema.FieldInt<<6|schema.FieldUint<<8|schema.FieldUint<<10)
	}
	return b
}

// appendKPIDataset appends the map of a dataset other than a
// well-formed ACT: a fragment's or a malformed dataset's (truncated or
// error, then raw), an IRQ's (name, then counts), STP's (pid), NEW's
// (pid, ppid, cmd) and CHK's (pid, cmd). One call that writes the keys
// as constant words, the text a word at a time as it checks that it is
// ASCII (UTF-8 checked only when it is not) and the IRQ's counts as it
// reads them, where a CHK dataset, the bulk of a capture, made five calls
// (a UTF-8 check, AppendFields, appendText, AppendStr and a memory.copy,
// which costs V8 a call) and each IRQ count four.
func appendKPIDataset(b []byte, d *dltkpi.Dataset, err error) []byte {
	at := len(b)
	// The text, its key (also as a word) and the key of its hex.
	text, key, kw, hexKey := d.Cmd, "\xa3cmd", uint64(0xa3|'c'<<8|'m'<<16|'d'<<24), "\xa7cmd_hex"
	k := d.Kind
	if d.Truncated || err != nil {
		text, key, kw, hexKey, k = d.Raw, "\xa3raw", 0xa3|'r'<<8|'a'<<16|'w'<<24, "\xa7raw_hex", dltkpi.KindNone
		if err != nil {
			b = appendKeyStr(b, "\x82\xa5error", err.Error())
		}
	} else if k == dltkpi.KindIRQ {
		text, key, kw, hexKey = d.IRQ, "\xa4name", 0xa4|'n'<<8|'a'<<16|'m'<<24|'e'<<32, "\xa8name_hex"
	}
	n := len(text)
	// The map's header, the numbers and the keys up to the text's
	// (at most 28 bytes) go to h, whose indexes need no bounds checks,
	// then the text, then an IRQ's counts: room for all of them, the
	// text as textString and its hex too (at most 5n+24 bytes) and 9
	// bytes a count.
	p := len(b)
	for cap(b)-p < 64+5*n+9*d.CPUs {
		b = append(b[:cap(b)], 0)[:p]
	}
	h := (*[64]byte)(b[p : p+64])
	le := binary.LittleEndian
	j := 0
	if d.Truncated {
		le.PutUint64(h[:], 0x82|0xa9<<8|'t'<<16|'r'<<24|'u'<<32|'n'<<40|'c'<<48|'a'<<56)
		le.PutUint32(h[8:], 't'|'e'<<8|'d'<<16|0xc3<<24)
		j = 12
	} else if k == dltkpi.KindIRQ {
		h[0], j = 0x82, 1
	} else if k != dltkpi.KindNone {
		hdr := uint64(0x81) | 0xa3<<8 | 'p'<<16 | 'i'<<24 | 'd'<<32
		if k == dltkpi.KindNEW {
			hdr += 2
		} else if k == dltkpi.KindCHK {
			hdr++
		}
		le.PutUint64(h[:], hdr)
		j = 5
		for f, v := 0, d.PID; ; f, v = 1, d.PPID {
			// appendInt32's forms as a word and its length.
			x, l := uint64(byte(v)), 1
			switch {
			case v >= -32 && v <= math.MaxInt8:
			case v >= math.MinInt8 && v < 0:
				x, l = 0xd0|x<<8, 2
			case v >= math.MinInt16 && v <= math.MaxInt16:
				x, l = 0xd1|uint64(byte(v>>8))<<8|x<<16, 3
			default:
				x, l = 0xd2|uint64(bits.ReverseBytes32(uint32(v)))<<8, 5
			}
			le.PutUint64(h[j&31:], x)
			j += l
			if f == 1 || k != dltkpi.KindNEW {
				break
			}
			le.PutUint64(h[j&31:], 0xa4|'p'<<8|'p'<<16|'i'<<24|'d'<<32)
			j += 5
		}
		if k == dltkpi.KindSTP {
			return b[:p+j]
		}
	}
	// The key and the text's header (a DLT argument's text is at most
	// 65,535 bytes: its length is 16 bits), then the text a word at a
	// time, its bytes or'ed to find any that is not ASCII.
	keyAt := j
	x, l := 0xa0|uint64(n), 1
	if n > 0xff {
		x, l = 0xda|uint64(n>>8&0xff)<<8|uint64(n&0xff)<<16, 3
	} else if n > 31 {
		x, l = 0xd9|uint64(n)<<8, 2
	}
	le.PutUint64(h[j&31:], kw|x<<(8*len(key)&63))
	j += l + len(key)
	t, src := b[p+j:p+j+n], text
	var or uint64
	for len(src) >= 8 && len(t) >= 8 {
		x := le.Uint64(src)
		or |= x
		le.PutUint64(t, x)
		src, t = src[8:], t[8:]
	}
	for i, c := range src {
		or |= uint64(c)
		t[i] = c
	}
	b = b[:p+j+n]
	if bad := or&0x8080808080808080 != 0 && !utf8.Valid(text); bad || n > 0xffff {
		// textString's forms, and one more field (the hex) for bytes that
		// are not UTF-8.
		if bad {
			b[at]++
		}
		b = appendText(b[:p+keyAt], key, hexKey, text, bad)
	}
	if k != dltkpi.KindIRQ {
		return b
	}
	// The counts from the text after the name, "cpu0:1;cpu1:-2;", which
	// the scanner has validated: a sign and digits after each ':' up to
	// the ';'. The key and header take at most 10 bytes and a count 9,
	// so appendInt64 writes within w's room and never grows it.
	cpus := d.CPUs
	q := len(b)
	w := b[q : q+24+9*cpus]
	hw := (*[16]byte)(w)
	x, j = 0xa6|'c'<<8|'o'<<16|'u'<<24|'n'<<32|'t'<<40|'s'<<48|uint64(0x90|cpus)<<56, 8
	if cpus > 15 {
		hw[8], hw[9], j = byte(cpus>>8), byte(cpus), 10
		x = x&(1<<56-1) | 0xdc<<56
	}
	le.PutUint64(hw[:], x)
	var (
		u        uint64
		neg, num bool // a '-' read; in a count, after its ':'
	)
	for _, c := range d.Raw[len(d.IRQ)+1:] {
		switch {
		case c == ':':
			u, neg, num = 0, false, true
			continue
		case !num:
			continue
		case c == '-':
			neg = true
			continue
		case c != ';':
			u = u*10 + uint64(c-'0')
			continue
		}
		num = false
		v := int64(u)
		if neg {
			v = -v
		}
		if v >= -32 && v <= math.MaxInt8 {
			w[j] = byte(v)
			j++
		} else {
			j = len(schema.AppendInt64(w[:j], v)) // in the room reserved
		}
	}
	return b[:q+j]
}

// appendText appends key and text as textString gives it, then, when
// text is not UTF-8 (bad), hexKey and its bytes in hex.
func appendText(b []byte, key, hexKey string, text []byte, bad bool) []byte {
	b = append(b, key...)
	if !bad {
		return schema.AppendStr(b, text)
	}
	s, h := textString(text)
	return msgp.AppendString(append(msgp.AppendString(b, s), hexKey...), h)
}

// kpiKindNames and kpiSyncNames are the three letters of a KPIMessage's
// kind and sync, by their value (0: none, written ""), little-endian.
var (
	kpiKindNames = [8]uint32{0, 'N' | 'E'<<8 | 'W'<<16, 'S' | 'T'<<8 | 'P'<<16, 'A' | 'C'<<8 | 'T'<<16,
		'C' | 'H'<<8 | 'K'<<16, 'I' | 'R'<<8 | 'Q'<<16}
	kpiSyncNames = [4]uint32{0, 'B' | 'E'<<8 | 'G'<<16, 'E' | 'N'<<8 | 'D'<<16}
)

// AppendKPIMessage appends to b the MessagePack KPIMessage of KPI
// message m, which the selector took from DLT message src: its time,
// kind, sync and datasets, written in place as kpi_decode writes each
// (AppendKPIMessages). `perfwire kpi --json` prints them.
func AppendKPIMessage(b []byte, m *dltkpi.Message, src dltkpi.Source) []byte {
	return appendKPIMessage(b, m, src.TMSP)
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
func ProcessRow(p *dltkpi.Process) schema.KPIProcess {
	cmd, cmdHex := textString(p.Cmd)
	return schema.KPIProcess{
		PID: p.PID, PPID: p.PPID, PPIDKnown: p.PPIDKnown, Cmd: cmd, CmdHex: cmdHex,
		CmdKind: p.CmdKind.String(), Partial: p.Partial, StatShifted: p.StatShifted,
		FirstSeen: p.FirstSeen, LastSeen: p.LastSeen, HasACT: p.HasACT,
		CPU: p.CPU, RSS: p.RSS, Ctx: p.Ctx, IO: p.IO, IOWait: p.IOWait,
		HasDelta: p.HasDelta, CtxDelta: p.CtxDelta, IODelta: p.IODelta, Interval: p.Interval,
	}
}

// EndedRow is the schema's row of a process the tracker removed.
func EndedRow(e *dltkpi.Ended) schema.KPIProcess {
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
// tracker found the group suspect). Kept out of line: module size.
//
//go:noinline
func AppendIRQs(rows []schema.KPIIRQ, table []dltkpi.IRQRate, ev *dltkpi.Event) []schema.KPIIRQ {
	for _, q := range table {
		if ev == nil || q.Time == ev.Group.Begin {
			rows = append(rows, schema.KPIIRQ{
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
func Stats(rs dltkpi.Stats, ts dltkpi.TrackerStats, open, skipped, places int) schema.KPIStats {
	return schema.KPIStats{SkippedPlaces: places,
		Messages: rs.Messages, Datasets: kindCounts(rs.Datasets), Groups: kindCounts(rs.Groups),
		Truncated: rs.Fragments, Malformed: rs.Malformed, OpenGroups: open, SkippedBytes: skipped,
		InferredStops: ts.InferredStops, SuspectIRQ: ts.SuspectIRQ, Replaced: ts.Replaced,
	}
}

func kindCounts(a [dltkpi.NumKinds]int) schema.KindCounts {
	return schema.KindCounts{NEW: a[dltkpi.KindNEW], STP: a[dltkpi.KindSTP], ACT: a[dltkpi.KindACT], CHK: a[dltkpi.KindCHK], IRQ: a[dltkpi.KindIRQ]}
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
	cut    bool // the call run is a Cut: the next input starts once it is reported
	// What the inputs before the current one (kpi_cut) consumed and
	// skipped.
	base, skippedBefore, placesBefore int
}

// NewKPISession starts a session over in, which it keeps (the caller must
// not modify it while the session lives).
func NewKPISession(in []byte) *KPISession { return newKPISession(in, false, 0) }

// newKPISession is NewKPISession (over in) and, with stream set,
// NewKPIStream (of framing): one function for kpi_open and kpi_stream.
// Both kinds decode through a dltkpi session whose tracker keeps the
// processes it ends, for KPIStep.ended.
func newKPISession(in []byte, stream bool, framing dlt.Framing) *KPISession {
	k := &KPISession{in: in, stream: stream}
	if stream {
		k.f = dlt.NewFeeder(dlt.Options{Framing: framing})
	} else {
		k.s = dlt.NewScanner(in, dlt.Options{})
	}
	k.kp = dltkpi.NewSession(dltkpi.Options{KeepEnded: true})
	k.t = k.kp.Tracker()
	return k
}

// Step reads up to max DLT messages (all when max ≤ 0) and returns the
// progress and the CPU samples of the ACT groups that ended meanwhile.
// At the end of the input it flushes the reassembler; later steps return
// Done again with no samples. A framing error the scanner cannot get
// past ends the session with that error; what came before it is kept.
func (k *KPISession) Step(max int) schema.KPIStep { return k.call(KPICallStep, nil, max) }

// Run does the work of Step (up to max messages), Feed (of in), End or
// Cut (call o) and returns the call's error: ErrBadMode for a call of
// the other kind of session. A session done does nothing more. What the
// step reports waits in k for AppendProgress.
func (k *KPISession) Run(o KPICall, in []byte, max int) error {
	k.cut = o == KPICallCut
	if k.stream == (o == KPICallStep) {
		return schema.ABIError(schema.ErrBadMode)
	}
	switch {
	case k.done:
	case o == KPICallStep:
		for n := 0; !k.done && (max <= 0 || n < max); n++ {
			if !k.s.Next() {
				k.finish(k.s.Err())
				break
			}
			k.kp.Push(k.s.Message())
			k.drain()
		}
	case o == KPICallFeed:
		k.fed += len(in)
		k.f.Feed(in)
		k.take()
	default: // End, Cut
		k.f.End()
		k.take()
		if !k.done && o == KPICallEnd {
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

// noCompare, a struct's first field, makes it incomparable, so that the
// linker emits no equality function for it: module size.
type noCompare [0]func()

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
func (k *KPISession) Table() schema.KPITable {
	res := schema.KPITable{Error: schema.ErrorOf(k.err), Processes: []schema.KPIProcess{}, IRQs: AppendIRQs([]schema.KPIIRQ{}, k.t.IRQs(), nil)}
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
