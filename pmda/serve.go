package pmda

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// ServePipe serves pmcd over stdin and stdout, as pmcd starts a "pipe
// binary" PMDA, until pmcd closes the pipe or ctx is done. Nothing else
// may read stdin or write stdout while it runs. Both are used through
// non-blocking descriptors of their own, so that cancelling ctx interrupts
// a read that waits for pmcd (ServePipe then returns ctx's error) and a
// RESULT larger than the pipe does not block a thread in the kernel.
func (a *Agent) ServePipe(ctx context.Context) error {
	in, doneIn := pollable(os.Stdin)
	defer doneIn()
	out, doneOut := pollable(os.Stdout)
	defer doneOut()
	return a.Serve(ctx, in, out)
}

// ServeListener accepts pmcd's connections on ln (pmcd.conf's "socket
// unix PATH" or "socket inet PORT" forms) and serves each in turn until ctx
// is done, when it closes ln and returns ctx's error.
func (a *Agent) ServeListener(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("pmda: accepting pmcd's connection: %w", err)
		}
		// Closing the connection also ends a write blocked on pmcd.
		cstop := context.AfterFunc(ctx, func() { c.Close() })
		err = a.Serve(ctx, c, c)
		cstop()
		c.Close()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			a.logf("connection from pmcd ended: %v", err)
		}
	}
}

// deadliner is a reader whose blocked reads a deadline interrupts
// (net.Conn, and an *os.File on a pipe or socket in non-blocking mode).
type deadliner interface {
	SetReadDeadline(t time.Time) error
}

// Serve runs the start-up exchange and the request loop over r (from
// pmcd) and w (to pmcd) until r ends, which returns nil, or a framing or
// write error, which is returned. When ctx is done, the callback running
// sees its context done, and a read waiting for pmcd is interrupted if r
// has a SetReadDeadline method (a net.Conn or an os.File pipe does; its
// deadline is left in the past); Serve then returns ctx's error. A reader
// without one must be closed to interrupt its read. An agent serves one
// pmcd at a time: Serve must not run twice at once.
//
// Requests are answered on one goroutine, in order, without a hand-off per
// request. A callback that overruns [Limits.CallTimeout] is given up on:
// its request is answered PM_ERR_AGAIN and a new goroutine, with buffers
// of its own, serves the requests that follow while the old one finishes
// the callback and exits.
func (a *Agent) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	a.wmu.Lock()
	a.out = w
	a.wmu.Unlock()
	defer func() {
		a.wmu.Lock()
		a.out = nil
		a.wmu.Unlock()
	}()
	var flags uint16
	if a.opts.Attributes {
		flags = pduwire.FlagAuth | pduwire.FlagContainer
	}
	creds := pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(pduwire.ProtocolVersion, flags)}}
	if err := a.write(creds.Append(nil, int32(os.Getpid()))); err != nil {
		return err
	}
	s := &session{
		a:      a,
		ctx:    ctx,
		rd:     pduwire.NewReader(r, pduwire.Options{MaxPDULen: a.lim.MaxPDULen}),
		result: make(chan error, 1),
		t0:     time.Now(),
		first:  true,
		wk:     a.newWorker(ctx),
	}
	s.watchdog = time.AfterFunc(time.Hour, s.overrun)
	s.watchdog.Stop()
	stop := context.AfterFunc(ctx, func() {
		if d, ok := r.(deadliner); ok {
			d.SetReadDeadline(time.Unix(1, 0))
		}
		s.mu.Lock()
		s.wk.ctx.cancel(ctx.Err())
		s.mu.Unlock()
	})
	defer stop()
	go s.serve(s.wk)
	err := <-s.result
	s.watchdog.Stop()
	return err
}

// session is one Serve call's request loop. The loop's state (the reader,
// the last PROFILE, the current worker) belongs to the goroutine serving
// requests, and passes to the watchdog when it gives up on that goroutine.
type session struct {
	a        *Agent
	ctx      context.Context
	rd       *pduwire.Reader
	result   chan error // the loop's end, sent once by its last goroutine
	t0       time.Time  // the origin of deadline
	watchdog *time.Timer

	// state counts requests, odd while one runs. The goroutine that runs
	// it and the watchdog race to make it even; the winner answers it.
	state    atomic.Uint64
	deadline atomic.Int64 // the running request's limit, since t0

	mu sync.Mutex // guards wk, which ctx's cancellation reads
	wk *worker

	cur         pduwire.Header // the running request's
	lastProfile []byte
	first       bool
}

// serve answers requests with wk until the stream ends or the watchdog
// takes over.
func (s *session) serve(wk *worker) {
	a := s.a
	for s.rd.Next() {
		if err := s.ctx.Err(); err != nil {
			s.result <- err
			return
		}
		p := s.rd.PDU()
		t := p.Header.Type
		if a.opts.Capture != nil {
			a.opts.Capture.Write(p.Bytes)
		}
		if s.first {
			s.first = false
			if t == pduwire.TypeCreds {
				var c pduwire.CredsPDU
				if err := c.UnmarshalBinary(p.Bytes); err != nil {
					s.result <- fmt.Errorf("pmda: pmcd's CREDS: %w", err)
					return
				}
				continue
			}
		}
		if expectsReply(t) && !a.ready.Load() {
			if err := a.writeError(pcp.ErrPMDANotReady); err != nil {
				s.result <- err
				return
			}
			continue
		}
		if t == pduwire.TypeProfile {
			s.lastProfile = append(s.lastProfile[:0], p.Bytes...)
		}
		wk.in = append(wk.in[:0], p.Bytes...)
		s.cur = p.Header
		if !s.call(wk) {
			return // the watchdog answered and serves on
		}
		if wk.reply {
			if err := a.write(wk.out); err != nil {
				s.result <- err
				return
			}
		}
	}
	if err := s.ctx.Err(); err != nil {
		s.result <- err
		return
	}
	if err := s.rd.Err(); err != nil {
		s.result <- fmt.Errorf("pmda: reading from pmcd: %w", err)
		return
	}
	s.result <- nil
}

// call answers wk.in under the watchdog and reports whether it finished
// first; if not, the watchdog has answered the request and owns the loop.
func (s *session) call(wk *worker) bool {
	lim := s.a.lim.CallTimeout
	dl := time.Since(s.t0) + lim
	wk.ctx.setDeadline(s.t0.Add(dl))
	s.deadline.Store(int64(dl))
	st := s.state.Add(1)
	s.watchdog.Reset(lim)
	wk.do()
	s.watchdog.Stop()
	return s.state.CompareAndSwap(st, st+1)
}

// overrun runs when the watchdog fires: if the request it was set for is
// still running, it answers PM_ERR_AGAIN, abandons the worker and serves
// the rest of the stream on this goroutine with a new one. A fire left
// over from an earlier request finds a later deadline and does nothing.
func (s *session) overrun() {
	st := s.state.Load()
	if st%2 == 0 || time.Since(s.t0) < time.Duration(s.deadline.Load()) || !s.state.CompareAndSwap(st, st+1) {
		return
	}
	a := s.a
	a.logf("%s request from context %d overran the %v limit: answered PM_ERR_AGAIN", s.cur.Type, s.cur.From, a.lim.CallTimeout)
	wk := a.newWorker(s.ctx)
	if s.lastProfile != nil {
		wk.replay(s.lastProfile)
	}
	s.mu.Lock()
	s.wk.ctx.cancel(context.DeadlineExceeded)
	s.wk = wk
	s.mu.Unlock()
	if s.ctx.Err() != nil {
		wk.ctx.cancel(s.ctx.Err())
	}
	if expectsReply(s.cur.Type) {
		if err := a.writeError(pcp.ErrAgain); err != nil {
			s.result <- err
			return
		}
	}
	s.serve(wk)
}

// expectsReply reports whether pmcd waits for an answer to a PDU of type
// t. PROFILE, ATTR, ERROR (a context's end) and CONTROL_REQ are never
// answered; unknown types are, with PM_ERR_IPC, so that a peer expecting
// an answer is not left waiting.
func expectsReply(t pduwire.Type) bool {
	switch t {
	case pduwire.TypeProfile, pduwire.TypeAttr, pduwire.TypeError, pduwire.TypeControlReq, pduwire.TypeCreds:
		return false
	}
	return true
}

func (a *Agent) write(b []byte) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if _, err := a.out.Write(b); err != nil {
		return fmt.Errorf("pmda: writing to pmcd: %w", err)
	}
	return nil
}

func (a *Agent) writeError(c pcp.Code) error {
	var buf [16]byte
	e := pduwire.ErrorPDU{Code: int32(c)}
	return a.write(e.Append(buf[:0], 0))
}

// worker holds the buffers requests are answered with. An abandoned
// worker may still be running a callback while its successor serves the
// next request, so each worker's buffers are its own.
type worker struct {
	a     *Agent
	ctx   callCtx
	in    []byte // the request, copied
	out   []byte // the reply
	reply bool   // out holds a reply to send

	scratch []byte // value payloads of the fetch being built
	eb      eventrec.Builder
	v       Value
	res     pduwire.ResultPDU // the RESULT being built; payloads in scratch

	profile     pduwire.ProfilePDU
	haveProfile bool
	fetch       pduwire.FetchPDU
	names       pduwire.PMNSNamesPDU
	child       pduwire.PMNSChildPDU
	ids         pduwire.PMNSIDsPDU
	descIDs     pduwire.DescIDsPDU
	descs       pduwire.DescsPDU
	labels      pduwire.LabelPDU
	inst        pduwire.InstancePDU
}

func (a *Agent) newWorker(ctx context.Context) *worker {
	w := &worker{a: a}
	w.ctx.parent = ctx
	w.ctx.done = make(chan struct{})
	return w
}

// replay hands a new worker the last PROFILE its predecessor had.
func (w *worker) replay(profile []byte) {
	if w.profile.UnmarshalBinary(profile) == nil {
		w.haveProfile = true
	}
}

// do answers w.in into w.out; a panicking callback is answered with
// PM_ERR_AGAIN and logged.
func (w *worker) do() {
	w.reply = false
	w.out = w.out[:0]
	h, _, err := pduwire.ConsumeHeader(w.in)
	if err != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	defer func() {
		if r := recover(); r != nil {
			w.a.logf("%s callback panicked: %v: answered PM_ERR_AGAIN", h.Type, r)
			w.reply = false
			if expectsReply(h.Type) {
				w.replyError(pcp.ErrAgain)
			}
		}
	}()
	w.ctx.client = w.a.client(h.From)
	w.handle(h)
}

func (w *worker) replyError(c pcp.Code) {
	e := pduwire.ErrorPDU{Code: int32(c)}
	w.out = e.Append(w.out[:0], 0)
	w.reply = true
}

func (w *worker) send(m pduwire.Message) {
	w.out = m.Append(w.out[:0], 0)
	w.reply = true
}

// codeOf turns a callback's error into the PCP code sent for it: a
// pcp.Code as it is, anything else PM_ERR_GENERIC (logged).
func (w *worker) codeOf(what string, err error) pcp.Code {
	if c, ok := errors.AsType[pcp.Code](err); ok {
		return c
	}
	w.a.logf("%s: %v", what, err)
	return pcp.ErrGeneric
}
