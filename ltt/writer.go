package ltt

import "github.com/perfwire/perfwire/internal/wire"

// MaxHeartbeats bounds the heartbeats the writer inserts into one gap
// between events (a gap of about 2^48 cycles, days at GHz rates), so a
// wrong cycle count cannot make it write gigabytes.
const MaxHeartbeats = 1 << 16

// Clock maps a 64-bit cycle count to wall-clock seconds and nanoseconds;
// the writer calls it for every block record.
type Clock func(cycles uint64) (seconds, nanoseconds uint32)

// Writer builds a tracefile in the v2 core profile: fixed-size blocks,
// each with block_start at 0, packed events, block_end, zero fill and the
// v2 trailer (the count of unused bytes). It never splits an event
// across blocks and inserts a time_heartbeat whenever the next event is
// 2^32 cycles or more after the previous one, so readers see every wrap.
// Its error is sticky: the first event refused is the error every later
// Event and Finish report.
//
//	w := ltt.NewWriter(r, nil)
//	w.Event(id, cycles, payload)
//	file, err := w.Finish()
type Writer struct {
	r       *Decoder
	clock   Clock
	out     []byte
	block   int // start of the open block in out, -1 when none is open
	blockID uint32
	last    uint64
	err     error    // the first error, sticky
	hb      [20]byte // scratch for heartbeat payloads (a stamp is 20 bytes)
}

// NewWriter returns a writer of tracefiles as r reads them: r's byte
// order, data model, block size and event types. A nil clock treats
// cycles as nanoseconds since the epoch.
func NewWriter(r *Decoder, clock Clock) *Writer {
	if clock == nil {
		clock = func(c uint64) (uint32, uint32) { return uint32(c / 1e9), uint32(c % 1e9) }
	}
	return &Writer{r: r, clock: clock, block: -1}
}

// Event appends one event. payload must be exactly one value of the
// event's type in the trace's layout (build it with the Layout Append
// helpers). It fails with the kind "ltt_unknown_event" for an id without a type or
// for block_start/block_end (the writer owns those), the kind "ltt_union" for a
// payload with a union unless Options.WriteUnions is set, the kind "ltt_payload" when
// the payload does not match the type, the kind "ltt_cycles" when cycles is below
// the previous event's, [ErrLimit] when the gap would need more than
// [MaxHeartbeats] heartbeats, and the kind "ltt_event_too_large" when the event cannot fit
// in an empty block. A refused event writes nothing; the writer keeps the
// error, writes no further event and returns it from every later call.
func (w *Writer) Event(id uint16, cycles uint64, payload []byte) error {
	if w.err != nil {
		return w.err
	}
	if err := w.check(id, cycles, payload); err != nil {
		w.err = err
		return err
	}
	if w.block >= 0 && w.r.EventType(IDTimeHeartbeat) != nil && cycles-w.last > 0xffffffff {
		for cycles-w.last > 0xffffffff {
			c := w.last + 0xffffffff
			p := w.r.layout.appendStamp(w.hb[:0], Stamp{Cycles: c})
			w.put(IDTimeHeartbeat, c, p[:16])
		}
	}
	w.put(id, cycles, payload)
	return nil
}

// check returns the error Event reports for an event it must refuse.
func (w *Writer) check(id uint16, cycles uint64, payload []byte) error {
	et := w.r.EventType(id)
	if et == nil || id == IDBlockStart || id == IDBlockEnd {
		return errAt("event id", int(id), errUnknownEvent)
	}
	if et.union && !w.r.cfg.WriteUnions {
		return errAt(et.Def.Name, 0, errUnion)
	}
	if n := w.r.layout.sizeOf(et.Def.Type, payload); n != len(payload) {
		return errAt(et.Def.Name, len(payload), errPayload)
	}
	if headerSize+len(payload) > w.r.cfg.BlockSize-blockOverhead {
		return errAt(et.Def.Name, len(payload), errEventTooLarge)
	}
	if w.block >= 0 && cycles < w.last {
		return errAt("cycles", int(id), errCycles)
	}
	if w.block >= 0 && w.r.EventType(IDTimeHeartbeat) != nil {
		if n := (cycles - w.last) / 0xffffffff; n > MaxHeartbeats {
			return wire.NewValueError("ltt", "cycles", int(id), ErrLimit, int64(min(n, 1<<62)), MaxHeartbeats)
		}
	}
	return nil
}

// put appends an event that is known to fit in an empty block, opening
// and closing blocks as needed.
func (w *Writer) put(id uint16, cycles uint64, payload []byte) {
	bs := w.r.cfg.BlockSize
	room := bs - blockRecSize - trailerSize
	if w.block >= 0 && len(w.out)-w.block+headerSize+len(payload) > room {
		w.closeBlock()
	}
	if w.block < 0 {
		w.openBlock(cycles)
	}
	l := w.r.layout
	w.out = l.appendN(w.out, 2, uint64(id))
	w.out = l.appendN(w.out, 4, uint64(uint32(cycles)))
	w.out = append(w.out, payload...)
	w.last = cycles
}

func (w *Writer) stamp(c uint64) Stamp {
	s, ns := w.clock(c)
	return Stamp{Seconds: s, Nanoseconds: ns, Cycles: c, BlockID: w.blockID}
}

func (w *Writer) openBlock(cycles uint64) {
	l := w.r.layout
	w.block = len(w.out)
	w.out = l.appendN(w.out, 2, IDBlockStart)
	w.out = l.appendN(w.out, 4, uint64(uint32(cycles)))
	w.out = l.appendStamp(w.out, w.stamp(cycles))
	w.last = cycles
}

// closeBlock writes block_end at the last event's cycles, the zero fill
// and the v2 trailer.
func (w *Writer) closeBlock() {
	l := w.r.layout
	w.out = l.appendN(w.out, 2, IDBlockEnd)
	w.out = l.appendN(w.out, 4, uint64(uint32(w.last)))
	w.out = l.appendStamp(w.out, w.stamp(w.last))
	unused := w.r.cfg.BlockSize - trailerSize - (len(w.out) - w.block)
	for range unused {
		w.out = append(w.out, 0)
	}
	w.out = l.appendN(w.out, 4, uint64(unused))
	w.block = -1
	w.blockID++
}

// Finish ends the open block, if any, and returns the tracefile. A writer
// that received no event returns an empty file, like LTT's control files.
// If an event was refused, Finish returns nil and that first error (see
// [Writer.Event]). The writer must not be used afterwards.
func (w *Writer) Finish() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.block >= 0 {
		w.closeBlock()
	}
	return w.out, nil
}
