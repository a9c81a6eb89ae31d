package abi

import (
	"errors"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/internal/wire"
)

// patterns are the header patterns a stream resynchronises on, by framing.
var patterns = [...][]byte{dlt.FramingStorage: []byte("DLT\x01"), dlt.FramingSerial: []byte("DLS\x01"), dlt.FramingBare: nil}

// NewKPIStream starts a session fed piece by piece, for a live DLT stream
// (dlt-receive's output, a daemon's TCP port with FramingBare, a serial
// line). Records are decoded as soon as they are complete; a corrupt
// record is skipped up to the next header pattern (with storage or serial
// framing; with bare framing there is none, so it ends the stream).
// Memory is bounded: at most one incomplete record waits.
func NewKPIStream(framing dlt.Framing) *KPISession {
	if int(framing) >= len(patterns) {
		framing = dlt.FramingStorage
	}
	return &KPISession{
		stream: true,
		opt:    dlt.Options{Framing: framing},
		r:      dltkpi.NewReassembler(dltkpi.Options{}),
		t:      dltkpi.NewTracker(dltkpi.TrackerOptions{KeepEnded: true}),
	}
}

// Feed decodes every record that chunk completes and returns the
// progress (Offset: stream bytes decoded or skipped; Total: bytes fed)
// and what the records reported (KPIStep). The session copies what
// it keeps of chunk.
func (k *KPISession) Feed(chunk []byte) KPIStep {
	if !k.stream {
		return k.progress(abiError(ErrBadMode))
	}
	if k.done {
		return k.progress(nil)
	}
	k.fed += len(chunk)
	k.pending = append(k.pending, chunk...)
	off := 0
	for off < len(k.pending) {
		m, n, err := dlt.ConsumeMessage(k.pending[off:], k.opt)
		if err == nil {
			k.r.PushDLT(k.sel, m)
			k.drain()
			off += n
			continue
		}
		if errors.Is(err, dlt.ErrTruncated) {
			break // the rest of the record has not arrived
		}
		if k.err == nil {
			k.err = shiftError(err, k.consumed+off)
		}
		next := k.resync(off + 1)
		if next < 0 {
			off = len(k.pending)
			k.done = true
			break
		}
		if k.consumed+off != k.skipEnd {
			k.places++ // a new damaged place, not the rest of the last one
		}
		k.skipped += next - off
		k.skipEnd = k.consumed + next
		off = next
	}
	k.consumed += off
	k.pending = append(k.pending[:0], k.pending[off:]...)
	return k.progress(nil)
}

// resync returns where the next header pattern starts at or after from,
// or where a partial pattern at the end might start; -1 without framing.
func (k *KPISession) resync(from int) int {
	p := patterns[k.opt.Framing]
	if p == nil {
		return -1
	}
	for i := from; i < len(k.pending); i++ {
		rest := k.pending[i:]
		if len(rest) >= len(p) && string(rest[:len(p)]) == string(p) {
			return i
		}
		if len(rest) < len(p) && string(p[:len(rest)]) == string(rest) {
			return i
		}
	}
	return len(k.pending)
}

// End declares the stream finished: an incomplete record left over is
// reported as truncated, and the reassembler is flushed.
func (k *KPISession) End() KPIStep {
	if !k.stream {
		return k.progress(abiError(ErrBadMode))
	}
	if !k.done {
		if len(k.pending) > 0 && k.err == nil {
			// The decoder's own error names the part the record ends in,
			// as the native reader's does; the tail is not counted as
			// skipped, as it is not natively.
			_, _, err := dlt.ConsumeMessage(k.pending, k.opt)
			if err == nil {
				err = dlt.ErrTruncated
			}
			k.err = shiftError(err, k.consumed)
		}
		k.consumed += len(k.pending)
		k.pending = k.pending[:0]
		k.open = k.r.OpenGroups()
		k.r.Flush()
		k.drain()
		k.done = true
	}
	return k.progress(nil)
}

// progress is the KPIStep for the session's current state; a call error
// (ErrBadMode) is reported instead of the session's own.
func (k *KPISession) progress(callErr error) KPIStep {
	err := k.err
	if callErr != nil {
		err = callErr
	}
	st := KPIStep{
		Error:    ErrorOf(err),
		Done:     k.done,
		Messages: k.r.Stats().Messages,
	}
	st.Samples, st.IRQs, k.samples, k.irqs = k.samples, k.irqs, nil, nil
	for _, e := range k.t.TakeEnded() {
		st.Ended = append(st.Ended, EndedRow(&e))
	}
	if k.stream {
		st.Offset, st.Total = k.consumed, k.fed
	} else {
		st.Offset, st.Total = k.s.Offset(), len(k.in)
	}
	return st
}

// shiftError makes a record-relative decoding error stream-relative.
func shiftError(err error, base int) error {
	if we, ok := errors.AsType[*wire.Error](err); ok {
		c := *we
		c.Offset += int64(base)
		return &c
	}
	return wire.NewError("dlt", "message", base, err)
}
