package archive

import (
	"bytes"
	"encoding/binary"
)

// Magic is PM_LOG_MAGIC; a label's magic word is Magic | version.
const Magic = 0x50052600

// The label record's sizes, framing included (docs/pcp-archive.md §3).
const (
	labelLenV2 = 132
	labelLenV3 = 808
)

// Label volume numbers of the two files that are not data volumes.
const (
	VolMeta  = -1
	VolIndex = -2
)

// Label is the label record that starts every file of an archive. All of
// an archive's labels are equal except Vol.
type Label struct {
	Version  int       // 2 or 3
	PID      int32     // pmlogger's process ID
	Start    Timestamp // when the recording began
	Vol      int32     // VolMeta, VolIndex, or the data volume's number
	Features uint32    // v3 only: feature bits (bit 31 is PCP's QA bit)
	Hostname string    // the host the metrics came from
	TZ       string    // its $TZ, e.g. "UTC" or "AEDT-11"
	Zoneinfo string    // v3 only: its zoneinfo name, e.g. ":Etc/UTC"
}

// ParseLabel decodes the label record at the start of b, the first bytes
// of an archive file; it returns the label and the record's length.
// Failures: ErrTruncated, ErrMagic, ErrVersion, ErrLength, errFrame.
func ParseLabel(b []byte) (Label, int, error) {
	// Every failure returns through one return (with the two truncations
	// one fail call): each return of a zero Label is code (module size;
	// see wasm/size).
	var (
		l     Label
		want  int
		magic uint32
		err   error
		at    = [4]int{20, 24, 88, 128} // v2: vol, hostname, tz, end of tz
	)
	if len(b) < 8 {
		goto truncated
	}
	magic = be32(b, 4)
	if magic&^0xff != Magic {
		err = fail("", "label.magic", 4, ErrMagic)
		goto bad
	}
	l.Version = int(magic & 0xff)
	switch l.Version {
	case 2:
		want = labelLenV2
	case 3:
		want = labelLenV3
	default:
		err = failValue("", "label.version", 7, ErrVersion, int64(l.Version), 3)
		goto bad
	}
	if n := be32(b, 0); n != uint32(want) {
		err = failValue("", "label.len", 0, ErrLength, int64(n), int64(want))
		goto bad
	}
	if len(b) < want {
		goto truncated
	}
	if be32(b, want-4) != uint32(want) {
		err = fail("", "label.trailer", int64(want-4), errFrame)
		goto bad
	}
	l.PID = int32(be32(b, 8))
	l.Start = readStamp(b, 12, l.Version)
	if l.Version == 3 {
		l.Features = be32(b, 28)
		l.Zoneinfo = cstring(b[548:804])
		at = [4]int{24, 36, 292, 548}
	}
	l.Vol = int32(be32(b, at[0]))
	l.Hostname = cstring(b[at[1]:at[2]])
	l.TZ = cstring(b[at[2]:at[3]])
	return l, want, nil
truncated:
	err = fail("", "label", int64(len(b)), ErrTruncated)
bad:
	return Label{}, 0, err
}

// cstring returns the text before the first NUL of a fixed-size field.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// AppendLabel appends l's label record, framing included. Strings longer
// than their field are cut to fit with room for the NUL.
func AppendLabel(dst []byte, l Label) []byte {
	n := labelLenV2
	if l.Version == 3 {
		n = labelLenV3
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(n))
	dst = binary.BigEndian.AppendUint32(dst, Magic|uint32(l.Version))
	dst = binary.BigEndian.AppendUint32(dst, uint32(l.PID))
	dst = appendStamp(dst, l.Start, l.Version)
	dst = binary.BigEndian.AppendUint32(dst, uint32(l.Vol))
	if l.Version == 3 {
		dst = binary.BigEndian.AppendUint32(dst, l.Features)
		dst = binary.BigEndian.AppendUint32(dst, 0)
		dst = appendField(dst, l.Hostname, 256)
		dst = appendField(dst, l.TZ, 256)
		dst = appendField(dst, l.Zoneinfo, 256)
	} else {
		dst = appendField(dst, l.Hostname, 64)
		dst = appendField(dst, l.TZ, 40)
	}
	return binary.BigEndian.AppendUint32(dst, uint32(n))
}

// appendField appends s NUL-padded to n bytes.
func appendField(dst []byte, s string, n int) []byte {
	if len(s) > n-1 {
		s = s[:n-1]
	}
	dst = append(dst, s...)
	for i := len(s); i < n; i++ {
		dst = append(dst, 0)
	}
	return dst
}

// sameArchive reports whether two labels belong to the same recording
// (every field but Vol equal), as libpcp checks each volume it opens.
func sameArchive(a, b Label) bool {
	a.Vol, b.Vol = 0, 0
	return a == b
}
