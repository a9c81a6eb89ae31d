//go:build !pcp && !mmv && !dlt && !archive

package render

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestKPISessionWriter checks the in-place writer of the KPI session
// calls (Run, AppendProgress, AppendTable) against the KPIStep and KPITable the Go methods
// build, marshalled, byte for byte, call by call: two sessions over each
// capture whole, cut short, damaged and in serial framing, a capture
// session stepped and a stream session fed in random pieces and cut,
// with calls of the wrong kind, calls after the end and a table after
// every call.
func TestKPISessionWriter(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
	if len(files) != 3 {
		t.Fatalf("%d DLT captures", len(files))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var seen struct{ samples, irqs, ended, skipErr, badMode, errs, hexCmd int }
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		serial := serialOf(in)
		for _, c := range []struct {
			what    string
			in      []byte
			stream  bool
			framing dlt.Framing
		}{
			{"whole", in, false, dlt.FramingStorage},
			{"cut", in[:len(in)*2/3], false, dlt.FramingStorage},
			{"damaged", damage(in), false, dlt.FramingStorage},
			{"stream", in, true, dlt.FramingStorage},
			{"stream cut", in[:len(in)*2/3], true, dlt.FramingStorage},
			{"stream damaged", damage(in), true, dlt.FramingStorage},
			{"stream after garbage", append([]byte("garbage!"), in...), true, dlt.FramingStorage},
			{"serial", serial, true, dlt.FramingSerial},
			{"damaged serial", damage(serial), true, dlt.FramingSerial},
		} {
			var want, got *KPISession
			var ops []KPICall
			var args [][]byte
			var maxes []int
			if !c.stream {
				want, got = NewKPISession(c.in), NewKPISession(c.in)
				for range 40 {
					ops, args, maxes = append(ops, KPICallStep), append(args, nil), append(maxes, rng.IntN(60))
				}
				ops, args, maxes = append(ops, KPICallFeed, KPICallStep, KPICallEnd, KPICallStep), append(args, c.in[:10], nil, nil, nil), append(maxes, 0, 0, 0, 3)
			} else {
				want, got = NewKPIStream(c.framing), NewKPIStream(c.framing)
				for off := 0; off < len(c.in); {
					n := min(1+rng.IntN(4000), len(c.in)-off)
					o := KPICallFeed
					if rng.IntN(6) == 0 {
						o = KPICallCut
					}
					ops, args, maxes = append(ops, o), append(args, c.in[off:off+n]), append(maxes, 0)
					off += n
				}
				ops, args, maxes = append(ops, KPICallStep, KPICallEnd, KPICallFeed, KPICallCut), append(args, nil, nil, c.in[:10], nil), append(maxes, 1, 0, 0, 0)
			}
			for i, o := range ops {
				if o == KPICallCut { // the piece is fed before the cut
					w := want.Feed(args[i])
					g := got.AppendProgress([]byte("head"), got.Run(KPICallFeed, args[i], 0))
					if wb, _ := w.MarshalMsg([]byte("head")); !bytes.Equal(g, wb) {
						t.Fatalf("%s %s call %d feed before cut: %d bytes, want %d", filepath.Base(name), c.what, i, len(g), len(wb))
					}
				}
				w := want.call(o, args[i], maxes[i])
				wb, _ := w.MarshalMsg([]byte("head"))
				g := got.AppendProgress([]byte("head"), got.Run(o, args[i], maxes[i]))
				if !bytes.Equal(g, wb) {
					t.Fatalf("%s %s call %d (op %d): %d bytes, want %d", filepath.Base(name), c.what, i, o, len(g), len(wb))
				}
				wt := want.Table()
				wtb, _ := wt.MarshalMsg([]byte("head"))
				gt := got.AppendTable([]byte("head"))
				if !bytes.Equal(gt, wtb) {
					t.Fatalf("%s %s table after call %d: %d bytes, want %d", filepath.Base(name), c.what, i, len(gt), len(wtb))
				}
				seen.samples += len(w.Samples)
				seen.irqs += len(w.IRQs)
				seen.ended += len(w.Ended)
				if w.SkipError != nil {
					seen.skipErr++
				}
				if w.Error != nil && w.Error.Kind == "bad_mode" {
					seen.badMode++
				} else if w.Error != nil {
					seen.errs++
				}
				for _, p := range append(wt.Processes, w.Ended...) {
					if p.CmdHex != "" {
						seen.hexCmd++
					}
				}
			}
		}
	}
	if seen.samples == 0 || seen.irqs == 0 || seen.ended == 0 || seen.skipErr == 0 || seen.badMode == 0 || seen.errs == 0 || seen.hexCmd == 0 {
		t.Errorf("not every part of a step written: %+v", seen)
	}
	t.Logf("%+v", seen)
}
