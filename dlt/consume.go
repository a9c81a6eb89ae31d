package dlt

import "github.com/perfwire/perfwire/internal/wire"

// Framing says what precedes each message in the input.
type Framing uint8

// Framings.
const (
	// FramingStorage: a 16-byte storage header before every message, as in
	// .dlt files written by dlt-receive, dlt-viewer or the daemon's
	// offline trace. The zero value, so Options{} reads files.
	FramingStorage Framing = iota
	// FramingSerial: "DLS\x01" before every message (serial lines, or the
	// daemon's TCP port with SendSerialHeader=1).
	FramingSerial
	// FramingBare: messages back to back, delimited by LEN only (the
	// daemon's TCP port by default, UDP).
	FramingBare
)

// Options configure [NewScanner] and [ConsumeMessage]. The zero value
// reads .dlt files with resynchronisation and no limit below the
// protocol's own.
type Options struct {
	_       [0]func() // not comparable: no equality function in the wasm build
	Framing Framing
	// NoResync makes the scanner stop at the first corrupt record with
	// its error instead of searching forward for the next valid one.
	NoResync bool
	// MaxMessageLen rejects messages whose LEN is larger (ErrLimit);
	// 0 means [MaxMessageLen], the protocol's maximum.
	MaxMessageLen int
}

// ConsumeMessage decodes the record at the start of b: its storage or
// serial header (per opt.Framing), the standard header and the extended
// header. It returns the message view and the record's size in bytes.
//
// It fails with a [ParseError] whose Err is [ErrTruncated] when b holds
// only part of the record (a stream reader should read more and retry),
// [ErrMagic] or [ErrVersion] for a wrong header pattern
// or version, [ErrLength] when LEN is smaller than the headers, and
// [ErrLimit] when LEN exceeds opt.MaxMessageLen. Offsets count from b[0].
// The payload is not decoded; see [Message.Args].
func ConsumeMessage(b []byte, opt Options) (Message, int, error) {
	return consume(b, 0, opt)
}

// consume decodes the record at b[at:]; error offsets are absolute in b.
func consume(b []byte, at int, opt Options) (Message, int, error) {
	rest := b[at:]
	var std int
	// Its failures end in one errAt call (field, off and kind), but the
	// limit's.
	field, off := "", at
	var kind error
	maxLen := wire.Default(opt.MaxMessageLen, MaxMessageLen)
	n := 0
	switch { // a block to break out of to fail
	default:
		if opt.Framing == FramingStorage || opt.Framing == FramingSerial {
			pattern, name := storagePattern, "storage header"
			if std = StorageHeaderLen; opt.Framing == FramingSerial {
				pattern, name, std = serialPattern, "serial header", SerialHeaderLen
			}
			// The available prefix of rest against the pattern, so that a
			// short but matching prefix reads as truncated (below), not
			// corrupt.
			for i := range min(len(rest), 4) {
				if rest[i] != pattern[i] {
					field, off, kind = name, at+i, ErrMagic
					if i == 3 && pattern == storagePattern && rest[3] == 2 {
						kind = ErrVersion
					}
					break
				}
			}
			if kind != nil {
				break
			}
			if len(rest) < std {
				field, kind = name, ErrTruncated
				break
			}
		}
		if len(rest) < std+4 {
			field, off, kind = "standard header", at+std, ErrTruncated
			break
		}
		htyp := rest[std]
		if htyp>>5 != 1 {
			field, off, kind = "HTYP version", at+std, ErrVersion
			break
		}
		n = int(be16(rest[std+2:]))
		hlen := 4
		for f := uint8(HTYPWithECU); f <= HTYPWithTime; f <<= 1 {
			if htyp&f != 0 {
				hlen += 4
			}
		}
		ext := 0
		if htyp&HTYPExtended != 0 {
			ext = std + hlen
			hlen += ExtendedHeaderLen
		}
		field, off = "LEN", at+std+2
		if n < hlen {
			kind = ErrLength
			break
		}
		if n > maxLen {
			return Message{}, 0, wire.NewValueError("dlt", field, off, ErrLimit, int64(n), int64(maxLen))
		}
		size := std + n
		if len(rest) < size {
			field, off, kind = "message", at, ErrTruncated
			break
		}
		return Message{
			rec:    rest[:size:size],
			base:   at,
			std:    uint8(std),
			ext:    uint8(ext),
			pay:    uint8(std + hlen),
			stored: opt.Framing == FramingStorage,
		}, size, nil
	}
	return Message{}, 0, errAt(field, off, kind)
}
