package main

import (
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"golang.org/x/term"
)

// exportProgress draws one line on a terminal while an export runs:
// inputs done, bytes read and rows made, with their rates. Workers report
// to it concurrently; it draws nothing when stderr is not a terminal.
type exportProgress struct {
	mu      sync.Mutex
	w       io.Writer
	on      bool
	start   time.Time
	next    time.Time
	total   int64
	inputs  int
	done    int
	bytes   int64
	rows    int64
	drawn   bool
	lineLen int
}

func newExportProgress(total int64, inputs int) *exportProgress {
	f, ok := diag.(*os.File)
	on := ok && term.IsTerminal(int(f.Fd()))
	now := time.Now()
	return &exportProgress{w: diag, on: on, start: now, next: now, total: total, inputs: inputs}
}

func (p *exportProgress) add(rows, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows += rows
	p.bytes += bytes
	p.maybeDraw()
}

func (p *exportProgress) inputDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.maybeDraw()
}

func (p *exportProgress) maybeDraw() {
	if !p.on {
		return
	}
	if t := time.Now(); due(&p.next, t) {
		p.draw(t)
	}
}

func (p *exportProgress) draw(t time.Time) {
	secs := max(t.Sub(p.start).Seconds(), 1e-3)
	b := append([]byte("\rexport: "), strconv.Itoa(p.done)...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(p.inputs), 10)
	b = append(b, " inputs, "...)
	b = strconv.AppendInt(b, p.bytes>>20, 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, p.total>>20, 10)
	b = append(b, " MiB ("...)
	b = strconv.AppendFloat(b, float64(p.bytes)/(1<<20)/secs, 'f', 1, 64)
	b = append(b, " MiB/s), "...)
	b = strconv.AppendInt(b, p.rows, 10)
	b = append(b, " rows ("...)
	b = strconv.AppendFloat(b, float64(p.rows)/secs, 'f', 0, 64)
	b = append(b, " rows/s)"...)
	// Blank what a longer earlier line left.
	n := len(b)
	for i := n; i < p.lineLen; i++ {
		b = append(b, ' ')
	}
	p.lineLen = n
	p.w.Write(b)
	p.drawn = true
}

// finish draws the final state and ends the line, if one was drawn.
func (p *exportProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on && p.drawn {
		p.draw(time.Now())
		p.w.Write([]byte("\n"))
	}
}
