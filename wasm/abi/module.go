package abi

import "github.com/perfwire/perfwire/schema"

// Version is the ABI number hosts query with abi_version (wasip1) or
// perfwire.abiVersion (js). It grows when an export or a result schema
// changes incompatibly; adding a key to a result map does not change it.
const Version = 4

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

// handler runs a call: a call on a session gets the session as s, a call
// on a buffer nil; it appends its result to b, run and written in place
// by a render writer (no schema value per call for a MarshalMsg method
// to write: module size). A format has one handler for all its ops,
// which it tells apart by o (one function rather than one per op: module
// size; see wasm/size).
type handler func(o Op, s any, in []byte, n uint32, b []byte) []byte

// opener opens a session; nil is a bad argument.
type opener func(o Op, in []byte, n uint32) any

// The call tables, calls and opens, by op, are static data in one
// table_*.go file per module build: table_all.go (no tag) carries every
// format, table_kpi.go, table_pcp.go, table_mmv.go, table_dlt.go and
// table_archive.go (build tag kpi, pcp, mmv, dlt or archive, one at a
// time) one format each. A nil entry answers ErrNotBuilt.

// KPIFramingShift is where kpi_decode's second argument holds the
// framing: max | framing<<KPIFramingShift.
const KPIFramingShift = 24

// MaxAlloc bounds one buffer; larger requests get handle 0.
const MaxAlloc = 1 << 30

// Module is the state of one module instance: its buffers and sessions,
// by handle (a u32, never 0). It is not safe for concurrent use; a wasm
// module runs one call at a time.
type Module struct {
	buffers  map[uint32][]byte
	sessions map[uint32]any
	last     uint32
	// big and small are the two largest buffers the host freed that
	// nothing else refers to (big the larger), for the next result and
	// alloc: a host feeding a stream allocates an input and gets a
	// result per call, and with both recycled a call allocates nothing
	// for them and a result is written where the host reads it, not
	// copied there (in a wasm module the collector runs on the calling
	// thread).
	big, small []byte
	// in and res are the handles of the last alloc and the last result
	// of an export, the buffers free recycles: nothing else refers to
	// them, but for an input a session keeps (kpi_open and archive_open
	// clear in).
	in, res uint32
}

// maxRecycle bounds the freed buffers a module keeps.
const maxRecycle = 4 << 20

// NewModule returns an empty module state.
func NewModule() *Module {
	return &Module{buffers: map[uint32][]byte{}, sessions: map[uint32]any{}}
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
//
// Keep and Free are kept out of line, each called from two or three
// places in every module: module size.
//
//go:noinline
func (m *Module) Keep(b []byte) uint32 {
	h := m.newHandle()
	m.buffers[h] = b
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
	m.in = m.Keep(b)
	return m.in
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

// Buffer returns buffer h. An empty buffer gets a one-byte backing array,
// so that its address is real.
func (m *Module) Buffer(h uint32) ([]byte, bool) {
	b, ok := m.buffers[h]
	if ok && cap(b) == 0 {
		b = make([]byte, 0, 1)
		m.buffers[h] = b
	}
	return b, ok
}

// Free releases a buffer or a session; unknown handles are ignored.
//
//go:noinline
func (m *Module) Free(h uint32) {
	if h == m.in || h == m.res {
		m.recycle(m.buffers[h])
		if h == m.in {
			m.in = 0
		} else {
			m.res = 0
		}
	}
	delete(m.buffers, h)
	delete(m.sessions, h)
}

// recycle keeps b for reuse when it is larger than a spare.
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

// Open runs an op that opens a session (kpi_open, kpi_stream,
// pdu_stream, archive_open) and returns the session's handle, or 0 when an argument is
// bad or the op is not in this build.
func (m *Module) Open(o Op, h, n uint32) uint32 {
	if !o.Opens() || opens[o] == nil {
		return 0
	}
	var in []byte
	if Calls[o].Args == ArgInOpen {
		b, ok := m.buffers[h]
		if !ok {
			return 0
		}
		in = b
		if h == m.in {
			m.in = 0 // the session may keep it
		}
	} else {
		n = h
	}
	v := opens[o](o, in, n)
	if v == nil {
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
			res = schema.AppendFailure(nil, schema.ErrInternal)
		}
	}()
	// Results are the large buffers; when the input took the larger
	// spare (an input larger than its result, as an MMV file's), the
	// result takes the other, so that a steady host's calls grow none.
	out := m.big[:0]
	if cap(out) == 0 {
		out, m.small = m.small[:0], nil
	}
	m.big = nil
	// The call dispatched here, not by a function of its own: module
	// size.
	if o >= numOps || o.Opens() {
		return schema.AppendFailure(out, schema.ErrNotBuilt)
	}
	var (
		s  any
		in []byte
		ok bool
	)
	switch Calls[o].Args {
	case ArgIn, ArgInN:
		in, ok = m.buffers[a]
	default:
		s, ok = m.sessions[a]
		if ok && Calls[o].Args == ArgSessionIn {
			in, ok = m.buffers[b]
		}
	}
	if !ok {
		return schema.AppendFailure(out, schema.ErrBadHandle)
	}
	if calls[o] == nil {
		return schema.AppendFailure(out, schema.ErrNotBuilt)
	}
	return calls[o](o, s, in, b, out)
}

// CallKeep is Call with its result kept under a new handle, the result
// of a wasm export, which free recycles.
func (m *Module) CallKeep(o Op, a, b uint32) uint32 {
	m.res = m.Keep(m.Call(o, a, b))
	return m.res
}
