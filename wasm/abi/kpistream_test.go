package abi

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestKPIStreamMatchesCapture feeds each capture in random pieces and
// one byte at a time, and expects the same samples, IRQ samples, ended
// processes and table as a session over the whole capture.
func TestKPIStreamMatchesCapture(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.dlt"))
	if len(files) != 3 {
		t.Fatalf("%d DLT captures", len(files))
	}
	for _, chunk := range []string{"random", "1-byte"} {
		for _, name := range files {
			t.Run(chunk+"/"+filepath.Base(name), func(t *testing.T) { streamMatches(t, name, chunk == "1-byte") })
		}
	}
}

func streamMatches(t *testing.T, name string, oneByte bool) {
	in, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	whole := NewKPISession(in)
	st := whole.Step(0)
	want := whole.Table()
	wantBytes, _ := want.MarshalMsg(nil)

	rng := rand.New(rand.NewPCG(1, uint64(len(in))))
	s := NewKPIStream(dlt.FramingStorage)
	var all KPIStep
	add := func(st KPIStep) {
		all.Samples = append(all.Samples, st.Samples...)
		all.IRQs = append(all.IRQs, st.IRQs...)
		all.Ended = append(all.Ended, st.Ended...)
	}
	for off := 0; off < len(in); {
		n := min(1+rng.IntN(3000), len(in)-off)
		if oneByte {
			n = 1
		}
		step := s.Feed(in[off : off+n])
		add(step)
		off += n
		if step.Total != off || step.Offset > off || step.Error != nil {
			t.Fatalf("%s: after %d bytes: %+v", name, off, step)
		}
	}
	end := s.End()
	add(end)
	if !end.Done || end.Offset != len(in) || end.Error != nil {
		t.Errorf("%s: end %+v", name, end)
	}
	got := s.Table()
	gotBytes, _ := got.MarshalMsg(nil)
	if !bytes.Equal(gotBytes, wantBytes) {
		t.Errorf("%s: streamed table differs from the capture session's", name)
	}
	all.Done, all.Offset, all.Total, all.Messages = st.Done, st.Offset, st.Total, st.Messages
	gotSteps, _ := all.MarshalMsg(nil)
	wantSteps, _ := st.MarshalMsg(nil)
	if !bytes.Equal(gotSteps, wantSteps) {
		t.Errorf("%s: %d streamed samples, %d IRQ samples, %d ended; from the capture %d, %d, %d", name,
			len(all.Samples), len(all.IRQs), len(all.Ended), len(st.Samples), len(st.IRQs), len(st.Ended))
	}
	if len(st.Samples) == 0 || len(st.Samples[0].RSS) != len(st.Samples[0].PIDs) ||
		strings.Contains(name, "kpi-odd") && (len(st.IRQs) == 0 || len(st.Ended) == 0) {
		t.Errorf("%s: %d samples, %d IRQ samples, %d ended", name, len(st.Samples), len(st.IRQs), len(st.Ended))
	}
}

// TestKPIStreamDamage: garbage between records is skipped and counted, a
// record cut by the end is reported as truncated at its stream offset,
// and calls of the wrong kind say so.
func TestKPIStreamDamage(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "testdata", "excerpt-irq-strtok-race.dlt"))
	if err != nil {
		t.Fatal(err)
	}
	junk := []byte("garbage!")
	s := NewKPIStream(dlt.FramingStorage)
	s.Feed(junk)
	s.Feed(in[:len(in)-5])
	end := s.End()
	if end.Error == nil || end.Error.Kind != ErrorOf(errBadPatternOf(t)).Kind {
		t.Errorf("first error %+v, want the bad pattern at 0", end.Error)
	}
	tb := s.Table()
	whole := NewKPISession(in)
	whole.Step(0)
	if tb.Stats.SkippedBytes == 0 || tb.Stats.Messages >= whole.Table().Stats.Messages+1 {
		t.Errorf("stats %+v", tb.Stats)
	}
	if st := s.Step(1); st.Error == nil || st.Error.Kind != "bad_mode" {
		t.Errorf("Step on a stream: %+v", st.Error)
	}
	if st := whole.Feed(in); st.Error == nil || st.Error.Kind != "bad_mode" {
		t.Errorf("Feed on a capture session: %+v", st.Error)
	}

	// Cut at the end only: truncated, with the cut record's offset.
	s = NewKPIStream(dlt.FramingStorage)
	s.Feed(in[:len(in)-5])
	end = s.End()
	if end.Error == nil || end.Error.Kind != ErrorOf(dlt.ErrTruncated).Kind || end.Error.Offset <= 0 || end.Error.Offset >= int64(len(in)) {
		t.Errorf("cut stream: %+v", end.Error)
	}
}

func errBadPatternOf(t *testing.T) error {
	_, _, err := dlt.ConsumeMessage([]byte("garbage!"), dlt.Options{})
	if err == nil {
		t.Fatal("garbage decoded")
	}
	return err
}
