package dlt

import (
	"bytes"
	"testing"
)

// scanArgs walks every message and argument of data, touching each
// value the way a consumer would, and returns the number of messages.
func scanArgs(data []byte) (msgs, args int) {
	s := NewScanner(data, Options{})
	for s.Next() {
		m := s.Message()
		msgs++
		if !m.Verbose() {
			m.MessageID()
			continue
		}
		as := m.ArgScanner()
		for as.Next() {
			a := as.Arg()
			_ = a.Bytes()
			args++
		}
	}
	return msgs, args
}

// TestScanAllocs: scanning messages and decoding arguments allocate
// nothing, with the Next/ArgScanner loops and with the iterators.
func TestScanAllocs(t *testing.T) {
	data := readCapture(t, "kpi-odd")
	if n := testing.AllocsPerRun(20, func() { scanArgs(data) }); n != 0 {
		t.Errorf("scanner: %v allocations per capture", n)
	}
	if n := testing.AllocsPerRun(20, func() {
		s := NewScanner(data, Options{})
		for m, err := range s.All() {
			if err != nil {
				panic(err)
			}
			if !m.Verbose() {
				continue // Args would fail with ErrNotVerbose, which allocates
			}
			for a, err := range m.Args() {
				if err == nil {
					_ = a.Bytes()
				}
			}
		}
	}); n != 0 {
		t.Errorf("iterators: %v allocations per capture", n)
	}
	var buf []byte
	if n := testing.AllocsPerRun(20, func() {
		s := NewScanner(data, Options{})
		for s.Next() {
			if !s.Message().Verbose() {
				continue
			}
			for a := range s.Message().Args() {
				buf, _ = a.AppendText(buf[:0])
			}
		}
	}); n != 0 {
		t.Errorf("AppendText: %v allocations per capture", n)
	}
	if n := testing.AllocsPerRun(20, func() {
		s := NewScanner(data, Options{})
		for s.Next() {
			buf, _ = s.Message().AppendText(buf[:0])
		}
	}); n != 0 {
		t.Errorf("Message.AppendText: %v allocations per capture", n)
	}
	// Encoding into a buffer with room allocates nothing either.
	out := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(20, func() {
		b := AppendStorageHeader(out[:0], StorageHeader{Seconds: 1})
		m := NewBuilder(b, LogHeader(MakeID("ECU1"), MakeID("PROC"), MakeID("PROC"), LevelInfo, 1, 2))
		m.String("ACT")
		m.String("a string longer than the 32 bytes a conversion may keep on the stack")
		m.Uint(42, 32)
		m.Arg(ArgSpec{Kind: KindFloat, Bits: 64, Float: 1.5})
		if _, err := m.Finish(); err != nil {
			panic(err)
		}
	}); n != 0 {
		t.Errorf("encoder: %v allocations per message", n)
	}
}

// TestReaderAllocs: a Reader allocates itself and its buffer once, and
// nothing per message.
func TestReaderAllocs(t *testing.T) {
	data := readCapture(t, "kpi-huge-argv0")
	br := bytes.NewReader(data)
	if n := testing.AllocsPerRun(5, func() {
		br.Reset(data)
		rd := NewReader(br, Options{MaxMessageLen: 2000})
		for rd.Next() {
			if !rd.Message().Verbose() {
				continue
			}
			for a := range rd.Message().Args() {
				_ = a.Bytes()
			}
		}
		if rd.Err() != nil {
			panic(rd.Err())
		}
	}); n > 2 {
		t.Errorf("%v allocations to read %d bytes", n, len(data))
	}
}

// TestReaderResetAllocs: a Reader Reset onto another input keeps the
// buffer it grew, so reading the input again allocates nothing.
func TestReaderResetAllocs(t *testing.T) {
	data := readCapture(t, "kpi-huge-argv0")
	br := bytes.NewReader(data)
	rd := NewReader(br, Options{})
	for rd.Next() {
	}
	if n := testing.AllocsPerRun(5, func() {
		br.Reset(data)
		rd.Reset(br)
		for rd.Next() {
		}
		if rd.Err() != nil {
			panic(rd.Err())
		}
	}); n != 0 {
		t.Errorf("%v allocations to read %d bytes again after Reset", n, len(data))
	}
}
