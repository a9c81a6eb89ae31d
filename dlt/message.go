package dlt

import "encoding/binary"

// Message is a view of one DLT record: the optional storage or serial
// header, the standard header, the optional extended header and the
// payload. It aliases the scanned buffer and is valid until that buffer is
// modified or reused; [Message.Clone] makes an independent copy. Its
// header accessors cannot fail: [ConsumeMessage] and the [Scanner] only
// return messages whose headers were validated. The zero Message (what
// iterators pair with an error) is empty: every accessor returns zero.
type Message struct {
	rec    []byte // whole record, capacity-trimmed
	base   int    // offset of rec in the scanner's input, for error offsets
	std    uint8  // offset of the standard header in rec
	ext    uint8  // offset of the extended header, 0 if absent
	pay    uint8  // offset of the payload
	stored bool   // rec starts with a storage header
}

// Bytes returns the whole record as it appeared in the input, including
// the storage or serial header.
func (m Message) Bytes() []byte { return m.rec }

// Offset is the record's byte offset in the scanned input.
func (m Message) Offset() int { return m.base }

// Clone returns a copy whose views no longer alias the input.
func (m Message) Clone() Message {
	m.rec = append([]byte(nil), m.rec...)
	return m
}

// HasStorageHeader reports whether the record began with a storage header.
func (m Message) HasStorageHeader() bool { return m.stored }

// StorageHeader returns the storage header, or the zero value when the
// record had none.
func (m Message) StorageHeader() StorageHeader {
	if !m.stored {
		return StorageHeader{}
	}
	return StorageHeader{
		Seconds:      le32(m.rec[4:]),
		Microseconds: int32(le32(m.rec[8:])),
		ECU:          idAt(m.rec[12:]),
	}
}

// HeaderType is the HTYP byte (see the HTYP* constants).
func (m Message) HeaderType() uint8 {
	if len(m.rec) == 0 {
		return 0
	}
	return m.rec[m.std]
}

// Version is the protocol version from HTYP (always 1 for a returned message).
func (m Message) Version() uint8 { return m.HeaderType() >> 5 }

// Order reports the payload's byte order, the MSBF flag: binary.BigEndian
// when set, else binary.LittleEndian, for payload integers (type infos,
// lengths, values, message ids).
func (m Message) Order() binary.ByteOrder { return orderOf(m.big()) }

// big reports the MSBF flag.
func (m Message) big() bool { return m.HeaderType()&HTYPBigEndian != 0 }

// Counter is the MCNT message counter.
func (m Message) Counter() uint8 {
	if len(m.rec) == 0 {
		return 0
	}
	return m.rec[m.std+1]
}

// Len is the standard header's LEN: standard header to end of payload.
func (m Message) Len() int {
	if len(m.rec) == 0 {
		return 0
	}
	return int(be16(m.rec[m.std+2:]))
}

// HeaderECU returns the ECU id carried in the standard header (WEID).
func (m Message) HeaderECU() (ID, bool) {
	if m.HeaderType()&HTYPWithECU == 0 {
		return ID{}, false
	}
	return idAt(m.rec[m.std+4:]), true
}

// ECU returns the message's ECU id as dlt-convert shows it: from the
// standard header if present, else from the storage header, else zero.
func (m Message) ECU() ID {
	if id, ok := m.HeaderECU(); ok {
		return id
	}
	if m.stored {
		return idAt(m.rec[12:])
	}
	return ID{}
}

// extraOff returns the offset of the optional field selected by flag,
// which exists only if the flag is set; the extras come in the order
// ECU, session id, timestamp.
func (m Message) extraOff(flag uint8) (int, bool) {
	h := m.HeaderType()
	if h&flag == 0 {
		return 0, false
	}
	off := int(m.std) + 4
	for f := uint8(HTYPWithECU); f < flag; f <<= 1 {
		if h&f != 0 {
			off += 4
		}
	}
	return off, true
}

// SessionID returns the session id (WSID), big-endian on the wire.
func (m Message) SessionID() (uint32, bool) {
	off, ok := m.extraOff(HTYPWithSID)
	if !ok {
		return 0, false
	}
	return be32(m.rec[off:]), true
}

// Timestamp returns the timestamp (WTMS) in units of 0.1 ms since the ECU
// started.
func (m Message) Timestamp() (uint32, bool) {
	off, ok := m.extraOff(HTYPWithTime)
	if !ok {
		return 0, false
	}
	return be32(m.rec[off:]), true
}

// HasExtendedHeader reports the UEH flag.
func (m Message) HasExtendedHeader() bool { return m.ext != 0 }

// Verbose reports whether the payload is a list of typed arguments. A
// message without extended header is non-verbose.
func (m Message) Verbose() bool { return m.ext != 0 && m.rec[m.ext]&msinVerbose != 0 }

// Type is the MSTP field, or [TypeLog] without extended header; check
// [Message.HasExtendedHeader] when the difference matters.
func (m Message) Type() MessageType {
	if m.ext == 0 {
		return TypeLog
	}
	return MessageType(m.rec[m.ext] & msinTypeMask >> msinTypeShift)
}

// Subtype is the MTIN field: the log level for [TypeLog], the control
// kind for [TypeControl]; 0 without extended header.
func (m Message) Subtype() uint8 {
	if m.ext == 0 {
		return 0
	}
	return m.rec[m.ext] >> msinInfoShift
}

// NumArgs is the NOAR field (0 without extended header). It is what the
// sender claims; the argument scanner checks it against the payload.
func (m Message) NumArgs() int {
	if m.ext == 0 {
		return 0
	}
	return int(m.rec[m.ext+1])
}

// IDs returns ECU, AppID and ContextID in one call, kept out of line at
// each place that reads them all (module size; see wasm/size).
//
//go:noinline
func (m Message) IDs() (ecu, app, ctx ID) {
	return m.ECU(), m.AppID(), m.ContextID()
}

// AppID returns the APID (zero without extended header).
func (m Message) AppID() ID {
	if m.ext == 0 {
		return ID{}
	}
	return idAt(m.rec[m.ext+2:])
}

// ContextID returns the CTID (zero without extended header).
func (m Message) ContextID() ID {
	if m.ext == 0 {
		return ID{}
	}
	return idAt(m.rec[m.ext+6:])
}

// Payload returns the bytes after the headers.
func (m Message) Payload() []byte { return m.rec[m.pay:] }

// PayloadOffset is the payload's byte offset in the scanned input.
func (m Message) PayloadOffset() int { return m.base + int(m.pay) }

// MessageID returns the leading 32-bit message id of a non-verbose
// message (the service id of a control message), in payload byte order.
// ok is false for verbose messages and payloads shorter than 4 bytes.
func (m Message) MessageID() (id uint32, ok bool) {
	p := m.Payload()
	if m.Verbose() || len(p) < 4 {
		return 0, false
	}
	if m.big() {
		return be32(p), true
	}
	return le32(p), true
}

// NonVerboseData returns the payload after the message id of a
// non-verbose message; nil when [Message.MessageID] is not ok.
func (m Message) NonVerboseData() []byte {
	if _, ok := m.MessageID(); !ok {
		return nil
	}
	return m.Payload()[4:]
}
