package dlt

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// feedResultOf feeds data to a Feeder in pieces of the sizes next gives,
// checks each message's bytes against data at its offset, and returns
// what it reports.
func feedResultOf(t testing.TB, data []byte, opt Options, next func() int) scanResult {
	var r scanResult
	f := NewFeeder(opt)
	take := func() {
		for f.Next() {
			m := f.Message()
			if !bytes.Equal(m.Bytes(), data[m.Offset():m.Offset()+len(m.Bytes())]) {
				t.Fatalf("message at %d has other bytes than the input", m.Offset())
			}
			r.offsets = append(r.offsets, m.Offset())
		}
	}
	for off := 0; off < len(data); {
		n := min(next(), len(data)-off)
		// A piece the caller reuses afterwards: the feeder must copy.
		piece := bytes.Clone(data[off : off+n])
		f.Feed(piece)
		clear(piece)
		off += n
		take()
	}
	f.End()
	take()
	r.skipped, r.resyncs, r.end = f.Skipped(), f.Resyncs(), f.Offset()
	if f.Err() != nil {
		r.err = f.Err().Error()
	}
	if f.SkipError() != nil {
		r.skipErr = f.SkipError().Error()
	}
	return r
}

// TestFeederMatchesScanner: the push-mode Feeder, fed the captures and
// damaged copies of them whole, a byte at a time and in random pieces,
// reports exactly what the Scanner reports on the whole input.
func TestFeederMatchesScanner(t *testing.T) {
	for i, data := range capturesAndDamage(t) {
		for _, opt := range walkOptions {
			want := scanResultOf(data, opt)
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			for name, next := range map[string]func() int{
				"whole":    func() int { return len(data) },
				"one byte": func() int { return 1 },
				"random":   func() int { return 1 + rng.IntN(5000) },
			} {
				if name == "one byte" && i%3 != 0 {
					continue // slow; a few inputs suffice
				}
				checkResults(t, "feeder", i, name, opt, feedResultOf(t, data, opt, next), want)
			}
		}
	}
}

// TestFeederLive: a record comes out as soon as the next header pattern
// has arrived after it, without waiting for a resynchronisation window,
// and with bare framing as soon as it is complete.
func TestFeederLive(t *testing.T) {
	rec := strRecord(t, "x")
	f := NewFeeder(Options{})
	f.Feed(rec)
	if f.Next() {
		t.Fatal("a storage record came out before anything followed it")
	}
	f.Feed(rec[:4])
	if !f.Next() || f.Message().Offset() != 0 || f.Next() {
		t.Fatal("a storage record followed by a header pattern did not come out alone")
	}
	b := NewFeeder(Options{Framing: FramingBare})
	b.Feed(rec[16:])
	if !b.Next() || b.Next() {
		t.Fatal("a bare record did not come out when complete")
	}
	b.End()
	if b.Next() || b.Err() != nil {
		t.Fatalf("after End: %v", b.Err())
	}
}

func FuzzFeeder(f *testing.F) {
	eachSeedRecord(f, func(m Message) { f.Add(m.Bytes(), uint8(0), uint16(7)) })
	f.Add(readCapture(f, "excerpt-irq-strtok-race"), uint8(1), uint16(300))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8, piece uint16) {
		opt := Options{Framing: Framing(mode % 3), MaxMessageLen: 64 + int(mode>>2)*16, NoResync: mode&0x80 != 0}
		want := scanResultOf(data, opt)
		got := feedResultOf(t, data, opt, func() int { return 1 + int(piece) })
		if !equalResults(got, want) {
			t.Fatalf("%+v: feeder %+v, scanner %+v", opt, got, want)
		}
	})
}

func BenchmarkFeeder(b *testing.B) {
	data := readCapture(b, "kpi-odd")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	f := NewFeeder(Options{})
	for b.Loop() {
		*f = Feeder{buf: f.buf[:0], s: Scanner{opt: f.s.opt, more: true, lookahead: f.s.lookahead}}
		for off := 0; off < len(data); off += 64 << 10 {
			f.Feed(data[off:min(off+64<<10, len(data))])
			for f.Next() {
			}
		}
		f.End()
		for f.Next() {
		}
	}
}
