package rfc3339

import (
	"testing"
	"time"
)

// layouts are the time.Format layouts Append stands in for.
var layouts = map[int]string{
	Trimmed: time.RFC3339Nano,
	0:       "2006-01-02T15:04:05Z07:00",
	3:       "2006-01-02T15:04:05.000Z07:00",
	6:       "2006-01-02T15:04:05.000000Z07:00",
	9:       "2006-01-02T15:04:05.000000000Z07:00",
}

func check(t *testing.T, sec, nsec int64) {
	t.Helper()
	for digits, layout := range layouts {
		want := time.Unix(sec, nsec).UTC().Format(layout)
		if got := String(sec, nsec, digits); got != want {
			t.Fatalf("String(%d, %d, %d) = %q, time.Format gives %q", sec, nsec, digits, got, want)
		}
	}
}

func TestAgainstTimeFormat(t *testing.T) {
	const year = 365 * 86400
	for _, sec := range []int64{
		0, -1, 1, 86399, 86400, -86400, -86401,
		951782400,     // 2000-02-29
		951868800,     // 2000-03-01
		4107542400,    // 2100-02-28 + 1 day: no leap day
		-62135596800,  // 0001-01-01
		-62167219200,  // 0000-01-01
		-62167219201,  // -0001-12-31
		253402300799,  // 9999-12-31T23:59:59
		253402300800,  // 10000-01-01
		-377705116800, // -10000-01-01
		1 << 40, -(1 << 40),
	} {
		for _, nsec := range []int64{0, 1, 10, 123456789, 999999999, 500000000, 1000, -1, 1e9, 2e9 + 7} {
			check(t, sec, nsec)
		}
	}
	// A day at a time across eight centuries, and a pseudo-random walk
	// over ±300,000 years.
	for d := int64(-200 * year / 86400); d < 600*year/86400; d++ {
		check(t, d*86400+d%86400*7, d*7919%1e9)
	}
	x := uint64(1)
	for i := 0; i < 200000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		sec := int64(x%(600000*year)) - 300000*year
		check(t, sec, int64(x>>20)%1e9)
	}
}

func FuzzAgainstTimeFormat(f *testing.F) {
	f.Add(int64(0), int64(0))
	f.Add(int64(1700000000), int64(123456000))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		// time.Unix's internal representation wraps beyond about ±292
		// billion years; archives and DLT storage headers cannot reach it.
		const limit = 1 << 52
		if sec > limit || sec < -limit || nsec > limit || nsec < -limit {
			t.Skip()
		}
		check(t, sec, nsec)
	})
}

func TestAllocs(t *testing.T) {
	b := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { b = Append(b[:0], 1700000000, 5, Trimmed) }); n != 0 {
		t.Errorf("Append allocates %v times", n)
	}
}

func BenchmarkAppend(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], 1700000000, 123456789, Trimmed)
	}
}
