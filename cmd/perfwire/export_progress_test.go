package main

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

// TestExportProgressLine: on a terminal the progress line shows inputs
// done, MiB read of the total with MiB/s, and rows with rows/s, redrawn
// in place and ended with a newline; off a terminal it draws nothing.
func TestExportProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &exportProgress{w: &b, on: true, start: time.Now().Add(-2 * time.Second), total: 100 << 20, inputs: 3}
	p.add(1_000_000, 40<<20)
	p.inputDone()
	p.finish()
	line := regexp.MustCompile(`^\rexport: 0/3 inputs, 40 of 100 MiB \([\d.]+ MiB/s\), 1000000 rows \(\d+ rows/s\)`)
	if !line.Match(b.Bytes()) || !bytes.HasSuffix(b.Bytes(), []byte("\n")) || !bytes.Contains(b.Bytes(), []byte("\rexport: 1/3 inputs")) {
		t.Errorf("progress output %q", b.String())
	}
	b.Reset()
	off := &exportProgress{w: &b, start: time.Now(), total: 1, inputs: 1}
	off.add(5, 5)
	off.inputDone()
	off.finish()
	if b.Len() != 0 {
		t.Errorf("drew %q off a terminal", b.String())
	}
}
