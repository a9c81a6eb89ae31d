package pduwire

import "io"

// readChunk is the least a Reader's buffer grows by. Growth doubles the
// buffer, and jumps to the whole PDU once half of it would be reached, so
// a PDU of n bytes costs under 2n in allocation and copies, while a len
// near the limit announced by a peer that then stalls costs at most four
// times what the peer really sent, plus this much.
const readChunk = 64 << 10

// Reader reads whole PDUs from a byte stream such as a TCP connection,
// with the methods of [Scanner]:
//
//	r := pduwire.NewReader(conn, pduwire.Options{})
//	for r.Next() {
//		p := r.PDU() // valid until the next call to Next
//	}
//	err := r.Err() // nil at an orderly end of stream
//
// Partial reads are normal; a PDU may begin at any offset. The Reader
// buffers: one read takes whatever the buffer has room for, so a PDU that
// has arrived whole costs one system call, header and body together, and
// bytes of the next PDU wait in the buffer. Each header is validated
// (12 ≤ len ≤ [Options.MaxPDULen], type ≥ 0) before the buffer grows for
// its body, and it grows only as body bytes arrive, doubling each time.
// Deadlines are the caller's business (set them on the connection).
type Reader struct {
	r     io.Reader
	limit uint32
	buf   []byte // buf[:end] has been read; buf[:start] was handed out
	start int
	end   int
	off   int64
	pdu   PDU
	err   error
}

// NewReader returns a Reader on r that rejects PDUs longer than
// o.MaxPDULen bytes. Servers should set [ServerMaxPDULen].
func NewReader(r io.Reader, o Options) *Reader {
	return &Reader{r: r, limit: o.limit()}
}

// Offset returns the number of stream bytes consumed by complete PDUs.
func (r *Reader) Offset() int64 { return r.off }

// PDU returns the PDU read by the last successful Next. Its Bytes alias
// the Reader's buffer and are valid until the next call to Next.
func (r *Reader) PDU() PDU { return r.pdu }

// Err returns the error that stopped Next, or nil at an orderly end of
// stream (no byte of a new PDU). A stream that ends inside a PDU is
// [ErrTruncated]; framing failures are kind "pdu_length", [ErrLimit] or
// [ErrType]; each is a [*ParseError] with the stream offset. Other read
// errors are returned as they are.
func (r *Reader) Err() error { return r.err }

// Next reads one PDU and reports whether there is one; it returns false
// at the end of the stream or on an error, which [Reader.Err] reports.
// A framing error stops the Reader for good. After any other read error
// (a deadline, say) the bytes received so far stay buffered, so calling
// Next again resumes the same PDU.
func (r *Reader) Next() bool {
	if r.err != nil {
		if _, framing := r.err.(*ParseError); framing {
			return false
		}
		r.err = nil
	}
	if r.start > 0 {
		// The previous PDU's view dies now: move what follows it to the
		// front (usually nothing, for request/response traffic).
		r.end = copy(r.buf, r.buf[r.start:r.end])
		r.start = 0
	}
	r.pdu = PDU{}
	if cap(r.buf) < 512 {
		r.buf = make([]byte, 512)
	}
	if !r.fill(HeaderLen, "header") {
		return false
	}
	h, err := checkFrame(r.buf[:HeaderLen], r.off, r.limit)
	if err != nil {
		r.err = err
		return false
	}
	n := int(h.Len)
	if !r.fill(n, "body") {
		return false
	}
	r.start = n
	r.pdu = PDU{Offset: r.off, Header: h, Bytes: r.buf[:n:n]}
	r.off += int64(n)
	return true
}

// fill reads until the buffer holds at least n bytes, doubling it each
// time the bytes that arrived fill it, or making it n bytes once the
// doubled size reaches half of n: the buffers before the last then add up
// to less than n. It reports whether they arrived; if not, r.err says
// why (nil at an orderly end of stream).
func (r *Reader) fill(n int, field string) bool {
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
			return true
		case err == io.EOF && r.end == 0:
			return false
		case err == io.EOF:
			r.err = &ParseError{Format: "pduwire", Field: field, Offset: r.off, Err: ErrTruncated}
			return false
		case err != nil:
			r.err = err
			return false
		case m == 0:
			if empty++; empty >= maxEmptyReads {
				r.err = io.ErrNoProgress
				return false
			}
		default:
			empty = 0
		}
	}
	return true
}

// maxEmptyReads is how many (0, nil) reads in a row fill tolerates, as
// bufio does: a source that never makes progress must not hold Next.
const maxEmptyReads = 100
