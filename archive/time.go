package archive

import (
	"encoding/binary"
	"time"
)

// Timestamp is a time in an archive: seconds since the epoch and
// nanoseconds (version 2 stores microseconds; they are scaled up).
type Timestamp struct {
	Sec  int64
	Nsec int32
}

// Time returns t as a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.Unix(t.Sec, int64(t.Nsec)).UTC() }

// Before reports whether t is earlier than u.
func (t Timestamp) Before(u Timestamp) bool {
	return t.Sec < u.Sec || t.Sec == u.Sec && t.Nsec < u.Nsec
}

// Sub returns t − u in nanoseconds (saturating far outside ±292 years is
// not needed: archive times are within a few centuries of the epoch).
func (t Timestamp) Sub(u Timestamp) int64 {
	return (t.Sec-u.Sec)*1e9 + int64(t.Nsec-u.Nsec)
}

// TimestampOf converts a time.Time.
func TimestampOf(t time.Time) Timestamp {
	return Timestamp{Sec: t.Unix(), Nsec: int32(t.Nanosecond())}
}

// stampSize is a timestamp's size on disk: sec+usec in v2, sec(8)+nsec in v3.
func stampSize(v int) int {
	if v == 3 {
		return 12
	}
	return 8
}

// readStamp reads the timestamp at off in version v's layout.
func readStamp(b []byte, off, v int) Timestamp {
	if v == 3 {
		// A version 3 seconds field: two big-endian words, the low word
		// first (docs/pcp-archive.md §2), unlike the v3 offsets.
		return Timestamp{Sec: int64(uint64(be32(b, off)) | uint64(be32(b, off+4))<<32), Nsec: int32(be32(b, off+8))}
	}
	return Timestamp{Sec: int64(int32(be32(b, off))), Nsec: int32(be32(b, off+4)) * 1000}
}

// appendStamp appends t in version v's layout.
func appendStamp(b []byte, t Timestamp, v int) []byte {
	if v == 3 {
		b = binary.BigEndian.AppendUint32(b, uint32(t.Sec))
		b = binary.BigEndian.AppendUint32(b, uint32(uint64(t.Sec)>>32))
		return binary.BigEndian.AppendUint32(b, uint32(t.Nsec))
	}
	b = binary.BigEndian.AppendUint32(b, uint32(t.Sec))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nsec/1000))
}
