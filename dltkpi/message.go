package dltkpi

import (
	"encoding/binary"
	"iter"

	"github.com/perfwire/perfwire/internal/wire"
)

// DefaultMaxArguments bounds the arguments of one message. NOAR is 8 bits,
// but it wraps when dlt-kpi runs with a large DLT_LOG_MSG_BUF_LEN (docs/dlt-kpi.md
// §5.5), so the payload, not NOAR, decides; 4096 covers a 64 KiB payload
// of STP datasets.
const DefaultMaxArguments = 4096

// DLT type-info bits a KPI argument may carry: STRG (0x200), VARI (0x800)
// and the string coding SCOD (0x38000). Anything else is not a string.
const (
	tiString    = 0x200
	tiVari      = 0x800
	tiAllowed   = tiString | tiVari | 0x38000
	argOverhead = 4 + 2 // type info + length
)

// Parser holds the options of a parse. The zero value parses
// little-endian payloads (every dlt-kpi capture: MSBF = 0) with
// DefaultMaxArguments.
type Parser struct {
	_ [0]func() // not comparable: no equality function in the wasm build
	// Order is the byte order of the type-info words and lengths in the
	// payload: the DLT standard header's MSBF flag, as dlt.Message.Order
	// reports it. Nil means little-endian.
	Order binary.ByteOrder
	// MaxArguments bounds the arguments per message; 0 means
	// DefaultMaxArguments.
	MaxArguments int
}

// Message is one parsed KPI message: a view over the verbose payload
// given to Parse, valid as long as those bytes are. Datasets are decoded
// lazily by All or Scanner; Parse has already checked the framing of
// every argument, so iteration can only report malformed datasets.
type Message struct {
	Kind Kind // the identifier (first argument)
	Sync Sync // SyncBegin or SyncEnd for the 2-argument markers

	// Arguments counts every argument, the identifier included.
	Arguments int
	// Datasets counts the dataset arguments that do not end in the
	// truncation marker; Fragments counts those that do (docs/dlt-kpi.md §5.1).
	Datasets, Fragments int
	// Bytes is the total length of the dataset arguments' text.
	Bytes int

	payload   []byte
	first     int // offset of the first dataset argument
	bigEndian bool
}

// Parse parses the verbose payload of one little-endian KPI message: a
// list of DLT string arguments whose first is the identifier. It is
// Parser{}.Parse.
func Parse(payload []byte) (Message, error) { return Parser{}.Parse(payload) }

// Parse parses one KPI message from the verbose payload of a DLT
// message (what a viewer plugin receives). It fails with a *ParseError
// holding the payload offset and the kind: [ErrCount] for a payload
// without arguments (field "argument") or with the identifier alone
// ("dataset"), [ErrTruncated], [ErrType] for an argument that is not a
// string ("argument") or an unknown identifier ("identifier"), [ErrLimit]
// for more than MaxArguments arguments (with the count and the limit); a
// dataset that does not match its grammar does not fail the message.
// A message that is only the identifier plus fragments is valid
// (Datasets 0, Fragments > 0): dlt-kpi sends those when it floods.
// Parse does not allocate.
func (p Parser) Parse(payload []byte) (Message, error) {
	be := isBig(p.Order)
	m := Message{payload: payload, bigEndian: be}
	maxArgs := p.MaxArguments
	maxArgs = wire.Default(maxArgs, DefaultMaxArguments)
	if len(payload) == 0 {
		return Message{}, newError("argument", 0, ErrCount)
	}
	first, off, err := nextArg(payload, 0, be)
	if err != nil {
		return Message{}, newError("argument", off, err)
	}
	m.Kind = kindOf(first)
	if m.Kind == KindNone {
		return Message{}, newError("identifier", 0, ErrType)
	}
	m.first = off
	// The loop only frames and counts; locals stay in registers.
	args, frags, text := 1, 0, 0
	for off < len(payload) {
		var (
			n, next int
			frag    bool
		)
		// Only the text's length and end are needed, not its slice.
		if h := payload[off:]; !be {
			if end := plainEnd(h); end != 0 {
				n, next = end-argOverhead-1, off+end
				frag = IsFragment(h[argOverhead : end-1])
			}
		}
		if next == 0 {
			s, nx, err := nextArg(payload, off, be)
			if err != nil {
				return Message{}, newError("argument", nx, err)
			}
			n, next, frag = len(s), nx, IsFragment(s)
		}
		if args++; args > maxArgs {
			return Message{}, wire.NewValueError(format, "argument", off, ErrLimit, int64(args), int64(maxArgs))
		}
		if frag {
			frags++
		}
		text += n
		off = next
	}
	if args == 1 {
		return Message{}, newError("dataset", off, ErrCount)
	}
	m.Arguments, m.Datasets, m.Fragments, m.Bytes = args, args-1-frags, frags, text
	if args == 2 {
		s, _, _ := nextArg(payload, m.first, be) // framed above
		switch string(s) {
		case "BEG":
			m.Sync = SyncBegin
		case "END":
			m.Sync = SyncEnd
		}
		if m.Sync != SyncNone {
			m.Datasets, m.Bytes = 0, 0
		}
	}
	return m, nil
}

// nextArg decodes the string argument at off and returns its bytes
// (without the terminating NUL) and the offset after it. On failure it
// returns the offset of the bad field and an error kind.
func nextArg(p []byte, off int, be bool) ([]byte, int, error) {
	if uint64(len(p)-off) < argOverhead {
		return nil, off, ErrTruncated
	}
	var ti uint32
	var n int
	if be {
		ti = binary.BigEndian.Uint32(p[off:])
		n = int(binary.BigEndian.Uint16(p[off+4:]))
	} else {
		ti = binary.LittleEndian.Uint32(p[off:])
		n = int(binary.LittleEndian.Uint16(p[off+4:]))
	}
	if ti&tiString == 0 || ti&^tiAllowed != 0 {
		return nil, off, ErrType
	}
	off += argOverhead
	if ti&tiVari != 0 {
		// VARI strings carry a name: its length, then (after the value
		// length) its bytes. dlt-kpi never sets it; skip the name.
		if len(p)-off < 2 {
			return nil, off, ErrTruncated
		}
		nameLen := int(byteOrder(be).Uint16(p[off:]))
		off += 2
		if nameLen > len(p)-off {
			return nil, off, ErrTruncated
		}
		off += nameLen
	}
	if n > len(p)-off {
		return nil, off - 2, ErrTruncated
	}
	s := p[off : off+n : off+n]
	if n > 0 && s[n-1] == 0 {
		s = s[: n-1 : n-1]
	}
	return s, off + n, nil
}

// probe tells a binary.ByteOrder's direction without allocating.
var probe = [2]byte{0, 1}

// isBig reports whether order is big-endian; nil means little-endian.
func isBig(order binary.ByteOrder) bool { return order != nil && order.Uint16(probe[:]) == 1 }

func byteOrder(be bool) binary.ByteOrder {
	if be {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// Args yields every argument's bytes, the identifier first, fragments
// included, as views into the payload (what dlt-convert -a prints between
// its brackets, joined by spaces).
func (m Message) Args() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for off := 0; off < len(m.payload); {
			s, next, err := nextArg(m.payload, off, m.bigEndian)
			if err != nil || !yield(s) {
				return
			}
			off = next
		}
	}
}

// Payload returns the payload the message was parsed from.
func (m Message) Payload() []byte { return m.payload }

// Scanner returns a scanner over the message's datasets, for hot loops.
// Sync messages have none.
func (m Message) Scanner() DatasetScanner {
	s := DatasetScanner{kind: m.Kind, payload: m.payload, off: m.first, bigEndian: m.bigEndian}
	if m.Sync != SyncNone {
		s.off = len(m.payload)
	}
	return s
}

// All yields each dataset argument in order with nil, or with the
// *ParseError (ErrSyntax, ErrRange) that made it malformed; iteration
// continues after a malformed dataset. Fragments are yielded with
// Truncated set and no error.
func (m Message) All() iter.Seq2[Dataset, error] {
	return func(yield func(Dataset, error) bool) {
		s := m.Scanner()
		for s.Next() {
			if !yield(s.d, s.err) {
				return
			}
		}
	}
}

// DatasetScanner walks a message's datasets:
//
//	s := m.Scanner()
//	for s.Next() {
//		d, err := s.Dataset()
//		...
//	}
//
// It is a small value; copying it snapshots the position.
type DatasetScanner struct {
	kind      Kind
	payload   []byte
	off       int
	bigEndian bool
	d         Dataset
	err       error
}

// Next decodes the next dataset and reports whether there was one.
func (s *DatasetScanner) Next() bool { return s.nextInto(&s.d) }

// nextInto is Next decoding into d instead of the scanner's own dataset:
// the reassembler's event, which it need not copy then.
func (s *DatasetScanner) nextInto(d *Dataset) bool {
	if s.off >= len(s.payload) {
		return false
	}
	// Parse has validated every argument; the common case (a plain string
	// with its NUL) is read directly, anything else by nextArg.
	p, off := s.payload, s.off
	var arg []byte
	next := 0
	if h := p[off:]; !s.bigEndian {
		if end := plainEnd(h); end != 0 {
			arg, next = h[argOverhead:end-1:end-1], off+end
		}
	}
	if next == 0 {
		var err error
		if arg, next, err = nextArg(p, off, s.bigEndian); err != nil {
			s.off = len(p) // cannot happen after Parse; stop rather than loop
			return false
		}
	}
	s.err = d.parse(s.kind, arg)
	if s.err != nil {
		if pe, ok := s.err.(*ParseError); ok {
			start := next - len(arg)
			if p[next-1] == 0 {
				start-- // the terminating NUL follows the text
			}
			pe.Offset += int64(start)
		}
	}
	s.off = next
	return true
}

// Dataset returns the dataset Next decoded and, if it is malformed, the
// error (ErrSyntax or ErrRange in a *ParseError whose offset counts from
// the start of the payload). The Dataset belongs to the scanner and is
// overwritten by the next call to Next; copy *d to keep it. A pointer,
// because copying the 144-byte struct out right after Next wrote it
// costs more than decoding an ACT dataset (bench/RESULTS.md).
func (s *DatasetScanner) Dataset() (*Dataset, error) { return &s.d, s.err }

// Clone returns a copy of m whose payload no longer aliases the caller's
// buffer.
func (m Message) Clone() Message {
	m.payload = append([]byte(nil), m.payload...)
	return m
}
