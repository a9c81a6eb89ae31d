package mmv

import (
	"encoding/binary"
	"math"
)

// Slot is a handle on one value entry of a file being written: its
// offset and type are computed once, so every update is a bounds check,
// a load and a store, with no allocation. Get one with [Plan.Slot].
//
// Updates are plain stores, like libpcp_mmv's: pmdammv reads values
// without locks, and an aligned 8-byte store is not torn on amd64 or
// arm64. A Slot is not safe for concurrent updates from several
// goroutines (Add is a load then a store); serialise them or give each
// goroutine its own metric.
type Slot struct {
	b    []byte
	off  int
	typ  Type
	big  bool
	le64 bool   // a little-endian 64-bit integer: Add's inlinable fast path
	word []byte // the 8-byte value word, for the fast path
}

// Type returns the metric type of the slot.
func (s Slot) Type() Type { return s.typ }

// Valid reports whether s refers to a value (the zero Slot does not).
func (s Slot) Valid() bool { return s.b != nil }

func (s Slot) load() uint64 {
	if s.big {
		return binary.BigEndian.Uint64(s.b[s.off : s.off+8])
	}
	return binary.LittleEndian.Uint64(s.b[s.off : s.off+8])
}

func (s Slot) store(v uint64) {
	if s.big {
		binary.BigEndian.PutUint64(s.b[s.off:s.off+8], v)
	} else {
		binary.LittleEndian.PutUint64(s.b[s.off:s.off+8], v)
	}
}

func (s Slot) load32() uint32 {
	if s.big {
		return binary.BigEndian.Uint32(s.b[s.off : s.off+4])
	}
	return binary.LittleEndian.Uint32(s.b[s.off : s.off+4])
}

func (s Slot) store32(v uint32) {
	if s.big {
		binary.BigEndian.PutUint32(s.b[s.off:s.off+4], v)
	} else {
		binary.LittleEndian.PutUint32(s.b[s.off:s.off+4], v)
	}
}

// Add adds delta to a numeric value (a counter increment; a negative
// delta decrements). Integers wrap like C's; FLOAT and DOUBLE add the
// converted delta; ELAPSED adds microseconds to the accumulated time.
// On a STRING slot it does nothing.
func (s Slot) Add(delta int64) {
	if s.le64 {
		// The counter fast path, small enough to inline: one window, one
		// load, one store.
		binary.LittleEndian.PutUint64(s.word, binary.LittleEndian.Uint64(s.word)+uint64(delta))
		return
	}
	s.slowAdd(delta)
}

// slowAdd is Add for the slots off the counter fast path.
func (s *Slot) slowAdd(delta int64) {
	switch s.typ {
	case TypeI32, TypeU32:
		s.store32(s.load32() + uint32(delta))
	case TypeI64, TypeU64, TypeElapsed:
		s.store(s.load() + uint64(delta))
	case TypeFloat:
		s.store32(math.Float32bits(math.Float32frombits(s.load32()) + float32(delta)))
	case TypeDouble:
		s.store(math.Float64bits(math.Float64frombits(s.load()) + float64(delta)))
	}
}

// SetInt stores v converted to the slot's numeric type (truncated to 32
// bits for I32 and U32). On a STRING slot it does nothing.
func (s Slot) SetInt(v int64) {
	switch s.typ {
	case TypeI32, TypeU32:
		s.store32(uint32(v))
	case TypeI64, TypeU64, TypeElapsed:
		s.store(uint64(v))
	case TypeFloat, TypeDouble:
		s.SetFloat(float64(v))
	}
}

// SetUint stores v converted to the slot's numeric type.
func (s Slot) SetUint(v uint64) {
	switch s.typ {
	case TypeFloat, TypeDouble:
		s.SetFloat(float64(v))
	default:
		s.SetInt(int64(v))
	}
}

// SetFloat stores v in a FLOAT or DOUBLE slot, or truncated to an
// integer in the other numeric types (a gauge set).
func (s Slot) SetFloat(v float64) {
	switch s.typ {
	case TypeFloat:
		s.store32(math.Float32bits(float32(v)))
	case TypeDouble:
		s.store(math.Float64bits(v))
	case TypeString:
	default:
		s.SetInt(int64(v))
	}
}

// SetBits stores the 8-byte value word verbatim (in the file's byte
// order), whatever the type: for copying values between files, or for
// patterns such as a 32-bit writer's sentinel. On a STRING slot the
// word is unused by readers.
func (s Slot) SetBits(v uint64) { s.store(v) }

// SetString replaces a STRING value. It fails with [ErrTooLong] for
// texts of 255 bytes or more (libpcp_mmv drops those silently) and with
// a kind of code "mmv_value_type" on other slots. The update is not atomic: a reader may
// see a partly written text, as with libpcp_mmv.
func (s Slot) SetString(v string) error {
	if s.typ != TypeString {
		return errValueType
	}
	if len(v) >= StringSize-1 {
		return ErrTooLong
	}
	r := File{b: s.b, big: s.big}
	at := r.u64(s.off + 8)
	if at > uint64(len(s.b)) || uint64(len(s.b))-at < StringSize {
		return errBounds
	}
	slot := s.b[at : at+StringSize]
	slot[copy(slot, v)] = 0
	clear(slot[len(v)+1:])
	return nil
}

// Start opens an ELAPSED interval at nowMicros (microseconds since the
// Unix epoch): readers then add the time since nowMicros to the value.
// It does nothing if an interval is already open or on other types.
func (s Slot) Start(nowMicros int64) {
	if s.typ != TypeElapsed {
		return
	}
	r := File{b: s.b, big: s.big}
	if int64(r.u64(s.off+8)) < 0 {
		return
	}
	putter{b: s.b, big: s.big}.u64(s.off+8, uint64(-nowMicros))
}

// Stop closes an open ELAPSED interval at nowMicros, adding its length
// to the value. It does nothing when no interval is open.
func (s Slot) Stop(nowMicros int64) {
	if s.typ != TypeElapsed {
		return
	}
	w := putter{b: s.b, big: s.big}
	r := File{b: s.b, big: s.big}
	extra := int64(r.u64(s.off + 8))
	if extra >= 0 {
		return
	}
	s.store(s.load() + uint64(nowMicros+extra))
	w.u64(s.off+8, 0)
}

// Clear stores the "no value" pattern of files with [FlagSentinel]: all
// bits set for integers and ELAPSED, NaN for FLOAT and DOUBLE, an empty
// text for STRING.
func (s Slot) Clear() {
	switch s.typ {
	case TypeFloat:
		s.store32(math.Float32bits(float32(math.NaN())))
	case TypeDouble:
		s.store(math.Float64bits(math.NaN()))
	case TypeString:
		_ = s.SetString("")
	default:
		s.store(math.MaxUint64)
	}
}

// Slot returns the handle on the value of metric index metric (its
// position in Registry.Metrics) and instance position inst (its
// position in the indom's Instances; 0 for a singular metric) inside b,
// a buffer laid out by [Plan.Write] in byte order order.
func (p *Plan) Slot(b []byte, order binary.ByteOrder, metric, inst int) (Slot, error) {
	if metric < 0 || metric >= len(p.nval) || inst < 0 || inst >= p.nval[metric] {
		return Slot{}, ErrNoSuchEntry
	}
	if len(b) < p.size {
		return Slot{}, ErrTruncated
	}
	typ, big := p.reg.Metrics[metric].Type, isBig(order)
	off := p.values + (p.first[metric]+inst)*ValueSize
	return Slot{b: b[:p.size:p.size], off: off, typ: typ, big: big,
		le64: !big && (typ == TypeI64 || typ == TypeU64), word: b[off : off+8 : off+8]}, nil
}

// Lookup returns the position of the metric called name in
// Registry.Metrics and the position of the instance called instance in
// its indom ("" for a singular metric), for [Plan.Slot].
func (p *Plan) Lookup(name, instance string) (metric, inst int, err error) {
	for i, m := range p.reg.Metrics {
		if m.Name != name {
			continue
		}
		if p.dindex[i] < 0 {
			if instance == "" {
				return i, 0, nil
			}
			break
		}
		for k, in := range p.reg.Indoms[p.dindex[i]].Instances {
			if in.Name == instance {
				return i, k, nil
			}
		}
		break
	}
	return -1, -1, ErrNoSuchEntry
}
