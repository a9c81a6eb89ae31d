package pduwire

import (
	"encoding/binary"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// pmlogger request types (LOG_REQUEST_*), control verbs and states.
const (
	LogRequestNewVolume = 1
	LogRequestStatus    = 2
	LogRequestSync      = 3

	LogMandatory = 11
	LogAdvisory  = 12
	LogEnquire   = 13

	LogStateOff   = 0
	LogStateMaybe = 1
	LogStateOn    = 2
)

// LogRequestPDU is a LOG_REQUEST PDU (0x8002) from pmlc to pmlogger.
type LogRequestPDU struct {
	Request int32 // LogRequestNewVolume, LogRequestStatus or LogRequestSync
}

// Type returns TypeLogRequest.
func (*LogRequestPDU) Type() Type { return TypeLogRequest }

// Append appends the 16-byte PDU.
func (m *LogRequestPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLogRequest, from)
	return finish(wire.AppendU32BE(b, uint32(m.Request)), start)
}

// UnmarshalBinary decodes a LOG_REQUEST PDU: len ≥ 16 ([ErrTruncated]);
// bytes after the request word are ignored, as pmlogger does.
func (m *LogRequestPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLogRequest, 16); err != nil {
		return err
	}
	m.Request = int32(be32(pdu, 12))
	return nil
}

// LogControlPDU is a LOG_CONTROL PDU (0x8000): a logging request or its
// answer, per metric and instance. Values are always 32-bit words.
type LogControlPDU struct {
	Control int32 // LogMandatory, LogAdvisory or LogEnquire
	State   int32 // LogStateOff, LogStateMaybe or LogStateOn
	Delta   int32 // logging interval in milliseconds
	Metrics []LogMetric
}

// LogMetric is one metric of a LOG_CONTROL PDU. NumVal is sent only when
// Values is empty (0 or a negative error code).
type LogMetric struct {
	PMID   pcp.ID
	NumVal int32
	Values []LogValue
}

// LogValue is an instance and its 32-bit value word.
type LogValue struct {
	Inst  int32
	Value uint32
}

// Type returns TypeLogControl.
func (*LogControlPDU) Type() Type { return TypeLogControl }

// Append appends the PDU (28 + Σ(8 + 8·numval) bytes, or 32 without
// metrics: libpcp's decoder wants at least its structure's 32 bytes).
func (m *LogControlPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLogControl, from)
	b = wire.AppendU32BE(b, uint32(m.Control))
	b = wire.AppendU32BE(b, uint32(m.State))
	b = wire.AppendU32BE(b, uint32(m.Delta))
	b = wire.AppendU32BE(b, uint32(len(m.Metrics)))
	for _, lm := range m.Metrics {
		b = wire.AppendU32BE(b, uint32(lm.PMID))
		if len(lm.Values) == 0 {
			b = wire.AppendU32BE(b, uint32(min(lm.NumVal, 0)))
			continue
		}
		b = wire.AppendU32BE(b, uint32(len(lm.Values)))
		for _, v := range lm.Values {
			b = wire.AppendU32BE(b, uint32(v.Inst))
			b = wire.AppendU32BE(b, v.Value)
		}
	}
	if len(m.Metrics) == 0 {
		b = wire.AppendU32BE(b, 0)
	}
	return finish(b, start)
}

// UnmarshalBinary decodes a LOG_CONTROL PDU: len ≥ 32 ([ErrTruncated];
// libpcp 6.0.3 checks its structure's size, 32, not the 36 a metric
// needs), 0 ≤ numpmid ≤ (len − 28)/8 ([ErrCount]), each list inside the
// PDU ([ErrTruncated], [ErrCount]) and nothing after the last
// ([ErrTrailing]) — except that without metrics the word at 28 is part of
// the 32 bytes and ignored.
func (m *LogControlPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLogControl, 32); err != nil {
		return err
	}
	m.Control, m.State, m.Delta = int32(be32(pdu, 12)), int32(be32(pdu, 16)), int32(be32(pdu, 20))
	n := int32(be32(pdu, 24))
	ms := m.Metrics[:0]
	off := 28
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	if n < 0 || uint64(n) > uint64(len(pdu)-28)/8 {
		bad = failure{"LOG_CONTROL.numpmid", 24, ErrCount}
		goto fail
	}
	for range int(n) {
		if len(pdu)-off < 8 {
			bad = failure{"LOG_CONTROL.metric", off, ErrTruncated}
			goto fail
		}
		var lm LogMetric
		if len(ms) < cap(ms) {
			lm = ms[:len(ms)+1][len(ms)]
		}
		lm.PMID, lm.NumVal = pcp.ID(be32(pdu, off)), int32(be32(pdu, off+4))
		lm.Values = lm.Values[:0]
		off += 8
		if lm.NumVal > 0 {
			if uint64(lm.NumVal) > uint64(len(pdu)-off)/8 {
				bad = failure{"LOG_CONTROL.numval", off - 4, ErrCount}
				goto fail
			}
			for range int(lm.NumVal) {
				lm.Values = append(lm.Values, LogValue{Inst: int32(be32(pdu, off)), Value: be32(pdu, off+4)})
				off += 8
			}
		}
		ms = append(ms, lm)
	}
	m.Metrics = ms
	if n == 0 {
		off = 32
	}
	if off != len(pdu) {
		bad = failure{"LOG_CONTROL", off, ErrTrailing}
		goto fail
	}
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}

// LogTime is a pmlogger timestamp.
type LogTime struct {
	Sec  int64
	Frac int32 // microseconds in LOG_STATUS_V2, nanoseconds in LOG_STATUS
}

// LogStatusV2PDU is the fixed 264-byte LOG_STATUS_V2 PDU (0x8001) of
// pmlogger control protocol 2. Strings are NUL-padded arrays.
type LogStatusV2PDU struct {
	Start, Last, Now LogTime
	State, Vol       int32
	Size             int64
	Host, FQDN       [64]byte
	PMCDTZ, LoggerTZ [40]byte
}

// Type returns TypeLogStatusV2.
func (*LogStatusV2PDU) Type() Type { return TypeLogStatusV2 }

// Append appends the 264-byte PDU.
func (m *LogStatusV2PDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLogStatusV2, from)
	b = wire.AppendU32BE(b, 0)
	for _, t := range [...]LogTime{m.Start, m.Last, m.Now} {
		b = wire.AppendU32BE(b, uint32(t.Sec))
		b = wire.AppendU32BE(b, uint32(t.Frac))
	}
	b = wire.AppendU32BE(b, uint32(m.State))
	b = wire.AppendU32BE(b, uint32(m.Vol))
	b = wire.AppendU64BE(b, uint64(m.Size))
	b = append(b, m.Host[:]...)
	b = append(b, m.FQDN[:]...)
	b = append(b, m.PMCDTZ[:]...)
	b = append(b, m.LoggerTZ[:]...)
	return finish(b, start)
}

// UnmarshalBinary decodes a LOG_STATUS_V2 PDU; len must be 264
// ([ErrLength]).
func (m *LogStatusV2PDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLogStatusV2, exactly|264); err != nil {
		return err
	}
	_ = pdu[263] // one bounds check for the copies below
	ts := [...]*LogTime{&m.Start, &m.Last, &m.Now}
	for i, t := range ts {
		t.Sec, t.Frac = int64(int32(be32(pdu, 16+8*i))), int32(be32(pdu, 20+8*i))
	}
	m.State, m.Vol = int32(be32(pdu, 40)), int32(be32(pdu, 44))
	m.Size = int64(binary.BigEndian.Uint64(pdu[48:]))
	copy(m.Host[:], pdu[56:])
	copy(m.FQDN[:], pdu[120:])
	copy(m.PMCDTZ[:], pdu[184:])
	copy(m.LoggerTZ[:], pdu[224:])
	return nil
}

// MaxLogString bounds each LOG_STATUS string (its NUL included).
const MaxLogString = 256

// LogStatusPDU is a LOG_STATUS PDU (0x8003) of pmlogger control protocol 3:
// 64-bit timestamps and six variable strings. Each timestamp's seconds
// travel as two BE32 words, the low-order word first: libpcp 6.0.3 packs
// the 64-bit value in its host's word order, and every pmlogger on a
// little-endian host (bytes made by __pmSendLogStatus, fuzz/RESULTS.md
// F3) sends them so.
type LogStatusPDU struct {
	Start, Last, Now LogTime // Frac in nanoseconds
	State, Vol       int32
	Size             int64
	// Strings are pmcd host, fqdn, timezone, zoneinfo, pmlogger timezone
	// and zoneinfo, each as sent (with its NUL).
	Strings [6][]byte
}

// Type returns TypeLogStatus.
func (*LogStatusPDU) Type() Type { return TypeLogStatus }

// Append appends the PDU: the 88-byte fixed part, the strings back to
// back, and one pad to a multiple of 4.
func (m *LogStatusPDU) Append(b []byte, from int32) []byte {
	b, start := begin(b, TypeLogStatus, from)
	for _, t := range [...]LogTime{m.Start, m.Last, m.Now} {
		b = appendLogSec(b, t.Sec)
		b = wire.AppendU32BE(b, uint32(t.Frac))
	}
	b = wire.AppendU32BE(b, uint32(m.State))
	b = wire.AppendU32BE(b, uint32(m.Vol))
	b = wire.AppendU64BE(b, uint64(m.Size))
	for _, s := range m.Strings {
		b = wire.AppendU32BE(b, uint32(len(s)))
	}
	for _, s := range m.Strings {
		b = append(b, s...)
	}
	return finish(wire.AppendPad4(b, start), start)
}

// UnmarshalBinary decodes a LOG_STATUS PDU: len ≥ 88 ([ErrTruncated])
// before anything is read, each string length in 0…256 ([ErrCount]) and
// every string inside the PDU ([ErrTruncated]).
func (m *LogStatusPDU) UnmarshalBinary(pdu []byte) error {
	if err := head(pdu, TypeLogStatus, 88); err != nil {
		return err
	}
	ts := [...]*LogTime{&m.Start, &m.Last, &m.Now}
	for i, t := range ts {
		// Seconds: low word, then high.
		t.Sec, t.Frac = int64(uint64(be32(pdu, 16+12*i))<<32|uint64(be32(pdu, 12+12*i))), int32(be32(pdu, 20+12*i))
	}
	m.State, m.Vol = int32(be32(pdu, 48)), int32(be32(pdu, 52))
	m.Size = int64(binary.BigEndian.Uint64(pdu[56:]))
	off := 88
	// Every failure goes to one fail call: each call and its return is
	// code (module size; see wasm/size).
	var bad failure
	for i := range m.Strings {
		n := int32(be32(pdu, 64+4*i))
		if n < 0 || n > MaxLogString {
			bad = failure{"LOG_STATUS.strlen", 64 + 4*i, ErrCount}
			goto fail
		}
		if int(n) > len(pdu)-off {
			bad = failure{"LOG_STATUS.string", off, ErrTruncated}
			goto fail
		}
		m.Strings[i] = pdu[off : off+int(n) : off+int(n)]
		off += int(n)
	}
	if len(pdu)-off > 3 {
		bad = failure{"LOG_STATUS", off, ErrTrailing}
		goto fail
	}
	return nil
fail:
	return fail(bad.field, bad.off, bad.kind)
}

// appendLogSec appends a LOG_STATUS seconds field: low word, then high.
func appendLogSec(b []byte, sec int64) []byte {
	return wire.AppendU32BE(wire.AppendU32BE(b, uint32(sec)), uint32(uint64(sec)>>32))
}
