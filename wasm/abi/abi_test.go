package abi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tinylib/msgp/msgp"
)

func TestMergeLabelsLimits(t *testing.T) {
	in := msgp.AppendArrayHeader(nil, MaxLabelSets+1)
	for range MaxLabelSets + 1 {
		in = msgp.AppendString(in, `{"a":1}`)
	}
	if r := MergeLabels(in); r.Error == nil || r.Error.Kind != "limit" {
		t.Errorf("%d sets: error %+v", MaxLabelSets+1, r.Error)
	}
	in = msgp.AppendArrayHeader(nil, 2)
	in = msgp.AppendString(in, `{"a":1}`)
	in = msgp.AppendInt(in, 7)
	if r := MergeLabels(in); r.Error == nil || r.Error.Kind != "bad_input" {
		t.Errorf("an int among the sets: error %+v", r.Error)
	}
	in = msgp.AppendArrayHeader(nil, 2)
	in = msgp.AppendBytes(in, []byte(`{"a":1,"b":2}`))
	in = msgp.AppendString(in, `{"a":3}`)
	if r := MergeLabels(in); r.Error != nil || r.JSON != `{"a":3,"b":2}` {
		t.Errorf("bin and str sets: %q, %+v", r.JSON, r.Error)
	}
}

// TestCanonLabelsErrorKinds: a label set's failures reach the host as the
// stable codes of their kinds, with the format and the offset.
func TestCanonLabelsErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		in, kind string
		off      int64
	}{
		{`{"a":`, "truncated", 5},
		{`{"a":1}x`, "syntax", 7},
		{`{"a":1,"a":2}`, "labels_duplicate", 8},
		{`{"bad-key":1}`, "labels_name", 2},
		{`{"a":[[1]]}`, "labels_value", 6},
	} {
		r := CanonLabels([]byte(tc.in))
		if r.Error == nil || r.Error.Kind != tc.kind || r.Error.Format != "labels" || r.Error.Offset != tc.off {
			t.Errorf("%s: error %+v, want kind %s at offset %d", tc.in, r.Error, tc.kind, tc.off)
		}
	}
}

// TestDecodeEventsErrorKinds: an event array's failures reach the host as
// the stable codes of internal/wire's shared kinds.
func TestDecodeEventsErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		kind string
		off  int64
	}{
		{[]byte{0x09, 0, 0}, "truncated", 0},
		{[]byte{0x01, 0, 0, 8, 0, 0, 0, 0}, "type", 0},
		{[]byte{0x09, 0, 0, 4, 0, 0, 0, 0}, "length", 0},
		{[]byte{0x09, 0, 0, 8, 0xff, 0xff, 0xff, 0xff}, "count", 4},
		// One record: tv_usec 10^6 is out of range in strict mode.
		{[]byte{0x09, 0, 0, 24, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40, 0, 0, 0, 1, 0, 0, 0, 0}, "range", 12},
	} {
		r := DecodeEvents(tc.in)
		if r.Error == nil || r.Error.Kind != tc.kind || r.Error.Format != "eventrec" || r.Error.Offset != tc.off {
			t.Errorf("% x: error %+v, want kind %s at offset %d", tc.in, r.Error, tc.kind, tc.off)
		}
	}
}

// TestStepAfterDone: a finished session keeps answering Done, with no
// samples and the same offset, and its table does not change.
func TestStepAfterDone(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "testdata", "excerpt-irq-strtok-race.dlt"))
	if err != nil {
		t.Fatal(err)
	}
	s := NewKPISession(in)
	st := s.Step(0)
	if !st.Done || st.Offset != len(in) || st.Total != len(in) || st.Error != nil {
		t.Fatalf("one step over everything: %+v", st)
	}
	tb := s.Table()
	t1, _ := tb.MarshalMsg(nil)
	again := s.Step(10)
	tb = s.Table()
	t2, _ := tb.MarshalMsg(nil)
	if !again.Done || len(again.Samples) != 0 || again.Offset != st.Offset || string(t1) != string(t2) {
		t.Errorf("step after done: %+v", again)
	}
}

// A refused MMV file reports the stable code of its kind: a shared one,
// or one of package mmv's own.
func TestReadMMVErrorKinds(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "sample1.mmv"))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), b...)
	bad[3] = 'X' // the magic is "MMV\0"
	if r := ReadMMV(bad, false); r.Error == nil || r.Error.Kind != "magic" || r.Error.Offset != 0 || r.Error.Format != "mmv" {
		t.Errorf("bad magic: %+v", r.Error)
	}
	bad = append(bad[:0], b...)
	clear(bad[16:24]) // g2 = 0 differs from g1: the writer has not finished
	if r := ReadMMV(bad, false); r.Error == nil || r.Error.Kind != "mmv_generation" || r.Error.Offset != 16 || r.Error.Field != "header.g2" {
		t.Errorf("g2 zero: %+v", r.Error)
	}
}
