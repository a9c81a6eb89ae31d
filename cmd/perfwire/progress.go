package main

import (
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/term"
)

// progressMin is the input size from which a command shows its progress:
// smaller files are done before a line would be worth drawing.
const progressMin = 50 << 20

// progressEvery is how often the line is redrawn.
const progressEvery = 200 * time.Millisecond

// progress draws one line on a terminal: how far a long read has got,
// its speed, and the name of the input. It draws nothing when it is
// disabled (stderr is not a terminal, or the input is small), so callers
// report to it unconditionally.
type progress struct {
	w       io.Writer
	name    string
	total   int64
	done    int64
	start   time.Time
	next    time.Time
	drawn   bool
	enabled bool
	now     func() time.Time
}

// newProgress returns the progress of reading total bytes of name, drawn
// on stderr when stderr is a terminal and total is at least progressMin.
func newProgress(name string, total int64) *progress {
	f, ok := diag.(*os.File)
	on := ok && total >= progressMin && term.IsTerminal(int(f.Fd()))
	return newProgressTo(diag, name, total, on)
}

func newProgressTo(w io.Writer, name string, total int64, enabled bool) *progress {
	p := &progress{w: w, name: name, total: total, enabled: enabled, now: time.Now}
	p.start = p.now()
	p.next = p.start // the first read draws at once: the user sees the work start
	return p
}

// set records that done bytes of the input are read, and redraws the
// line when it is time to.
func (p *progress) set(done int64) {
	p.done = done
	if !p.enabled {
		return
	}
	if t := p.now(); due(&p.next, t) {
		p.draw(t)
	}
}

// due reports whether a progress line whose next redraw is at *next is
// to be drawn at t, and when it is moves *next on by progressEvery.
func due(next *time.Time, t time.Time) bool {
	if t.Before(*next) {
		return false
	}
	*next = t.Add(progressEvery)
	return true
}

func (p *progress) draw(t time.Time) {
	b := append([]byte("\r"), p.name...)
	b = append(b, ": "...)
	pct := int64(100)
	if p.total > 0 {
		pct = min(p.done*100/p.total, 100)
	}
	b = strconv.AppendInt(b, pct, 10)
	b = append(b, "% ("...)
	b = strconv.AppendInt(b, p.done>>20, 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, p.total>>20, 10)
	b = append(b, " MiB"...)
	if secs := t.Sub(p.start).Seconds(); secs > 0 {
		b = append(b, ", "...)
		b = strconv.AppendFloat(b, float64(p.done)/(1<<20)/secs, 'f', 1, 64)
		b = append(b, " MiB/s"...)
	}
	b = append(b, ")\x1b[K"...) // erase what a longer earlier line left
	p.w.Write(b)
	p.drawn = true
}

// finish erases the line, so the command's own output starts clean.
func (p *progress) finish() {
	if p.drawn {
		io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// progressReader reports every read to a progress line.
type progressReader struct {
	r io.Reader
	p *progress
	n int64
}

func (r *progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.n += int64(n)
	r.p.set(r.n)
	return n, err
}

// openWithProgress opens a file for reading; reads through the returned
// reader draw a progress line (see newProgress). done erases the line and
// closes the file.
func openWithProgress(name string) (r io.Reader, done func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	p := newProgress(name, size)
	return &progressReader{r: f, p: p}, func() { p.finish(); f.Close() }, nil
}
