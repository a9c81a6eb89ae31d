package ltt

import "github.com/perfwire/perfwire/internal/wire"

// Version selects the block trailer and time reconstruction rules.
type Version uint8

// Format versions. The only surviving real trace is [Version1]; the
// writer produces [Version2].
const (
	// VersionAuto detects the version per block from where block_end
	// sits.
	VersionAuto Version = iota
	// Version1 (July 2003 – Aug 2004): the trailer is the distance from
	// block_end to the end of the block; event cycles count heartbeats.
	Version1
	// Version2 (Aug 2004 – 2005): the trailer counts the unused bytes
	// between block_end and the trailer.
	Version2
)

// String returns "auto", "v1" or "v2".
func (v Version) String() string {
	switch v {
	case Version1:
		return "v1"
	case Version2:
		return "v2"
	}
	return "auto"
}

// Fixed ids of the builtin events of the core facility.
const (
	IDFacilityLoad  = 0
	IDBlockStart    = 17
	IDBlockEnd      = 18
	IDTimeHeartbeat = 19
)

// Sizes of the fixed records every block holds.
const (
	headerSize    = 6               // u16 id + u32 cycles
	blockRecSize  = headerSize + 20 // block_start and block_end
	trailerSize   = 4
	blockOverhead = 2*blockRecSize + trailerSize
	maxTypeDepth  = 32
)

// Options describe the traced machine and how to read its blocks. The
// machine's fields have no default (they are what system.xml says); a
// zero MaxBlockSize means [DefaultMaxBlockSize].
type Options struct {
	// BigEndian is true for endian="BIG_ENDIAN" traces.
	BigEndian bool
	// Arch fixes the widths of medium and long values.
	Arch Arch
	// BlockSize is system.xml's ltt_block_size.
	BlockSize int
	// Version is the trailer rule; VersionAuto detects it per block.
	Version Version
	// MicroTime multiplies the nanoseconds of v1 block records by 1000:
	// the 2004 converter (and so the smp_example trace) stored
	// microseconds there. v2 blocks are never corrected.
	MicroTime bool
	// WriteUnions lets the [Writer] emit events whose payload contains a
	// union, laid out as the document describes (tag first, then the
	// selected field). No period reader decoded unions, so the core
	// profile excludes them; this reader decodes them regardless.
	WriteUnions bool
	// MaxBlockSize bounds BlockSize, since a [Tracefile] allocates one
	// block buffer; 0 means [DefaultMaxBlockSize].
	MaxBlockSize int
}

// DefaultMaxBlockSize is the largest block a [Decoder] accepts when
// [Options.MaxBlockSize] is 0.
const DefaultMaxBlockSize = 64 << 20

// Config is the former name of [Options].
//
// Deprecated: use Options.
type Config = Options

// EventType is an event definition placed at its id, with its layout
// precomputed for the reader's architecture.
type EventType struct {
	ID       uint16    // Facility.Base + index of Def in Facility.Events
	Facility *Facility // the facility that won the id
	Def      *EventDef // name and payload type
	// fixed is the payload size when constant, -1 when it must be walked.
	fixed int
	// union is set when the payload contains a union somewhere.
	union bool
}

// Name returns "facility.event".
func (e *EventType) Name() string { return e.Facility.Name + "." + e.Def.Name }

// Decoder decodes the blocks of one trace: it knows the byte order, the
// data model and which event type every id maps to. It is immutable once
// built and may be shared by any number of [Block] values and scanners.
type Decoder struct {
	cfg    Options
	layout Layout
	types  []EventType // indexed by id; Def == nil where no event exists
}

// NewDecoder places the facilities' events at their ids and precomputes
// their layouts. As in LTTV, the first facility (in the order given) whose
// range covers an id wins; the core facility is usually first. It fails
// with [ErrType] when a payload type cannot be laid out for cfg.Arch
// (undefined width, missing element, cyclic or deeper than 32 levels),
// and with the kind "ltt_block_size" when cfg.BlockSize cannot hold a block.
func NewDecoder(cfg Options, facilities ...*Facility) (*Decoder, error) {
	maxBlk := cfg.MaxBlockSize
	maxBlk = wire.Default(maxBlk, DefaultMaxBlockSize)
	switch {
	case cfg.BlockSize < blockOverhead:
		return nil, wire.NewValueError("ltt", "block size", 0, errBlockSize, int64(cfg.BlockSize), blockOverhead)
	case cfg.BlockSize > maxBlk:
		return nil, wire.NewValueError("ltt", "block size", 0, errBlockSize, int64(cfg.BlockSize), int64(maxBlk))
	}
	r := &Decoder{cfg: cfg, layout: Layout{BigEndian: cfg.BigEndian, Arch: cfg.Arch}}
	for _, f := range facilities {
		for i := range f.Events {
			id := int(f.Base) + i
			if id > 0xffff {
				return nil, errAt(f.Name, i, ErrFacility)
			}
			for len(r.types) <= id {
				r.types = append(r.types, EventType{fixed: -1})
			}
			if r.types[id].Def != nil {
				continue
			}
			d := &f.Events[i]
			fixed, err := r.layout.check(d.Type, 0)
			if err != nil {
				return nil, err
			}
			r.types[id] = EventType{ID: uint16(id), Facility: f, Def: d, fixed: fixed, union: hasUnion(d.Type, 0)}
		}
	}
	return r, nil
}

// Options returns the options the decoder was built with.
func (r *Decoder) Options() Options { return r.cfg }

// Config returns the options the decoder was built with.
//
// Deprecated: use Options.
func (r *Decoder) Config() Options { return r.cfg }

// Reader is the former name of [Decoder]: it reads no io.Reader.
//
// Deprecated: use Decoder.
type Reader = Decoder

// NewReader is the former name of [NewDecoder].
//
// Deprecated: use NewDecoder.
func NewReader(o Options, facilities ...*Facility) (*Decoder, error) {
	return NewDecoder(o, facilities...)
}

// Layout returns the byte order and data model values are decoded with.
func (r *Decoder) Layout() Layout { return r.layout }

// EventType returns the type placed at id, or nil.
func (r *Decoder) EventType(id uint16) *EventType {
	if int(id) < len(r.types) && r.types[id].Def != nil {
		return &r.types[id]
	}
	return nil
}

// check validates t for the layout and returns its constant size, or -1
// when the size depends on the data. A nil type is an empty payload.
func (l Layout) check(t *Type, depth int) (int, error) {
	if t == nil {
		return 0, nil
	}
	if depth > maxTypeDepth {
		return 0, errAt("type depth", depth, ErrType)
	}
	switch t.Kind {
	case KindInt, KindUint, KindEnum:
		if n := l.Arch.IntBytes(t.Size); n > 0 {
			return n, nil
		}
	case KindFloat:
		if n := l.Arch.FloatBytes(t.Size); n > 0 {
			return n, nil
		}
	case KindString:
		return -1, nil
	case KindArray:
		if t.Elem == nil {
			break
		}
		n, err := l.check(t.Elem, depth+1)
		if err != nil || n < 0 {
			return -1, err
		}
		total := uint64(n) * uint64(t.Count)
		if total > DefaultMaxBlockSize {
			return -1, nil // larger than any block: the walk will fail cleanly
		}
		return int(total), nil
	case KindSequence:
		if t.Elem == nil || l.Arch.IntBytes(t.Size) == 0 {
			break
		}
		_, err := l.check(t.Elem, depth+1)
		return -1, err
	case KindStruct:
		sum := 0
		for _, f := range t.Fields {
			n, err := l.check(f.Type, depth+1)
			if err != nil {
				return 0, err
			}
			if n < 0 || sum < 0 {
				sum = -1
			} else if sum += n; sum > DefaultMaxBlockSize {
				sum = -1
			}
		}
		return sum, nil
	case KindUnion:
		if l.Arch.IntBytes(t.Size) == 0 || len(t.Fields) == 0 {
			break
		}
		for _, f := range t.Fields {
			if _, err := l.check(f.Type, depth+1); err != nil {
				return 0, err
			}
		}
		return -1, nil
	}
	return 0, errAt("type "+t.Kind.String(), depth, ErrType)
}

// hasUnion reports whether t contains a union; t has passed check, so
// its depth is bounded.
func hasUnion(t *Type, depth int) bool {
	if t == nil || depth > maxTypeDepth {
		return false
	}
	if t.Kind == KindUnion || hasUnion(t.Elem, depth+1) {
		return true
	}
	for _, f := range t.Fields {
		if hasUnion(f.Type, depth+1) {
			return true
		}
	}
	return false
}
