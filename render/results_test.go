package render

import (
	"bytes"
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
	if r := mergeLabelsRef(in); r.Error == nil || r.Error.Kind != "limit" {
		t.Errorf("%d sets: error %+v", MaxLabelSets+1, r.Error)
	}
	in = msgp.AppendArrayHeader(nil, 2)
	in = msgp.AppendString(in, `{"a":1}`)
	in = msgp.AppendInt(in, 7)
	if r := mergeLabelsRef(in); r.Error == nil || r.Error.Kind != "bad_input" {
		t.Errorf("an int among the sets: error %+v", r.Error)
	}
	in = msgp.AppendArrayHeader(nil, 2)
	in = msgp.AppendBytes(in, []byte(`{"a":1,"b":2}`))
	in = msgp.AppendString(in, `{"a":3}`)
	if r := mergeLabelsRef(in); r.Error != nil || r.JSON != `{"a":3,"b":2}` {
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
		r := canonLabelsRef([]byte(tc.in))
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
	in, err := os.ReadFile(filepath.Join("testdata", "excerpt-irq-strtok-race.dlt"))
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
	b, err := os.ReadFile(filepath.Join("testdata", "sample1.mmv"))
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

// TestAppendLabels: labels_canon's and labels_merge's in-place writer
// gives the bytes of canonLabelsRef's and mergeLabelsRef's values after whatever
// dst holds: the label sets of ../testdata (each one alone, the lines of
// PCP QA 561 as merges), good and failing sets, and damaged inputs.
func TestAppendLabels(t *testing.T) {
	var canon [][]byte
	var merges [][]byte
	for _, name := range []string{"merge-5.jsonl", "parse-10.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		canon = append(canon, bytes.Split(bytes.TrimSpace(b), []byte("\n"))...)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "561-mergelabels.input.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		sets := bytes.Split(line, []byte("\t"))
		in := msgp.AppendArrayHeader(nil, uint32(len(sets)))
		for i, s := range sets {
			if i%2 == 0 {
				in = msgp.AppendStringFromBytes(in, s)
			} else {
				in = msgp.AppendBytes(in, s)
			}
		}
		merges = append(merges, in)
	}
	canon = append(canon, nil, []byte(`{}`), []byte(`{"a":`), []byte(`{"a":1,"a":2}`), []byte(`{"a":{"b":{},"c":[1, "x"]},"d":null}`))
	merges = append(merges, nil, []byte{0x91, 7}, msgp.AppendArrayHeader(nil, MaxLabelSets+1))
	if len(canon) < 10 || len(merges) < 10 {
		t.Fatalf("%d sets, %d merges", len(canon), len(merges))
	}
	for k, ins := range [][][]byte{canon, merges} {
		merge := k == 1
		for _, whole := range ins {
			for i := -1; i < len(whole); i++ {
				in := bytes.Clone(whole)
				if i >= 0 {
					in[i] ^= 0x21
				}
				r := canonLabelsRef(in)
				if merge {
					r = mergeLabelsRef(in)
				}
				want, _ := r.MarshalMsg([]byte("prefix"))
				if got := AppendLabels([]byte("prefix"), in, merge); !bytes.Equal(got, want) {
					t.Fatalf("merge %v, %q (byte %d flipped): got %x\nwant %x", merge, in, i, got, want)
				}
			}
		}
	}
}
