package dlt

// ID is a 4-byte DLT identifier (ECU, application or context id), padded
// with NUL bytes when shorter. It is a comparable value, so filters are
// plain comparisons: m.AppID() == dlt.MakeID("PROC").
type ID [4]byte

// MakeID builds an ID from up to four bytes of s; longer input is cut.
func MakeID(s string) ID {
	var id ID
	copy(id[:], s)
	return id
}

// Len is the number of bytes before the first NUL (0 to 4).
func (id ID) Len() int {
	for i, c := range id {
		if c == 0 {
			return i
		}
	}
	return len(id)
}

// String returns the identifier without its NUL padding.
func (id ID) String() string { return string(id[:id.Len()]) }

// AppendText appends the identifier without its NUL padding
// (encoding.TextAppender); it never fails.
func (id ID) AppendText(b []byte) ([]byte, error) { return append(b, id[:id.Len()]...), nil }

func idAt(b []byte) ID { return ID(b[:4]) }
