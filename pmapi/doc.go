// Package pmapi is a pure-Go client of a real pmcd: it connects, performs
// the credentials handshake and asks for names, descriptors, instances,
// labels, help text and values, and stores values.
//
// It speaks the PDUs of package pduwire over one TCP or unix-socket
// connection in strict request/reply lock-step. pmcd speaks first with a
// 20-byte ERROR PDU whose features word says which optional PDUs it takes;
// the client answers with CREDS and from then on uses HIGHRES_FETCH,
// DESC_IDS and LABEL_REQ only when they were advertised. A PROFILE goes out
// before the first fetch. Before a fetch result pmcd may send ERROR PDUs
// with positive codes announcing changes (new agents, new labels); the
// client collects them (Changes) and keeps reading, up to
// Options.MaxNotices of them.
//
// A Client is safe for concurrent use: calls are serialised on the
// connection. Every call takes a context. Each exchange (Dial's connect
// and handshake; a request and its whole reply) must end within
// Options.Timeout, or by the context's deadline when that comes first,
// however slowly pmcd sends its bytes; cancelling the context ends it at
// once. A call that fails on the wire returns an *OpError naming the
// operation, the request PDU and the limit that ran out, and closes the
// connection, since lock-step can no longer be trusted; later calls
// return ErrClosed, saying which failure closed it. A reply that does
// not decode wraps ErrProtocol and closes the connection too. Errors
// pmcd reports for a request are returned as *ServerError values
// carrying the PM_ERR_* code.
//
// By default the connection's I/O goes through Go's network poller, like
// any net.Conn. A program that fetches in a tight loop can Dial with
// Options.BlockingIO, which reads and writes with blocking system calls as
// libpcp does: markedly less CPU per request, for an OS thread held while
// pmcd answers.
//
// Allocation and lifetime: every result is the caller's to keep (names,
// descriptors, labels and text are copied out of the reply; Fetch copies
// the RESULT PDU, one allocation of the reply's size) except FetchBuf's,
// a view of the client's receive buffer that is valid until the next call
// on the same Client from any goroutine. A FetchBuf loop allocates
// nothing per fetch. The receive buffer grows to the largest reply seen,
// at most Options.MaxPDU.
package pmapi
