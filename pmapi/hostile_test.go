package pmapi

import (
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// The tests of this file play a hostile pmcd: one that
// trickles bytes, floods notices, announces more than it sends, or hangs
// up mid-PDU. Each runs in both I/O modes and checks that the call ends
// on time with an error that says what happened.

// sampleResult is a HIGHRES_RESULT for sample.long.ten (29.0.10) = v.
func sampleResult(v uint32) []byte {
	return (&pduwire.ResultPDU{HighRes: true, Sec: 1, Sets: []pduwire.ValueSetData{{PMID: pcp.NewID(29, 0, 10),
		Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: v}}}}}).Append(nil, 0)
}

// trickle writes b one byte every gap, until done or a write fails.
func trickle(conn net.Conn, b []byte, gap time.Duration) {
	for i := range b {
		if _, err := conn.Write(b[i : i+1]); err != nil {
			return
		}
		time.Sleep(gap)
	}
}

// endsWithin fails the test when the call took longer than max.
func endsWithin(t *testing.T, start time.Time, max time.Duration) {
	t.Helper()
	if d := time.Since(start); d > max {
		t.Fatalf("the call took %v, more than %v", d.Round(time.Millisecond), max)
	}
}

// dialFake dials addr with o and returns the client, closed when the
// test ends; the test fails when the dial fails.
func dialFake(t *testing.T, addr string, o Options) *Client {
	t.Helper()
	c, err := Dial(context.Background(), addr, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// fetchWithin dials addr with o, fetches PMID 29.0.10 once and returns
// the client (closed when the test ends) and the fetch's error; the
// test fails when the dial fails or the fetch takes longer than max.
func fetchWithin(t *testing.T, addr string, o Options, max time.Duration) (*Client, error) {
	t.Helper()
	c := dialFake(t, addr, o)
	start := time.Now()
	_, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
	endsWithin(t, start, max)
	return c, err
}

// wantInMessage fails the test unless err's text holds every part.
func wantInMessage(t *testing.T, err error, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// A RESULT sent one byte every 50 ms (a valid PDU, 2 s in all) must not
// hold Fetch past the 300 ms timeout: the timeout bounds the exchange,
// not each read. Before, blocking mode waited for the whole PDU.
func TestHostileSlowResult(t *testing.T) {
	res := sampleResult(10)
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr := fetchPmcd(t, func(conn *fakeConn) {
				trickle(conn, res, 50*time.Millisecond)
			})
			o := mode.opts
			o.Timeout = 300 * time.Millisecond
			c, err := fetchWithin(t, addr, o, time.Second)
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("err = %v, want a timeout", err)
			}
			if _, ok := errors.AsType[*OpError](err); !ok {
				t.Errorf("err is a %T, want an *OpError", err)
			}
			wantInMessage(t, err, "fetch", "HIGHRES_FETCH", "Options.Timeout", "300ms")
			_, err = c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
			if !errors.Is(err, ErrClosed) || errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("the call after a timeout: %v, want ErrClosed alone", err)
			}
			wantInMessage(t, err, "closed by an earlier failure", "HIGHRES_FETCH exchange not complete")
		})
	}
}

// The same against the context's deadline, with the default timeout.
func TestHostileSlowResultContextDeadline(t *testing.T) {
	res := sampleResult(10)
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr := fetchPmcd(t, func(conn *fakeConn) {
				trickle(conn, res, 50*time.Millisecond)
			})
			c := dialFake(t, addr, mode.opts)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := c.Fetch(ctx, pcp.NewID(29, 0, 10))
			endsWithin(t, start, time.Second)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want context.DeadlineExceeded", err)
			}
			wantInMessage(t, err, "fetch", "HIGHRES_FETCH", "context's deadline")
		})
	}
}

// A greeting sent one byte every 50 ms must not hold Dial past its
// timeout either.
func TestHostileSlowGreeting(t *testing.T) {
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			greeting := hello(t)
			addr := serveOne(t, func(conn net.Conn) { trickle(conn, append(greeting, greeting...), 50*time.Millisecond) })
			o := mode.opts
			o.Timeout = 300 * time.Millisecond
			start := time.Now()
			c, err := Dial(context.Background(), addr, o)
			endsWithin(t, start, time.Second)
			if err == nil {
				c.Close()
				t.Fatal("Dial with a trickling server succeeded")
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("err = %v, want a timeout", err)
			}
			wantInMessage(t, err, "connect", "handshake", "300ms")
		})
	}
}

// A flood of state-change notices (positive-code ERROR PDUs) that never
// ends must end the fetch with ErrProtocol after Options.MaxNotices of
// them, at once. Before, the client read them for as long as they came.
func TestHostileNoticeFlood(t *testing.T) {
	notice := (&pduwire.ErrorPDU{Code: 0x8}).Append(nil, 0) // PMCD_LABEL_CHANGE
	flood := make([]byte, 0, 64*len(notice))
	for range 64 {
		flood = append(flood, notice...)
	}
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr := fetchPmcd(t, func(conn *fakeConn) {
				for {
					if _, err := conn.Write(flood); err != nil {
						return
					}
				}
			})
			_, err := fetchWithin(t, addr, mode.opts, time.Second)
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("err = %v, want ErrProtocol", err)
			}
			wantInMessage(t, err, "fetch", "64", "MaxNotices", "HIGHRES_FETCH")
		})
	}
}

// MaxNotices is the bound: that many notices before a result are
// accepted, one more is not.
func TestHostileMaxNotices(t *testing.T) {
	notice := (&pduwire.ErrorPDU{Code: 0x10}).Append(nil, 0) // PMCD_NAMES_CHANGE
	for _, n := range []int{2, 3} {
		addr := fetchPmcd(t, func(conn *fakeConn) {
			for range n {
				conn.Write(notice)
			}
			conn.Write(sampleResult(10))
			time.Sleep(time.Second)
		})
		c, err := Dial(context.Background(), addr, Options{MaxNotices: 2})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
		c.Close()
		if n == 2 && err != nil {
			t.Errorf("2 notices with MaxNotices 2: %v", err)
		}
		if n == 3 && !errors.Is(err, ErrProtocol) {
			t.Errorf("3 notices with MaxNotices 2: err = %v, want ErrProtocol", err)
		}
	}
}

// A reply longer than Options.MaxPDU: ErrLimit, with the exchange and
// the limit named.
func TestHostileOverLimit(t *testing.T) {
	res := sampleResult(10)
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr := fetchPmcd(t, func(conn *fakeConn) {
				conn.Write(res)
				time.Sleep(time.Second)
			})
			o := mode.opts
			o.MaxPDU = len(res) - 1
			c := dialFake(t, addr, o)
			_, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
			if !errors.Is(err, pduwire.ErrLimit) {
				t.Fatalf("err = %v, want ErrLimit", err)
			}
			wantInMessage(t, err, "fetch", "HIGHRES_FETCH", "Options.MaxPDU", strconv.Itoa(len(res)-1))
		})
	}
}

// A server that announces a RESULT and hangs up inside it: a truncation
// error that names the exchange.
func TestHostileCloseMidPDU(t *testing.T) {
	res := sampleResult(10)
	for _, mode := range ioModes {
		t.Run(mode.name, func(t *testing.T) {
			addr := fetchPmcd(t, func(conn *fakeConn) {
				conn.Write(res[:len(res)-5])
			})
			_, err := fetchWithin(t, addr, mode.opts, time.Second)
			if !errors.Is(err, pduwire.ErrTruncated) || !errors.Is(err, ErrProtocol) {
				t.Fatalf("err = %v, want a truncated PDU", err)
			}
			wantInMessage(t, err, "fetch", "HIGHRES_FETCH")
		})
	}
}

// Counts beyond the bytes: a RESULT that claims more value sets or values
// than it holds, and one with a different number of value sets than the
// metrics asked for.
func TestHostileCounts(t *testing.T) {
	twoSets := (&pduwire.ResultPDU{HighRes: true, Sets: []pduwire.ValueSetData{
		{PMID: pcp.NewID(29, 0, 10), Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: 1}}},
		{PMID: pcp.NewID(29, 0, 11), Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: 2}}}}}).Append(nil, 0)
	// A HIGHRES_RESULT body is numpmid, a pad word, the 16-byte
	// timestamp, then per set the pmID and numval.
	manySets := sampleResult(10)
	manySets[12+3] = 200
	manyValues := sampleResult(10)
	manyValues[12+4+4+16+4+3] = 200
	for _, tc := range []struct {
		name  string
		reply []byte
		parts []string
	}{
		{"numpmid beyond the bytes", manySets, []string{"fetch", "HIGHRES_FETCH"}},
		{"numval beyond the bytes", manyValues, []string{"fetch", "HIGHRES_FETCH"}},
		{"two value sets for one metric", twoSets, []string{"fetch", "2 value sets for 1 metrics"}},
	} {
		for _, mode := range ioModes {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				addr := fetchPmcd(t, func(conn *fakeConn) {
					conn.Write(tc.reply)
					time.Sleep(time.Second)
				})
				c := dialFake(t, addr, mode.opts)
				_, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10))
				if !errors.Is(err, ErrProtocol) {
					t.Fatalf("err = %v, want ErrProtocol", err)
				}
				wantInMessage(t, err, tc.parts...)
				if _, err := c.Fetch(context.Background(), pcp.NewID(29, 0, 10)); !errors.Is(err, ErrClosed) {
					t.Fatalf("after a bad reply the client still talks: %v", err)
				}
			})
		}
	}
}

// hugeResult is a valid HIGHRES_RESULT of exactly DefaultMaxPDU (64
// MiB): one metric with five aggregate values of about 12.8 MiB each (a
// value block's length field has 24 bits).
func hugeResult() []byte {
	build := func(last int) []byte {
		vals := make([]pduwire.ValueData, 5)
		for i := range vals {
			n := 13 << 20
			if i == 4 {
				n = last
			}
			vals[i] = pduwire.ValueData{Inst: int32(i), BlockType: pcp.TypeAggregate, Payload: make([]byte, n)}
		}
		return (&pduwire.ResultPDU{HighRes: true, Sets: []pduwire.ValueSetData{{PMID: pcp.NewID(29, 0, 10),
			ValFmt: pduwire.ValDPTR, Values: vals}}}).Append(nil, 0)
	}
	b := build(12 << 20)
	return build(12<<20 + DefaultMaxPDU - len(b))
}

// A reply of 64 MiB (the default limit) costs at most twice its size in
// allocation to receive (FetchBuf; 1 MiB of slack for the rest of the
// exchange), plus one copy for Fetch's result; before, the receive buffer
// grew 64 KiB at a time, copied at every step: 30 GB of allocation and
// 4.5 s for one such reply. The allocation is what is checked: the time
// (0.05 s on an idle machine, 4-6 s under the race detector on a loaded
// one) is only logged.
func TestHostileHugeResult(t *testing.T) {
	res := hugeResult()
	if len(res) != DefaultMaxPDU {
		t.Fatalf("the result is %d bytes, want %d", len(res), DefaultMaxPDU)
	}
	for _, mode := range ioModes {
		for _, call := range []struct {
			name   string
			budget int // allocation allowed, in PDU sizes
			fetch  func(*Client) (pduwire.Result, error)
		}{
			{"FetchBuf", 2, func(c *Client) (pduwire.Result, error) { return c.FetchBuf(context.Background(), pcp.NewID(29, 0, 10)) }},
			{"Fetch", 3, func(c *Client) (pduwire.Result, error) { return c.Fetch(context.Background(), pcp.NewID(29, 0, 10)) }},
		} {
			t.Run(mode.name+"/"+call.name, func(t *testing.T) {
				addr := fetchPmcd(t, func(conn *fakeConn) {
					conn.Write(res)
					time.Sleep(time.Second)
				})
				c := dialFake(t, addr, mode.opts)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				start := time.Now()
				r, err := call.fetch(c)
				elapsed := time.Since(start)
				runtime.ReadMemStats(&after)
				if err != nil {
					t.Fatal(err)
				}
				for vs := range r.ValueSets() {
					if vs.Len() != 5 {
						t.Fatalf("%d values, want 5", vs.Len())
					}
				}
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Logf("%d-byte reply: %d bytes allocated (%.3fx), %v", len(res), alloc, float64(alloc)/float64(len(res)), elapsed)
				if alloc > uint64(call.budget*len(res)+1<<20) {
					t.Errorf("%d bytes allocated for a %d-byte reply: over %dx", alloc, len(res), call.budget)
				}
			})
		}
	}
}
