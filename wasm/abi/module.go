package abi

import (
	"github.com/tinylib/msgp/msgp"
)

// Op is one call of the ABI. Calls names each for both modules; the
// wasip1 reactor (wasm/plugin) exports one function per op and the js
// module (wasm/js) installs one per op, and both run it through
// Module.Call, so the table, the argument checks and the error results
// exist once.
type Op uint8

// The ops, in the order of Calls.
const (
	OpKPIDecode Op = iota
	OpKPIOpen
	OpKPIStep
	OpKPITable
	OpKPIStream
	OpKPIFeed
	OpKPIEnd
	OpKPICut
	OpPDUDecode
	OpPDUStream
	OpPDUFeed
	OpPDUEnd
	OpEventsDecode
	OpLabelsCanon
	OpLabelsMerge
	OpMMVRead
	OpMMVServe
	OpDLTDecode
	OpArchiveOpen
	OpArchiveNext
	numOps
)

// Arg says what an op's two u32 arguments are.
type Arg uint8

// The argument shapes.
const (
	ArgIn        Arg = iota // (in): an input buffer
	ArgInN                  // (in, n): an input buffer and a number
	ArgN                    // (n): a number; the op opens a session
	ArgSession              // (session)
	ArgSessionN             // (session, n)
	ArgSessionIn            // (session, in): a session and an input buffer
	ArgInOpen               // (in): an input buffer; the op opens a session
)

// CallInfo names an op: its wasip1 export, its js function and its
// arguments.
type CallInfo struct {
	Export, JS string
	Args       Arg
}

// Calls is the call table, indexed by Op.
var Calls = [numOps]CallInfo{
	OpKPIDecode:    {"kpi_decode", "kpiDecode", ArgInN},
	OpKPIOpen:      {"kpi_open", "kpiOpen", ArgInOpen},
	OpKPIStep:      {"kpi_step", "kpiStep", ArgSessionN},
	OpKPITable:     {"kpi_table", "kpiTable", ArgSession},
	OpKPIStream:    {"kpi_stream", "kpiStream", ArgN},
	OpKPIFeed:      {"kpi_feed", "kpiFeed", ArgSessionIn},
	OpKPIEnd:       {"kpi_end", "kpiEnd", ArgSession},
	OpKPICut:       {"kpi_cut", "kpiCut", ArgSession},
	OpPDUDecode:    {"pdu_decode", "pduDecode", ArgInN},
	OpPDUStream:    {"pdu_stream", "pduStream", ArgN},
	OpPDUFeed:      {"pdu_feed", "pduFeed", ArgSessionIn},
	OpPDUEnd:       {"pdu_end", "pduEnd", ArgSession},
	OpEventsDecode: {"events_decode", "eventsDecode", ArgIn},
	OpLabelsCanon:  {"labels_canon", "labelsCanon", ArgIn},
	OpLabelsMerge:  {"labels_merge", "labelsMerge", ArgIn},
	OpMMVRead:      {"mmv_read", "mmvRead", ArgInN},
	OpMMVServe:     {"mmv_serve", "mmvServe", ArgIn},
	OpDLTDecode:    {"dlt_decode", "dltDecode", ArgIn},
	OpArchiveOpen:  {"archive_open", "archiveOpen", ArgInOpen},
	OpArchiveNext:  {"archive_next", "archiveNext", ArgSessionN},
}

// Opens reports whether op returns a session handle rather than a
// result buffer.
func (o Op) Opens() bool { return o < numOps && (Calls[o].Args == ArgN || Calls[o].Args == ArgInOpen) }

// The handlers, by op; each build's calls_*.go files fill in the ops of
// the formats it carries (build tags kpi, pcp, mmv: one format; none:
// all). An op left nil answers ErrNotBuilt.
var (
	calls [numOps]func(in []byte, n uint32) msgp.Marshaler
	opens [numOps]func(in []byte, n uint32) (any, error)
	onSes [numOps]func(s any, in []byte, n uint32) msgp.Marshaler
)

// MaxAlloc bounds one buffer; larger requests get handle 0.
const MaxAlloc = 1 << 30

// Module is the state of one module instance: its buffers and sessions,
// by handle (a u32, never 0). It is not safe for concurrent use; a wasm
// module runs one call at a time.
type Module struct {
	buffers  map[uint32]buffer
	sessions map[uint32]any
	last     uint32
	// big and small are the two largest buffers the host freed that
	// nothing else refers to (big the larger), for the next result and
	// alloc: a host feeding a stream allocates an input and gets a
	// result per call, and with both recycled a call allocates nothing
	// for them and a result is written where the host reads it, not
	// copied there (in a wasm module the collector runs on the calling
	// thread, issue 18 item 7).
	big, small []byte
}

// buffer is a buffer and whether free may recycle it: the module made
// it (alloc, a result) and no session keeps it (kpi_open and
// archive_open keep their input).
type buffer struct {
	b   []byte
	own bool
}

// maxRecycle bounds the freed buffers a module keeps.
const maxRecycle = 4 << 20

// NewModule returns an empty module state.
func NewModule() *Module {
	return &Module{buffers: map[uint32]buffer{}, sessions: map[uint32]any{}}
}

// newHandle returns an unused handle, skipping 0 and live handles after
// the counter wraps.
func (m *Module) newHandle() uint32 {
	for {
		m.last++
		if m.last == 0 {
			continue
		}
		if _, ok := m.buffers[m.last]; ok {
			continue
		}
		if _, ok := m.sessions[m.last]; ok {
			continue
		}
		return m.last
	}
}

// Keep stores b under a new handle. The module never writes to b, nor
// reuses it after Free.
func (m *Module) Keep(b []byte) uint32 { return m.keep(b, false) }

// keepOwn stores b, which the module made, under a new handle.
func (m *Module) keepOwn(b []byte) uint32 { return m.keep(b, true) }

// keep is Keep and keepOwn, not inlined: either would add its code to
// each caller in every module (the archive modules are close to their
// size budget).
//
//go:noinline
func (m *Module) keep(b []byte, own bool) uint32 {
	h := m.newHandle()
	m.buffers[h] = buffer{b: b, own: own}
	return h
}

// Alloc returns the handle of a new zeroed buffer of n bytes, or 0 when
// n is over MaxAlloc.
func (m *Module) Alloc(n uint32) uint32 {
	if n > MaxAlloc {
		return 0
	}
	b := m.reuse(int(n))
	clear(b)
	return m.keepOwn(b)
}

// reuse returns a buffer of n bytes, unzeroed: a spare that holds n
// (the smaller first) or a new one.
func (m *Module) reuse(n int) (b []byte) {
	switch {
	case cap(m.small) >= n:
		b, m.small = m.small, nil
	case cap(m.big) >= n:
		b, m.big = m.big, nil
	default:
		return make([]byte, n)
	}
	return b[:n]
}

// recycle keeps b for reuse when it is larger than a spare. Not
// inlined, as keep.
//
//go:noinline
func (m *Module) recycle(b []byte) {
	if cap(b) > maxRecycle {
		return
	}
	if cap(b) > cap(m.big) {
		m.big, b = b, m.big
	}
	if cap(b) > cap(m.small) {
		m.small = b
	}
}

// Buffer returns buffer h. An empty buffer gets a one-byte backing array,
// so that its address is real.
func (m *Module) Buffer(h uint32) ([]byte, bool) {
	e, ok := m.buffers[h]
	if ok && cap(e.b) == 0 {
		e.b = make([]byte, 0, 1)
		m.buffers[h] = e
	}
	return e.b, ok
}

// Free releases a buffer or a session; unknown handles are ignored.
func (m *Module) Free(h uint32) {
	if e, ok := m.buffers[h]; ok {
		delete(m.buffers, h)
		if e.own {
			m.recycle(e.b)
		}
		return
	}
	delete(m.sessions, h)
}

// Open runs an op that opens a session (kpi_open, kpi_stream,
// pdu_stream, archive_open) and returns the session's handle, or 0 when an argument is
// bad or the op is not in this build.
func (m *Module) Open(o Op, h, n uint32) uint32 {
	if !o.Opens() || opens[o] == nil {
		return 0
	}
	var in []byte
	if Calls[o].Args == ArgInOpen {
		e, ok := m.buffers[h]
		if !ok {
			return 0
		}
		in = e.b
		e.own = false // the session may keep it
		m.buffers[h] = e
	} else {
		n = h
	}
	v, err := opens[o](in, n)
	if err != nil {
		return 0
	}
	s := m.newHandle()
	m.sessions[s] = v
	return s
}

// Call runs op o on its arguments (as Calls says: buffer and session
// handles, a number) and returns the result's MessagePack bytes. It never
// panics: a bad handle, an op not in this build and a caught panic are
// error results.
func (m *Module) Call(o Op, a, b uint32) (res []byte) {
	defer func() {
		if recover() != nil {
			res, _ = Failure(ErrInternal).MarshalMsg(nil)
		}
	}()
	out := m.big[:0] // results are the large buffers
	m.big = nil
	r, err := m.dispatch(o, a, b).MarshalMsg(out)
	if err != nil {
		r, _ = Failure(err).MarshalMsg(out[:0])
	}
	return r
}

// CallKeep is Call with its result kept as a buffer the module owns:
// the handle of the result of a wasm export, which free recycles.
func (m *Module) CallKeep(o Op, a, b uint32) uint32 { return m.keepOwn(m.Call(o, a, b)) }

func (m *Module) dispatch(o Op, a, b uint32) msgp.Marshaler {
	if o >= numOps || o.Opens() {
		return Failure(ErrNotBuilt)
	}
	switch Calls[o].Args {
	case ArgIn, ArgInN:
		in, ok := m.buffers[a]
		if !ok {
			return Failure(ErrBadHandle)
		}
		if calls[o] == nil {
			return Failure(ErrNotBuilt)
		}
		return calls[o](in.b, b)
	}
	s, ok := m.sessions[a]
	if !ok {
		return Failure(ErrBadHandle)
	}
	var in buffer
	if Calls[o].Args == ArgSessionIn {
		if in, ok = m.buffers[b]; !ok {
			return Failure(ErrBadHandle)
		}
	}
	if onSes[o] == nil {
		return Failure(ErrNotBuilt)
	}
	return onSes[o](s, in.b, b)
}
