package pmda

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// ServePipe serves pmcd over stdin and stdout, as pmcd starts a "pipe
// binary" PMDA. Nothing else may write to stdout.
func (a *Agent) ServePipe(ctx context.Context) error {
	return a.Serve(ctx, os.Stdin, os.Stdout)
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

// Serve runs the start-up exchange and the request loop over r (from
// pmcd) and w (to pmcd) until r ends, which returns nil, or a framing or
// write error, which is returned. Cancelling ctx is seen between requests
// and by callbacks; to interrupt a blocked read, close r. An agent serves
// one pmcd at a time: Serve must not run twice at once.
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
	rd := pduwire.NewReader(r, pduwire.Options{MaxPDULen: a.lim.MaxPDULen})
	wk := a.newWorker(ctx)
	defer func() { wk.stop() }()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var lastProfile []byte
	first := true
	for rd.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := rd.PDU()
		t := p.Header.Type
		if a.opts.Capture != nil {
			a.opts.Capture.Write(p.Bytes)
		}
		if first {
			first = false
			if t == pduwire.TypeCreds {
				var c pduwire.CredsPDU
				if err := c.UnmarshalBinary(p.Bytes); err != nil {
					return fmt.Errorf("pmda: pmcd's CREDS: %w", err)
				}
				continue
			}
		}
		reply := expectsReply(t)
		if reply && !a.ready.Load() {
			if err := a.writeError(pcp.ErrPMDANotReady); err != nil {
				return err
			}
			continue
		}
		if t == pduwire.TypeProfile {
			lastProfile = append(lastProfile[:0], p.Bytes...)
		}
		wk.in = append(wk.in[:0], p.Bytes...)
		wk.ctx.setDeadline(time.Now().Add(a.lim.CallTimeout))
		timer.Reset(a.lim.CallTimeout)
		wk.jobs <- struct{}{}
		select {
		case <-wk.done:
			timer.Stop()
			if wk.reply {
				if err := a.write(wk.out); err != nil {
					return err
				}
			}
		case <-timer.C:
			a.logf("%s request from context %d overran the %v limit: answered PM_ERR_AGAIN", t, p.Header.From, a.lim.CallTimeout)
			wk.abandon()
			wk = a.newWorker(ctx)
			if lastProfile != nil {
				wk.replay(lastProfile)
			}
			if reply {
				if err := a.writeError(pcp.ErrAgain); err != nil {
					return err
				}
			}
		}
	}
	if err := rd.Err(); err != nil {
		return fmt.Errorf("pmda: reading from pmcd: %w", err)
	}
	return nil
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

// worker answers requests on its own goroutine, so that the loop can give
// up on a callback that overruns its limit. Its buffers are its own: an
// abandoned worker may still be running a callback while its successor
// serves the next request.
type worker struct {
	a     *Agent
	ctx   callCtx
	jobs  chan struct{}
	done  chan struct{}
	in    []byte // the request, copied
	out   []byte // the reply
	reply bool   // out holds a reply to send

	scratch []byte // value payloads of the fetch being built
	eb      eventrec.Builder
	v       Value
	sets    []vset
	vals    []val

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
	w := &worker{a: a, jobs: make(chan struct{}), done: make(chan struct{}, 1)}
	w.ctx.parent = ctx
	w.ctx.done = make(chan struct{})
	go w.run()
	return w
}

func (w *worker) run() {
	for range w.jobs {
		w.do()
		w.done <- struct{}{}
	}
}

// stop ends an idle worker.
func (w *worker) stop() { close(w.jobs) }

// abandon gives up on a worker stuck in a callback: its context is done
// and it exits when the callback returns.
func (w *worker) abandon() {
	w.ctx.cancel()
	close(w.jobs)
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
