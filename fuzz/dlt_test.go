package fuzz

import (
	"errors"
	"runtime"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

// tinyOptions make every limit of the reassembler and the tracker
// reachable from a short fuzz input.
var tinyOptions = dltkpi.Options{
	MaxGroupDatasets: 16, MaxGroupBytes: 1024, MaxGroupAge: 1000, FloodRun: 2, MaxSessions: 2,
	MaxProcesses: 16, MaxIRQs: 4, MaxIRQCPUs: 2, MaxTombstones: 8, MinIRQRows: 2,
}

// dltSeeds returns the DLT captures (dlt-kpi output with its anomalies,
// storage framing) kept in testdata/dlt.
func dltSeeds(tb testing.TB) [][]byte {
	return seedFiles(tb, "testdata/dlt/*.dlt")
}

// checkDLT scans data as a .dlt file and pushes every message through
// the KPI reassembler into a process tracker, checking the limits at
// every step. It returns the number of DLT messages and of datasets.
func checkDLT(t *testing.T, data []byte, l dltkpi.Options) (msgs, datasets int) {
	t.Helper()
	maxOpen := dltkpi.NumKinds * l.MaxSessions
	if l.MaxSessions == 0 {
		maxOpen = dltkpi.NumKinds * dltkpi.DefaultMaxSessions
	}
	maxProcs := l.MaxProcesses
	if maxProcs == 0 {
		maxProcs = dltkpi.DefaultMaxProcesses
	}
	r := dltkpi.NewReassembler(l)
	tr := dltkpi.NewTracker(l)
	drain := func() {
		for r.Next() {
			ev := r.Event()
			if ev.Type == dltkpi.EventDataset && ev.Err == nil {
				datasets++
			}
			if ev.Err != nil {
				if _, ok := errors.AsType[*dltkpi.ParseError](ev.Err); !ok && !errors.Is(ev.Err, dltkpi.ErrNotKPI) {
					t.Fatalf("event error %v (%T) is not a *ParseError", ev.Err, ev.Err)
				}
			}
			tr.Apply(ev)
		}
		if n := r.OpenGroups(); n > maxOpen {
			t.Fatalf("%d open groups, limit %d", n, maxOpen)
		}
		if n := tr.Len(); n > maxProcs {
			t.Fatalf("tracker holds %d processes, limit %d", n, maxProcs)
		}
	}
	s := dlt.NewScanner(data, dlt.Options{})
	for s.Next() {
		m := s.Message()
		msgs++
		r.PushDLT(dltkpi.Selector{}, m)
		drain()
	}
	if err := s.Err(); err != nil {
		if _, ok := errors.AsType[*dlt.ParseError](err); !ok {
			t.Fatalf("scanner error %v is not a *ParseError", err)
		}
	}
	if s.Offset() > len(data) || s.Skipped() > len(data) {
		t.Fatalf("scanner at %d, skipped %d, of %d bytes", s.Offset(), s.Skipped(), len(data))
	}
	r.Flush()
	drain()
	if r.OpenGroups() != 0 {
		t.Fatalf("%d groups open after Flush", r.OpenGroups())
	}
	st := r.Stats()
	if st.Messages+st.Skipped > msgs {
		t.Fatalf("reassembler counts %d KPI + %d skipped messages of %d", st.Messages, st.Skipped, msgs)
	}
	for _, p := range tr.Processes() {
		_ = p.Cmd
	}
	_ = tr.IRQs()
	return msgs, datasets
}

// TestDLTCaptures: the seeds scan and reassemble, with default and with
// tiny limits.
func TestDLTCaptures(t *testing.T) {
	for _, b := range dltSeeds(t) {
		msgs, ds := checkDLT(t, b, dltkpi.Options{})
		if msgs < 10 || ds < 10 {
			t.Fatalf("%d messages, %d datasets", msgs, ds)
		}
		checkDLT(t, b, tinyOptions)
	}
}

// FuzzDLTStream treats the input as a .dlt file: the DLT scanner (with
// resynchronisation), the KPI selector and parser, the reassembler and
// the process tracker in a chain. The first byte picks default or tiny
// limits. Invariants: no panic, typed errors, open groups and tracked
// processes within their limits at every step, nothing open after Flush.
func FuzzDLTStream(f *testing.F) {
	for _, b := range dltSeeds(f) {
		f.Add(append([]byte{0}, b...))
		f.Add(append([]byte{1}, b[:min(len(b), 4096)]...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 1<<18 {
			return
		}
		if data[0]&1 == 0 {
			checkDLT(t, data[1:], dltkpi.Options{})
		} else {
			checkDLT(t, data[1:], tinyOptions)
		}
	})
}

// TestMillionBegins pushes a million BEG markers that never see their
// END, from ever new sessions and then within one, each followed by a
// data message: the reassembler keeps at most its session limit of open
// groups and its memory stays flat.
func TestMillionBegins(t *testing.T) {
	const n = 1_000_000
	beg, err := dltkpi.Parse(dltkpi.AppendSync(nil, dltkpi.KindNEW, dltkpi.SyncBegin))
	if err != nil {
		t.Fatal(err)
	}
	pb := dltkpi.NewPayloadBuilder(nil, dltkpi.KindNEW, 0)
	pb.Add(dltkpi.AppendNew(nil, 42, 1, []byte("init")))
	data, err := dltkpi.Parse(pb.Payload())
	if err != nil {
		t.Fatalf("data message: %v", err)
	}
	r := dltkpi.NewReassembler(dltkpi.Options{})
	maxOpen := dltkpi.NumKinds * dltkpi.DefaultMaxSessions
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	events := 0
	for i := range n {
		src := dltkpi.Source{AppID: [4]byte{'P', 'R', 'O', 'C'}, ContextID: [4]byte{'P', 'R', 'O', 'C'}, SEID: 7, MCNT: uint8(2 * i), TMSP: uint32(i)}
		if i < n/2 {
			// a new ECU each time: sessions must be evicted
			src.ECU = [4]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
		}
		r.Push(src, beg)
		src.MCNT++
		r.Push(src, data)
		for r.Next() {
			events++
		}
		if r.OpenGroups() > maxOpen {
			t.Fatalf("message %d: %d open groups", i, r.OpenGroups())
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if growth := int64(after.HeapAlloc) - int64(before.HeapAlloc); growth > 8<<20 {
		t.Errorf("heap grew by %d bytes over %d unterminated groups", growth, n)
	}
	st := r.Stats()
	if st.Aborted < n-maxOpen || st.Evictions < n/2-maxOpen {
		t.Errorf("aborted %d groups, evicted %d sessions; want about %d and %d", st.Aborted, st.Evictions, n, n/2)
	}
	if events < n {
		t.Errorf("only %d events for %d BEG+data pairs", events, n)
	}
	r.Flush()
	for r.Next() {
	}
	if r.OpenGroups() != 0 {
		t.Errorf("%d groups open after Flush", r.OpenGroups())
	}
}
