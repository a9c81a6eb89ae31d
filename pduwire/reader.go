package pduwire

import "io"

// readChunk is the least a Reader's buffer grows by. Growth doubles the
// buffer, and jumps to the whole PDU once half of it would be reached, so
// a PDU of n bytes costs under 2n in allocation and copies, while a len
// near the limit announced by a peer that then stalls costs at most four
// times what the peer really sent, plus this much.
const readChunk = 64 << 10

// Reader reads whole PDUs from a byte stream such as a TCP connection.
// Partial reads are normal; a PDU may begin at any offset. The Reader
// buffers: one read takes whatever the buffer has room for, so a PDU that
// has arrived whole costs one system call, header and body together, and
// bytes of the next PDU wait in the buffer. Each header is validated
// (12 ≤ len ≤ limit, type ≥ 0) before the buffer grows for its body, and
// it grows only as body bytes arrive, doubling each time. Deadlines are the caller's business
// (set them on the connection); after a read error the bytes received so
// far stay buffered, so a later Next resumes the same PDU.
type Reader struct {
	r     io.Reader
	limit uint32
	buf   []byte // buf[:end] has been read; buf[:start] was handed out
	start int
	end   int
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
	if r.start > 0 {
		// The previous PDU's view dies now: move what follows it to the
		// front (usually nothing, for request/response traffic).
		r.end = copy(r.buf, r.buf[r.start:r.end])
		r.start = 0
	}
	if cap(r.buf) < 512 {
		r.buf = make([]byte, 512)
	}
	if err := r.fill(HeaderLen, "header"); err != nil {
		return PDU{}, err
	}
	h, err := checkFrame(r.buf[:HeaderLen], r.off, r.limit)
	if err != nil {
		return PDU{}, err
	}
	n := int(h.Len)
	if err := r.fill(n, "body"); err != nil {
		return PDU{}, err
	}
	r.start = n
	p := PDU{Offset: r.off, Header: h, Bytes: r.buf[:n:n]}
	r.off += int64(n)
	return p, nil
}

// fill reads until the buffer holds at least n bytes, doubling it each
// time the bytes that arrived fill it, or making it n bytes once the
// doubled size reaches half of n: the buffers before the last then add up
// to less than n.
func (r *Reader) fill(n int, field string) error {
	empty := 0
	for r.end < n {
		if r.end == len(r.buf) {
			size := max(2*r.end, r.end+readChunk)
			if 2*size >= n {
				size = n
			}
			grown := make([]byte, size)
			copy(grown, r.buf[:r.end])
			r.buf = grown
		}
		m, err := r.r.Read(r.buf[r.end:])
		r.end += m
		switch {
		case r.end >= n:
			return nil
		case err == io.EOF && r.end == 0:
			return io.EOF
		case err == io.EOF:
			return &ParseError{Format: "pduwire", Field: field, Offset: r.off, Err: ErrTruncated}
		case err != nil:
			return err
		case m == 0:
			if empty++; empty >= maxEmptyReads {
				return io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
	return nil
}

// maxEmptyReads is how many (0, nil) reads in a row fill tolerates, as
// bufio does: a source that never makes progress must not hold Next.
const maxEmptyReads = 100
