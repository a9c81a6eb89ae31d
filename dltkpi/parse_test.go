package dltkpi

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// payload builds a little-endian verbose payload of string arguments.
func payload(args ...string) []byte {
	var b []byte
	for _, a := range args {
		b = AppendArgument(b, []byte(a))
	}
	return b
}

func TestParseBadInput(t *testing.T) {
	uint32Arg := binary.LittleEndian.AppendUint32(nil, 0x43) // UINT, 32 bit
	uint32Arg = binary.LittleEndian.AppendUint32(uint32Arg, 7)
	act := payload("ACT", "1;2;3;4;5;6")
	for _, tc := range []struct {
		name string
		in   []byte
		p    Parser
		kind error
		off  int64
	}{
		{"empty payload", nil, Parser{}, ErrCount, 0},
		{"argument header cut", []byte{0, 2, 0, 0, 4}, Parser{}, ErrTruncated, 0},
		{"string past the end", payload("NEW")[:8], Parser{}, ErrTruncated, 4},
		{"second argument cut", act[:len(act)-3], Parser{}, ErrTruncated, 14},
		{"second header cut", act[:12], Parser{}, ErrTruncated, 10},
		{"not a string", append(payload("NEW"), uint32Arg...), Parser{}, ErrType, 10},
		{"raw instead of string", append(binary.LittleEndian.AppendUint32(nil, 0x400), 1, 0, 0), Parser{}, ErrType, 0},
		{"unknown kind", payload("FOO", "1"), Parser{}, ErrType, 0},
		{"lower-case kind", payload("new", "1;2;x"), Parser{}, ErrType, 0},
		{"kind only", payload("STP"), Parser{}, ErrCount, 10},
		{"too many arguments", payload("STP", "1", "2", "3"), Parser{MaxArguments: 3}, ErrLimit, 26},
		{"big-endian read as little", payload("STP", "1")[:0:0], Parser{}, ErrCount, 0},
		{"little-endian read as big", payload("STP", "1"), Parser{Order: binary.BigEndian}, ErrType, 0},
	} {
		_, err := tc.p.Parse(tc.in)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.kind)
			continue
		}
		if pe, ok := errors.AsType[*ParseError](err); !ok || pe.Offset != tc.off {
			t.Errorf("%s: %v: want offset %d", tc.name, err, tc.off)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "dltkpi: ") || strings.Contains(msg[len("dltkpi: "):], "dltkpi") {
			t.Errorf("%s: %q does not name the format exactly once", tc.name, msg)
		}
	}
	// The fourth argument breaks MaxArguments 3: the error says both.
	_, err := Parser{MaxArguments: 3}.Parse(payload("STP", "1", "2", "3"))
	if pe, ok := errors.AsType[*ParseError](err); !ok || pe.Value != 4 || pe.Limit != 3 || !pe.HasValue || !pe.HasLimit {
		t.Errorf("too many arguments: %v", err)
	}
}

// Each zero field of the options takes its own documented default.
func TestOptionsDefaults(t *testing.T) {
	r := NewReassembler(Options{FloodRun: 1})
	if want := (reassemblerLimits{MaxGroupDatasets: 1 << 16, MaxGroupBytes: 16 << 20, MaxGroupAge: 600000, FloodRun: 1, MaxSessions: 8}); r.limits != want {
		t.Errorf("reassembler options %+v, want %+v", r.limits, want)
	}
	tr := NewTracker(Options{MaxIRQs: 2})
	if want := (trackerLimits{MaxProcesses: 1 << 16, MaxIRQs: 2, MaxIRQCPUs: 1024, MaxTombstones: 4096, MinIRQRows: 4}); tr.limits != want {
		t.Errorf("tracker options %+v, want %+v", tr.limits, want)
	}
}

func TestParseAccepts(t *testing.T) {
	// A VARI string carries a name between its length and its bytes.
	vari := binary.LittleEndian.AppendUint32(nil, 0x200|0x800)
	vari = binary.LittleEndian.AppendUint16(vari, 3)
	vari = binary.LittleEndian.AppendUint16(vari, 2)
	vari = append(vari, "n\x0012\x00"...)
	// libdlt always writes the NUL; a string without one is still read.
	noNUL := binary.LittleEndian.AppendUint32(nil, 0x200|0x8000)
	noNUL = binary.LittleEndian.AppendUint16(noNUL, 2)
	noNUL = append(noNUL, "34"...)
	be := binary.BigEndian.AppendUint32(nil, 0x200)
	be = binary.BigEndian.AppendUint16(be, 4)
	be = append(be, "STP\x00"...)
	be = binary.BigEndian.AppendUint32(be, 0x200)
	be = binary.BigEndian.AppendUint16(be, 2)
	be = append(be, "9\x00"...)
	// A zero-length string (no NUL to drop; its header ends in 0) between
	// two datasets.
	empty := append(payload("IRQ", "24;cpu0:1;"), 0, 2, 0, 0, 0, 0)
	empty = AppendArgument(empty, []byte("ERR;cpu0:0;"))
	for _, tc := range []struct {
		name     string
		in       []byte
		p        Parser
		kind     Kind
		sync     Sync
		datasets int
		frags    int
	}{
		{"sync BEG", payload("NEW", "BEG"), Parser{}, KindNEW, SyncBegin, 0, 0},
		{"sync END", payload("IRQ", "END"), Parser{}, KindIRQ, SyncEnd, 0, 0},
		{"BEG with a third argument is data", payload("STP", "BEG", "1"), Parser{}, KindSTP, SyncNone, 2, 0},
		{"VARI name and missing NUL", append(append(payload("STP"), vari...), noNUL...), Parser{}, KindSTP, SyncNone, 2, 0},
		{"big-endian", be, Parser{Order: binary.BigEndian}, KindSTP, SyncNone, 1, 0},
		{"fragment only", payload("NEW", "1;2;abc"+TruncationMarker), Parser{}, KindNEW, SyncNone, 0, 1},
		{"marker only", payload("CHK", "1;a", TruncationMarker), Parser{}, KindCHK, SyncNone, 1, 1},
		{"empty string", empty, Parser{}, KindIRQ, SyncNone, 3, 0},
	} {
		m, err := tc.p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if m.Kind != tc.kind || m.Sync != tc.sync || m.Datasets != tc.datasets || m.Fragments != tc.frags {
			t.Errorf("%s: got %v %v %d datasets %d fragments", tc.name, m.Kind, m.Sync, m.Datasets, m.Fragments)
		}
	}
}

func TestParseDatasetBadInput(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		in   string
		err  error
		off  int64
	}{
		{KindNEW, "1;2", ErrSyntax, 3},
		{KindNEW, "x;1;a", ErrSyntax, 0},
		{KindNEW, ";1;a", ErrSyntax, 0},
		{KindNEW, "1;;cmd", ErrSyntax, 2},
		{KindNEW, "1 ;2;cmd", ErrSyntax, 1},
		{KindNEW, "2147483648;1;a", ErrRange, 0},
		{KindNEW, "1;-2147483649;a", ErrRange, 3},
		{KindNEW, "99999999999999999999999;1;a", ErrRange, 0},
		{KindCHK, "12", ErrSyntax, 2},
		{KindCHK, "", ErrSyntax, 0},
		{KindSTP, "12a", ErrSyntax, 2},
		{KindSTP, "", ErrSyntax, 0},
		{KindSTP, "-", ErrSyntax, 1},
		{KindSTP, "1;", ErrSyntax, 1},
		{KindACT, "1;2;3;4;5", ErrSyntax, 9},
		{KindACT, "1;2;3;4;5;6;", ErrSyntax, 11},
		{KindACT, "1;-2;3;4;5;6", ErrSyntax, 2},
		{KindACT, "1;2;3;4;18446744073709551616;6", ErrRange, 8},
		{KindACT, "1;2;9223372036854775808;4;5;6", ErrRange, 4},
		{KindIRQ, ";cpu0:1;", ErrSyntax, 0},
		{KindIRQ, "24", ErrSyntax, 0},
		{KindIRQ, "24;cpu0:1", ErrSyntax, 9},
		{KindIRQ, "24;cpu0:x;", ErrSyntax, 8},
		{KindIRQ, "24;cpux:1;", ErrSyntax, 6},
		{KindIRQ, "24;CPU0:1;", ErrSyntax, 3},
		{KindIRQ, "24;cpu0:1;cpu1", ErrSyntax, 14},
		{KindIRQ, "24;cpu0:9223372036854775808;", ErrRange, 8},
		{KindIRQ, "24;cpu0:-9223372036854775809;", ErrRange, 9},
		{KindNone, "1", ErrType, 0},
	} {
		_, err := ParseDataset(tc.kind, []byte(tc.in))
		if !errors.Is(err, tc.err) {
			t.Errorf("%v %q: err %v, want %v", tc.kind, tc.in, err, tc.err)
			continue
		}
		if pe, ok := errors.AsType[*ParseError](err); !ok || pe.Offset != tc.off {
			t.Errorf("%v %q: %v: want offset %d", tc.kind, tc.in, err, tc.off)
		}
	}
}

// TestParseDatasetShapes covers the shapes docs/dlt-kpi.md §3 lists from real
// captures, including the corrupted IRQ values of §5.3.
func TestParseDatasetShapes(t *testing.T) {
	d, err := ParseDataset(KindNEW, []byte("15178;14985;semi;colon;;name;1"))
	if err != nil || d.PID != 15178 || d.PPID != 14985 || string(d.Cmd) != "semi;colon;;name;1" {
		t.Errorf("NEW split: %+v %v", d, err)
	}
	d, err = ParseDataset(KindCHK, []byte("15199;/LAB/dlt-lab/bin/odd comm;x"))
	if err != nil || d.PID != 15199 || string(d.Cmd) != "/LAB/dlt-lab/bin/odd comm;x" {
		t.Errorf("CHK split: %+v %v", d, err)
	}
	d, err = ParseDataset(KindACT, []byte("15209;265;4464640;353;7808;0"))
	if err != nil || d.PID != 15209 || d.CPU != 265 || d.RSS != 4464640 || d.Ctx != 353 || d.IO != 7808 || d.IOWait != 0 {
		t.Errorf("ACT: %+v %v", d, err)
	}
	for in, want := range map[string][]IRQCount{
		"24;cpu0:1;cpu1:0;":                   {{0, 1}, {1, 0}},
		"ERR;cpu0:0;":                         {{0, 0}},
		"123;":                                nil,
		"24;cpu0:-1;cpu1:0;":                  {{0, -1}, {1, 0}},
		"24;cpu0:9223372036854775807;cpu1:0;": {{0, 1<<63 - 1}, {1, 0}},
	} {
		d, err := ParseDataset(KindIRQ, []byte(in))
		got := d.AppendCounts(nil)
		if err != nil || d.CPUs != len(want) || len(got) != len(want) {
			t.Errorf("IRQ %q: %+v %v", in, got, err)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("IRQ %q: %+v, want %+v", in, got, want)
			}
		}
	}
	d, err = ParseDataset(KindNEW, []byte("18176"+TruncationMarker))
	if err != nil || !d.Truncated || d.PID != 0 {
		t.Errorf("fragment: %+v %v", d, err)
	}
	if _, ok := ParseFragment(KindNEW, []byte("18176"+TruncationMarker)); ok {
		t.Error("ParseFragment trusted a pid cut by the marker")
	}
	if _, ok := ParseFragment(KindNEW, []byte("18176;149"+TruncationMarker)); ok {
		t.Error("ParseFragment trusted a ppid cut by the marker")
	}
	if f, ok := ParseFragment(KindNEW, []byte("19905;19621;HUGE-HH"+TruncationMarker)); !ok || f.PID != 19905 || f.PPID != 19621 || string(f.Cmd) != "HUGE-HH" {
		t.Errorf("ParseFragment: %+v %v", f, ok)
	}
}

// TestMalformedDatasetOffset: a malformed dataset does not fail its
// message, and its error's offset counts from the start of the payload.
func TestMalformedDatasetOffset(t *testing.T) {
	m, err := Parse(payload("ACT", "1;2;3;4;5;6", "1;x", "7;2;3;4;5;6"))
	if err != nil {
		t.Fatal(err)
	}
	var pids []int32
	for d, err := range m.All() {
		if err != nil {
			if pe, ok := errors.AsType[*ParseError](err); !ok || !errors.Is(err, ErrSyntax) || pe.Offset != 36 {
				t.Errorf("malformed dataset error %v, want ErrSyntax at 36", err)
			}
			continue
		}
		pids = append(pids, d.PID)
	}
	if len(pids) != 2 || pids[0] != 1 || pids[1] != 7 {
		t.Errorf("datasets %v", pids)
	}
}

// TestClones: clones survive the caller overwriting its buffer.
func TestClones(t *testing.T) {
	buf := payload("NEW", "15178;14985;semi;colon;;name;1")
	m, err := Parse(buf)
	if err != nil {
		t.Fatal(err)
	}
	mc := m.Clone()
	r := NewReassembler(Options{})
	r.Push(Source{}, m)
	if !r.Next() {
		t.Fatal("no event")
	}
	ev := r.Event().Clone()
	for i := range buf {
		buf[i] = 'X'
	}
	for d := range mc.All() {
		if d.PID != 15178 || string(d.Cmd) != "semi;colon;;name;1" {
			t.Errorf("message clone: %+v", d)
		}
	}
	if string(ev.Dataset.Cmd) != "semi;colon;;name;1" || string(ev.Dataset.Raw) != "15178;14985;semi;colon;;name;1" {
		t.Errorf("event clone: %q", ev.Dataset.Raw)
	}
}
