package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The line names the input, the share done, the sizes and the speed, and
// is redrawn at most every progressEvery.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	clock := time.Unix(1000, 0)
	p := newProgressTo(&out, "big.dlt", 100<<20, true)
	p.now = func() time.Time { return clock }
	p.start = clock
	p.next = clock
	p.set(0)
	clock = clock.Add(100 * time.Millisecond)
	p.set(10 << 20) // too soon: not drawn
	clock = clock.Add(time.Second)
	p.set(50 << 20)
	p.finish()
	want := "\rbig.dlt: 0% (0 of 100 MiB)\x1b[K" +
		"\rbig.dlt: 50% (50 of 100 MiB, 45.5 MiB/s)\x1b[K" +
		"\r\x1b[K"
	if got := out.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// A disabled progress draws nothing and erases nothing.
func TestProgressDisabled(t *testing.T) {
	var out bytes.Buffer
	p := newProgressTo(&out, "small", 10, false)
	p.set(5)
	p.finish()
	if out.Len() != 0 {
		t.Errorf("drew %q", out.String())
	}
	r := &progressReader{r: strings.NewReader("abc"), p: p}
	if b, _ := r.Read(make([]byte, 8)); b != 3 || p.done != 3 {
		t.Errorf("read %d, progress %d", b, p.done)
	}
}
