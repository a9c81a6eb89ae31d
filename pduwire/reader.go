package pduwire

import (
	"errors"
	"io"
)

// readChunk bounds how much buffer a Reader adds ahead of bytes actually
// received, so that a len near the limit announced by a peer that then
// stalls costs at most this much memory.
const readChunk = 64 << 10

// Reader reads whole PDUs from a byte stream such as a TCP connection.
// Partial reads are normal; a PDU may begin at any offset. Each header is
// validated (12 ≤ len ≤ limit, type ≥ 0) before any body byte is read,
// and the buffer grows only as body bytes arrive. Deadlines are the
// caller's business (set them on the connection).
type Reader struct {
	r     io.Reader
	limit uint32
	buf   []byte
	off   int64
}

// NewReader returns a Reader on r with the given ceiling; limit ≤ 0
// selects [DefaultClientLimit]. Servers should pass [DefaultServerLimit].
func NewReader(r io.Reader, limit int) *Reader {
	return &Reader{r: r, limit: clampLimit(limit, DefaultClientLimit)}
}

// Offset returns the number of stream bytes consumed by complete PDUs.
func (r *Reader) Offset() int64 { return r.off }

// Next reads one PDU. Its Bytes are valid until the next call. At an
// orderly end of stream (no byte of a new PDU) it returns io.EOF. A stream
// that ends inside a PDU yields [ErrTruncated]; framing failures yield
// [ErrHeaderLen], [ErrLimit] or [ErrType] as a [*ParseError] with the
// stream offset. Other read errors are returned as they are.
func (r *Reader) Next() (PDU, error) {
	if cap(r.buf) < HeaderLen {
		r.buf = make([]byte, HeaderLen, 512)
	}
	hdr := r.buf[:HeaderLen]
	if n, err := r.readFull(hdr); err != nil {
		if n == 0 && err == io.EOF {
			return PDU{}, io.EOF
		}
		return PDU{}, r.readErr("header", err)
	}
	h, err := checkFrame(hdr, r.off, r.limit)
	if err != nil {
		return PDU{}, err
	}
	n := int(h.Len)
	buf := r.buf[:HeaderLen]
	for len(buf) < n {
		want := min(n-len(buf), max(cap(buf)-len(buf), readChunk))
		if cap(buf)-len(buf) < want {
			grown := make([]byte, len(buf), len(buf)+want)
			copy(grown, buf)
			buf = grown
		}
		chunk := buf[len(buf) : len(buf)+want]
		if _, err := r.readFull(chunk); err != nil {
			r.buf = buf
			return PDU{}, r.readErr("body", err)
		}
		buf = buf[:len(buf)+want]
	}
	r.buf = buf
	p := PDU{Offset: r.off, Header: h, Bytes: buf[:n:n]}
	r.off += int64(n)
	return p, nil
}

// maxEmptyReads is how many (0, nil) reads in a row readFull tolerates, as
// bufio does: a source that never makes progress must not hold Next.
const maxEmptyReads = 100

// readFull is io.ReadFull, except that a run of empty reads ends with
// io.ErrNoProgress instead of spinning for ever.
func (r *Reader) readFull(b []byte) (int, error) {
	n, empty := 0, 0
	for n < len(b) {
		m, err := r.r.Read(b[n:])
		n += m
		switch {
		case n == len(b):
			return n, nil
		case err == io.EOF && n > 0:
			return n, io.ErrUnexpectedEOF
		case err != nil:
			return n, err
		case m == 0:
			if empty++; empty >= maxEmptyReads {
				return n, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
	return n, nil
}

// readErr turns a short read into ErrTruncated at the current PDU.
func (r *Reader) readErr(field string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ParseError{Format: "pduwire", Field: field, Offset: r.off, Err: ErrTruncated}
	}
	return err
}
