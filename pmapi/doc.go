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
// client collects them and keeps reading.
//
// A Client is safe for concurrent use: calls are serialised on the
// connection. Every call takes a context; its deadline, or the client's
// per-request timeout, bounds the whole exchange. A call that fails on the
// wire (timeout, cancellation, garbage from the server) closes the
// connection, since lock-step can no longer be trusted; later calls
// return ErrClosed. Errors pmcd reports for a request are returned as
// *ServerError values carrying the PM_ERR_* code.
//
// By default the connection's I/O goes through Go's network poller, like
// any net.Conn. A program that fetches in a tight loop can Dial with
// WithBlockingIO, which reads and writes with blocking system calls as
// libpcp does: markedly less CPU per request, for an OS thread held while
// pmcd answers.
//
// Results that alias received bytes (the Fetch result view) are valid
// until the next call on the same Client; Clone them to keep them.
package pmapi
