package abi

import "github.com/perfwire/perfwire/dlt"

// NewKPIStream starts a session fed piece by piece, for a live DLT stream
// (dlt-receive's output, a daemon's TCP port with FramingBare, a serial
// line). The bytes go through a dlt.Feeder, which frames and
// resynchronises over damage exactly as the scanner of a whole capture
// (NewKPISession, perfwire kpi) does, whatever the pieces; a record comes
// out as soon as what follows it decides it. Memory is bounded: the
// feeder keeps only the bytes not yet decided.
func NewKPIStream(framing dlt.Framing) *KPISession {
	if framing > dlt.FramingBare {
		framing = dlt.FramingStorage
	}
	k := &KPISession{stream: true, f: dlt.NewFeeder(dlt.Options{Framing: framing})}
	return k.withPipeline()
}

// Feed decodes every record that chunk decides and returns the progress
// (Offset: stream bytes decided, records or skipped; Total: bytes fed)
// and what the records reported (KPIStep). The session copies what it
// keeps of chunk.
func (k *KPISession) Feed(chunk []byte) KPIStep {
	// One return: each KPIStep returned is a copy in WebAssembly code.
	var callErr error
	switch {
	case !k.stream:
		callErr = abiError(ErrBadMode)
	case !k.done:
		k.fed += len(chunk)
		k.f.Feed(chunk)
		k.take()
	}
	return k.progress(callErr)
}

// take passes every message the feeder has decided to the reassembler;
// an error the feeder cannot get past ends the session.
func (k *KPISession) take() {
	for k.f.Next() {
		k.kp.Push(k.f.Message())
		k.drain()
	}
	if err := k.f.Err(); err != nil {
		k.finish(err)
	}
}

// Cut ends the current input as End does, without ending the session: a
// record cut off by the input's end is truncated and ends the session, as
// in a scan of that input alone; else the next Feed starts a new input
// (offsets and errors count from its start) while the processes, groups
// and counters carry on. perfwire kpi FILE... reads its files so.
func (k *KPISession) Cut() KPIStep {
	if !k.stream || k.done {
		return k.End() // the error of a capture's session, or the last step again
	}
	k.f.End()
	k.take()
	st := k.progress(nil)
	if !k.done {
		k.base += k.f.Offset()
		k.skippedBefore += k.f.Skipped()
		k.placesBefore += k.f.Resyncs()
		k.f = dlt.NewFeeder(k.f.Options())
	}
	return st
}

// End declares the stream finished: the records still undecided are
// decided, one cut off by the end is reported as truncated, and the
// reassembler is flushed.
func (k *KPISession) End() KPIStep {
	var callErr error
	switch {
	case !k.stream:
		callErr = abiError(ErrBadMode)
	case !k.done:
		k.f.End()
		k.take()
		if !k.done {
			k.finish(nil)
		}
	}
	return k.progress(callErr)
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
		Messages: k.kp.Stats().Messages,
	}
	st.Samples, st.IRQs, k.samples, k.irqs = k.samples, k.irqs, nil, nil
	k.colPIDs, k.colCPU, k.colRSS, k.colCtx, k.colIO = nil, nil, nil, nil, nil // the samples' now
	if ended := k.t.TakeEnded(); len(ended) > 0 {
		st.Ended = make([]KPIProcess, 0, len(ended))
		for i := range ended {
			st.Ended = append(st.Ended, EndedRow(&ended[i]))
		}
	}
	if k.stream {
		st.Offset, st.Total = k.base+k.f.Offset(), k.fed
		st.SkipError = ErrorOf(k.f.SkipError())
	} else {
		st.Offset, st.Total = k.s.Offset(), len(k.in)
	}
	return st
}
