package fuzz

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"sigs.k8s.io/randfill"
)

// genProc is one generated process for a NEW group.
type genProc struct {
	PID, PPID uint16
	Cmd       []byte
}

// genKPI is what FuzzDLTGenerated fills: a NEW group and the buffer
// size dlt-kpi splits it with.
type genKPI struct {
	Procs  []genProc
	BufLen uint16
	Big    bool
}

// kpiCmd keeps a generated command within what dlt-kpi prints: no NUL
// (it ends a DLT string) and at most 200 bytes.
func kpiCmd(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte{0}, nil)
	if len(b) > 200 {
		b = b[:200]
	}
	if len(b) == 0 {
		b = []byte("x")
	}
	return b
}

// FuzzDLTGenerated fills a NEW group from the fuzzer's bytes, encodes it
// the way dlt-kpi and libdlt split groups (fragments and repeats
// included) into a .dlt stream, and runs the stream checks; the tracker
// must then know every generated pid with its command, unless the
// command's whitespace shifted its fields or it never fit whole.
func FuzzDLTGenerated(f *testing.F) {
	f.Add([]byte("dlt-kpi"))
	f.Add(bytes.Repeat([]byte{0x31, 0x07, 0x80, 0xfe, 0x20}, 80))
	f.Fuzz(func(t *testing.T, data []byte) {
		var g genKPI
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(1, 40).Fill(&g)
		seen := map[int32]bool{}
		var datasets [][]byte
		var procs []genProc
		for _, p := range g.Procs {
			pid := int32(p.PID) + 1
			if seen[pid] {
				continue
			}
			seen[pid] = true
			p.Cmd = kpiCmd(p.Cmd)
			procs = append(procs, p)
			datasets = append(datasets, dltkpi.AppendNew(nil, pid, int32(p.PPID), p.Cmd))
		}
		bufLen := 256 + int(g.BufLen)%1200
		payloads, err := dltkpi.EncodeGroup(dltkpi.KindNEW, datasets, bufLen)
		if err != nil {
			return // a dataset longer than the buffer: dlt-kpi cannot send it either
		}
		var stream []byte
		for i, pl := range payloads {
			h := dlt.LogHeader(dlt.MakeID("ECU1"), dlt.MakeID("PROC"), dlt.MakeID("PROC"), dlt.LevelInfo, 77, 1000)
			h.Counter = uint8(i)
			m, err := kpiMessage(h, pl, g.Big)
			if err != nil {
				t.Fatalf("payload %d: %v", i, err)
			}
			stream = dlt.AppendStorageHeader(stream, dlt.StorageHeader{Seconds: 1, ECU: dlt.MakeID("ECU1")})
			stream = append(stream, m...)
		}
		msgs, _ := checkDLT(t, stream, dltkpi.Options{})
		if msgs != len(payloads) {
			t.Fatalf("scanned %d messages, wrote %d", msgs, len(payloads))
		}

		// Replay into a tracker we can inspect.
		r := dltkpi.NewReassembler(dltkpi.Options{})
		tr := dltkpi.NewTracker(dltkpi.Options{})
		s := dlt.NewScanner(stream, dlt.Options{})
		for s.Next() {
			r.PushDLT(dltkpi.Selector{}, s.Message())
			for r.Next() {
				tr.Apply(r.Event())
			}
		}
		r.Flush()
		for r.Next() {
			tr.Apply(r.Event())
		}
		if st := r.Stats(); st.Groups[dltkpi.KindNEW] != 1 || st.Aborted != 0 {
			t.Fatalf("%d NEW groups closed, %d aborted; want 1, 0", st.Groups[dltkpi.KindNEW], st.Aborted)
		}
		for _, p := range procs {
			got, ok := tr.Process(int32(p.PID) + 1)
			if !ok {
				t.Fatalf("pid %d (cmd %q) missing from the tracker", p.PID+1, p.Cmd)
			}
			if got.StatShifted || got.Partial {
				continue
			}
			if !bytes.Equal(got.Cmd, p.Cmd) {
				t.Fatalf("pid %d: cmd %q, sent %q", p.PID+1, got.Cmd, p.Cmd)
			}
		}
	})
}

// kpiMessage wraps one KPI payload (built little-endian by dltkpi) in a
// verbose DLT log message; big re-encodes its string arguments with
// MSBF set.
func kpiMessage(h dlt.Header, payload []byte, big bool) ([]byte, error) {
	m, err := dltkpi.Parse(payload)
	if err != nil {
		return nil, err
	}
	if !big {
		return dlt.AppendMessage(nil, h, m.Arguments, payload)
	}
	h.Order = binary.BigEndian
	var p []byte
	for a := range m.Args() {
		if p, err = dlt.AppendStringArg(p, string(a), binary.BigEndian); err != nil {
			return nil, err
		}
	}
	return dlt.AppendMessage(nil, h, m.Arguments, p)
}
