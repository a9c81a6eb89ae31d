package render

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/schema"
)

// TestKPIStreamMatchesCapture feeds each capture in random pieces and
// one byte at a time, and expects the same samples, IRQ samples, ended
// processes and table as a session over the whole capture.
func TestKPIStreamMatchesCapture(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
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
	var all schema.KPIStep
	add := func(st schema.KPIStep) {
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

// TestKPIStreamDamage: a stream with garbage before it and its last
// record cut reports what a session over the same bytes whole reports:
// the garbage skipped, the cut record truncated; calls of the wrong kind
// say so.
func TestKPIStreamDamage(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "excerpt-irq-strtok-race.dlt"))
	if err != nil {
		t.Fatal(err)
	}
	junk := []byte("garbage!")
	s := NewKPIStream(dlt.FramingStorage)
	s.Feed(junk)
	s.Feed(in[:len(in)-5])
	end := s.End()
	whole := NewKPISession(append(bytes.Clone(junk), in[:len(in)-5]...))
	wst := whole.Step(0)
	if end.Error == nil || end.Error.Kind != schema.ErrorOf(dlt.ErrTruncated).Kind || !sameResultError(end.Error, wst.Error) ||
		end.Offset != wst.Offset {
		t.Errorf("stream ended with %+v at %d, the whole bytes with %+v at %d", end.Error, end.Offset, wst.Error, wst.Offset)
	}
	tb, wtb := s.Table(), whole.Table()
	got, _ := tb.MarshalMsg(nil)
	want, _ := wtb.MarshalMsg(nil)
	if !bytes.Equal(got, want) || tb.Stats.SkippedBytes != len(junk) || tb.Stats.SkippedPlaces != 1 {
		t.Errorf("stream table differs from the whole bytes' table; stats %+v", tb.Stats)
	}
	if st := s.Step(1); st.Error == nil || st.Error.Kind != "bad_mode" {
		t.Errorf("Step on a stream: %+v", st.Error)
	}
	if st := whole.Feed(in); st.Error == nil || st.Error.Kind != "bad_mode" {
		t.Errorf("Feed on a capture session: %+v", st.Error)
	}
}

// TestKPIStreamDamagedMatchesCapture: damaged copies of each capture
// (bytes flipped, header patterns inserted inside records, spans cut
// out), fed in random pieces, give the table, samples and error that a
// session over the same bytes whole gives, which perfwire kpi prints:
// the stream resynchronises as the scanner does, candidate by candidate.
func TestKPIStreamDamagedMatchesCapture(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.dlt"))
	if len(files) != 3 {
		t.Fatalf("%d DLT captures", len(files))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	damaged := 0
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 12 {
			b := bytes.Clone(in)
			for range 1 + rng.IntN(5) {
				at := rng.IntN(len(b))
				switch rng.IntN(3) {
				case 0:
					b[at] ^= byte(1 + rng.IntN(255))
				case 1:
					b = append(b[:at], append([]byte("DLT\x01junk"), b[at:]...)...)
				case 2:
					b = append(b[:at], b[min(len(b), at+1+rng.IntN(200)):]...)
				}
			}
			whole := NewKPISession(b)
			wst := whole.Step(0)
			s := NewKPIStream(dlt.FramingStorage)
			var all schema.KPIStep
			for off := 0; off < len(b); {
				n := min(1+rng.IntN(4000), len(b)-off)
				st := s.Feed(b[off : off+n])
				all.Samples, all.IRQs = append(all.Samples, st.Samples...), append(all.IRQs, st.IRQs...)
				off += n
			}
			end := s.End()
			all.Samples, all.IRQs = append(all.Samples, end.Samples...), append(all.IRQs, end.IRQs...)
			tb, wtb := s.Table(), whole.Table()
			got, _ := tb.MarshalMsg(nil)
			want, _ := wtb.MarshalMsg(nil)
			if !bytes.Equal(got, want) || len(all.Samples) != len(wst.Samples) || len(all.IRQs) != len(wst.IRQs) ||
				!sameResultError(end.Error, wst.Error) {
				t.Fatalf("%s damaged: stream %d samples, error %+v; whole %d samples, error %+v",
					filepath.Base(name), len(all.Samples), end.Error, len(wst.Samples), wst.Error)
			}
			if wtb.Stats.SkippedBytes > 0 {
				damaged++
			}
		}
	}
	if damaged < 20 {
		t.Errorf("only %d of 36 damaged copies made the scanner skip bytes", damaged)
	}
}

// sameResultError reports whether two error results say the same.
func sameResultError(a, b *schema.Error) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, _ := a.MarshalMsg(nil)
	y, _ := b.MarshalMsg(nil)
	return bytes.Equal(x, y)
}
