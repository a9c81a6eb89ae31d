package ltt

import (
	"iter"
	"math/bits"
)

// Stamp is the payload of a block_start or block_end record: the wall
// clock and the full cycle counter when the block was opened or closed.
type Stamp struct {
	Seconds     uint32
	Nanoseconds uint32 // microseconds in v1 converter output, see Options.MicroTime
	Cycles      uint64
	BlockID     uint32
}

// Block is one block of a tracefile, checked at its two ends: it starts
// with block_start and its trailer points at block_end. It is a view of
// the caller's bytes. Walk its events with [Block.Scanner] or
// [Block.Events].
type Block struct {
	r       *Decoder
	data    []byte
	Version Version // the trailer rule that matched
	// Start and End are the payloads of block_start and block_end.
	Start Stamp
	End   Stamp
	// EndOffset is where block_end starts.
	EndOffset int
	startTSC  uint32
	base      int64 // offset of the block in its tracefile
}

// FileOffset is where the block starts in its tracefile (0 for blocks
// given to [Decoder.Block] directly). Event offsets are relative to the
// block; offsets in errors from a [Tracefile]'s blocks include this base.
func (b *Block) FileOffset() int64 { return b.base }

// rebase makes a block-relative *ParseError file-relative.
func rebase(err error, base int64) error {
	if pe, ok := err.(*ParseError); ok && base != 0 {
		pe.Offset += base
	}
	return err
}

// Block checks the records at both ends of one block (len(b) must be the
// block size) and returns a view of it. It fails with the kind "ltt_block_size" when
// b is not one block, [ErrBlockStart] when offset 0 holds no block_start,
// and [ErrBlockEnd] when no trailer rule of the configured version lands
// on a block_end with the same block id.
func (r *Decoder) Block(b []byte) (Block, error) {
	if len(b) != r.cfg.BlockSize {
		return Block{}, errAt("block", len(b), errBlockSize)
	}
	l := r.layout
	if l.uint(b, 2) != IDBlockStart {
		return Block{}, errAt("block_start", 0, ErrBlockStart)
	}
	blk := Block{r: r, data: b, startTSC: uint32(l.uint(b[2:], 4))}
	blk.Start = l.stamp(b[headerSize:])
	trailer := l.uint(b[len(b)-trailerSize:], 4)
	try := func(v Version, end uint64) bool {
		if r.cfg.Version != VersionAuto && r.cfg.Version != v {
			return false
		}
		// block_end must lie after block_start and before the trailer.
		if end < blockRecSize || end > uint64(len(b)-trailerSize-blockRecSize) {
			return false
		}
		e := int(end)
		if l.uint(b[e:], 2) != IDBlockEnd {
			return false
		}
		s := l.stamp(b[e+headerSize:])
		if s.BlockID != blk.Start.BlockID {
			return false
		}
		blk.Version, blk.End, blk.EndOffset = v, s, e
		return true
	}
	size := uint64(len(b))
	// Candidates are computed in uint64 so a hostile trailer cannot wrap.
	if trailer <= size && try(Version1, size-trailer) {
		return blk, nil
	}
	if trailer+trailerSize+blockRecSize <= size && try(Version2, size-trailerSize-blockRecSize-trailer) {
		return blk, nil
	}
	return Block{}, errAt("block trailer", len(b)-trailerSize, ErrBlockEnd)
}

func (l Layout) stamp(b []byte) Stamp {
	return Stamp{
		Seconds:     uint32(l.uint(b, 4)),
		Nanoseconds: uint32(l.uint(b[4:], 4)),
		Cycles:      l.uint(b[8:], 8),
		BlockID:     uint32(l.uint(b[16:], 4)),
	}
}

// Bytes returns the block's bytes.
func (b *Block) Bytes() []byte { return b.data }

// StartTime and EndTime are the block records' wall clock in nanoseconds
// since the Unix epoch (with Options.MicroTime applied).
func (b *Block) StartTime() int64 { return b.nanos(b.Start) }

// EndTime: see [Block.StartTime].
func (b *Block) EndTime() int64 { return b.nanos(b.End) }

func (b *Block) nanos(s Stamp) int64 {
	ns := int64(s.Nanoseconds)
	if b.r.cfg.MicroTime && b.Version == Version1 {
		ns *= 1000
	}
	return int64(s.Seconds)*1e9 + ns
}

// Event is one event of a block: where it is, its id and type, its raw
// 32-bit cycle count, the reconstructed 64-bit cycles and the
// interpolated wall clock. It is a small value; its payload aliases the
// block.
type Event struct {
	Offset int
	ID     uint16
	// TSC is the header's low 32 bits of the cycle counter.
	TSC uint32
	// Cycles is the reconstructed 64-bit cycle counter; block records
	// report the counter stored in their payload.
	Cycles uint64
	// Time is the wall clock in nanoseconds since the Unix epoch,
	// interpolated between the block records.
	Time    int64
	Type    *EventType
	payload Value
}

// Payload returns the event's payload: a struct value, or an empty one
// for events without a type.
func (e *Event) Payload() Value { return e.payload }

// Field returns the top-level payload field called name.
func (e *Event) Field(name string) (Value, bool) {
	it := e.payload.Iter()
	for it.Next() {
		if it.Name() == name {
			return it.Value(), true
		}
	}
	return Value{}, false
}

// Scanner walks the events of a block in order, block_start and block_end
// included, reconstructing cycles and time. It does not allocate.
//
//	s := blk.Scanner()
//	for s.Next() {
//		ev := s.Event()
//	}
//	if err := s.Err(); err != nil { ... }
type Scanner struct {
	b        Block
	off      int
	prev     uint32
	wraps    uint64
	beats    uint64
	ev       Event
	err      error
	done     bool
	cs, span uint64 // interpolation: first cycle, cycles per block
	ts, dt   int64  // interpolation: start time, block duration
}

// Scanner returns a scanner positioned before block_start.
func (b *Block) Scanner() Scanner {
	s := Scanner{b: *b, prev: b.startTSC, ts: b.StartTime()}
	s.dt = b.EndTime() - s.ts
	if s.dt < 0 {
		s.dt = 0
	}
	s.cs = b.Start.Cycles
	if b.Version == Version2 {
		// v2 data carries full counters; the walk starts from the low
		// half of block_start's.
		s.cs = b.Start.Cycles&^0xffffffff | uint64(b.startTSC)
	}
	if b.End.Cycles > s.cs {
		s.span = b.End.Cycles - s.cs
	}
	return s
}

// Next decodes the next event; it returns false after block_end or on an
// error. A walk that steps over block_end's offset instead of landing on
// it is an [ErrBlockEnd] error; an id without a type is the kind "ltt_unknown_event";
// a payload running into block_end is [ErrTruncated] or the kind "ltt_string".
func (s *Scanner) Next() bool {
	if s.done || s.err != nil {
		return false
	}
	b := &s.b
	r := b.r
	l := r.layout
	off := s.off
	// Events other than block_end must end before block_end starts.
	limit := b.EndOffset
	if off == b.EndOffset {
		limit = b.EndOffset + blockRecSize
		s.done = true
	}
	if off+headerSize > limit {
		s.err = rebase(errAt("event header", off, ErrBlockEnd), b.base)
		return false
	}
	id := uint16(l.uint(b.data[off:], 2))
	tsc := uint32(l.uint(b.data[off+2:], 4))
	et := r.EventType(id)
	if et == nil {
		s.err = rebase(errAt("event id", off, errUnknownEvent), b.base)
		return false
	}
	if s.done != (id == IDBlockEnd) || (off == 0) != (id == IDBlockStart) {
		// block_end inside the walk, or a block record out of place.
		s.err = rebase(errAt("event id", off, ErrBlockEnd), b.base)
		return false
	}
	p := off + headerSize
	n := et.fixed
	if n < 0 {
		n = l.sizeOf(et.Def.Type, b.data[p:limit])
		if n < 0 {
			s.err = rebase(sizeErr(n, et.Def.Name, p), b.base)
			return false
		}
	} else if p+n > limit {
		s.err = rebase(errAt(et.Def.Name, p, ErrTruncated), b.base)
		return false
	}
	s.ev = Event{Offset: off, ID: id, TSC: tsc, Type: et,
		payload: Value{typ: et.Def.Type, raw: b.data[p : p+n : p+n], off: p, layout: l}}
	switch id {
	case IDBlockStart:
		s.ev.Cycles, s.ev.Time = b.Start.Cycles, b.StartTime()
	case IDBlockEnd:
		s.ev.Cycles, s.ev.Time = b.End.Cycles, b.EndTime()
	default:
		if tsc < s.prev {
			s.wraps++
		}
		s.prev = tsc
		if id == IDTimeHeartbeat {
			s.beats++
		}
		w := s.wraps
		var c uint64
		if b.Version == Version1 {
			w = max(w, s.beats)
			c = uint64(tsc) + w<<32
		} else {
			c = b.Start.Cycles&^0xffffffff + uint64(tsc) + w<<32
		}
		s.ev.Cycles, s.ev.Time = c, s.interpolate(c)
	}
	s.off = p + n
	return true
}

// interpolate maps cycles linearly onto the block's wall clock, in
// integers with a 128-bit intermediate; cycles outside the block clamp
// to its ends.
func (s *Scanner) interpolate(c uint64) int64 {
	if s.span == 0 || c <= s.cs {
		return s.ts
	}
	d := c - s.cs
	if d >= s.span {
		return s.ts + s.dt
	}
	hi, lo := bits.Mul64(d, uint64(s.dt))
	q, _ := bits.Div64(hi, lo, s.span)
	return s.ts + int64(q)
}

// Event returns the current event.
func (s *Scanner) Event() *Event { return &s.ev }

// Offset is where the next event starts.
func (s *Scanner) Offset() int { return s.off }

// Wraps and Heartbeats count the counter wraps and heartbeat events seen
// so far in the block.
func (s *Scanner) Wraps() uint64 { return s.wraps }

// Heartbeats: see [Scanner.Wraps].
func (s *Scanner) Heartbeats() uint64 { return s.beats }

// Err returns the error that stopped the walk, or nil after block_end.
// Its offset is relative to the tracefile when the block came from a
// [Tracefile], else to the block.
func (s *Scanner) Err() error { return s.err }

// Events iterates over the block's events; the last pair carries the
// error if the walk fails. The *Event is reused between iterations. The
// iterator itself costs one allocation per call; [Block.Scanner] costs
// none.
func (b *Block) Events() iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		s := b.Scanner()
		for s.Next() {
			if !yield(s.Event(), nil) {
				return
			}
		}
		if s.err != nil {
			yield(nil, s.err)
		}
	}
}
