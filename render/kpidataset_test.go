package render

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

// TestAppendKPIDatasetForms checks kpi_decode's in-place writer against
// the KPIMessages decodeKPIRef builds, marshalled, on datasets the captures
// hold few or none of: every MessagePack form of a pid and of an IRQ count
// (the smallest and largest of each), texts of every string header's
// length and at its edges, texts that are UTF-8 but not ASCII and texts
// that are not UTF-8 (in a command, an IRQ's name and a fragment),
// malformed datasets, more than 15 counts, and big-endian payloads.
func TestAppendKPIDatasetForms(t *testing.T) {
	var pids []int32
	for _, v := range []int64{0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 1<<31 - 1} {
		pids = append(pids, int32(v), int32(-v))
	}
	pids = append(pids, -32, -33, -128, -129, -32768, -32769, -1<<31)
	var counts []int64
	for _, v := range []int64{0, 1, 127, 128, 255, 256, 32767, 32768, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<63 - 1} {
		counts = append(counts, v, -v)
	}
	counts = append(counts, -32, -33, -128, -129, -32768, -32769, -1<<31, -1<<31-1, -1<<63)
	var texts []string
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1000, 4000} {
		texts = append(texts, strings.Repeat("abcdefghij", n/10+1)[:n])
	}
	texts = append(texts, "(kworker/0:1-événements)", "日本語のコマンド/usr/bin/x", "bad\xffcmd", "\xc3(", strings.Repeat("\xe2\x82", 20),
		"ascii-then-bad-at-the-end-\xff", "\x80", strings.Repeat("a", 300)+"\xfe")
	var args [][]string // the arguments of each message
	for i, pid := range pids {
		ppid := pids[len(pids)-1-i]
		args = append(args, []string{"NEW", string(dltkpi.AppendNew(nil, pid, ppid, []byte("/bin/sh")))},
			[]string{"CHK", string(dltkpi.AppendCheck(nil, pid, []byte("(sh)")))},
			[]string{"STP", string(dltkpi.AppendStop(nil, pid))})
	}
	for _, s := range texts {
		if s == "" {
			continue // no IRQ's name is empty; NEW and CHK below
		}
		args = append(args, []string{"NEW", string(dltkpi.AppendNew(nil, 4242, 1, []byte(s)))},
			[]string{"CHK", string(dltkpi.AppendCheck(nil, 77, []byte(s)))},
			[]string{"IRQ", string(dltkpi.AppendIRQ(nil, []byte(strings.ReplaceAll(s, ";", ",")), []int64{1, 200}))},
			[]string{"CHK", s[:len(s)/2] + dltkpi.TruncationMarker})
	}
	args = append(args, []string{"NEW", "1;2;"}, []string{"CHK", "3;"})
	for n := 1; n <= len(counts); n += 7 {
		args = append(args, []string{"IRQ", string(dltkpi.AppendIRQ(nil, []byte("LOC"), counts[:n]))})
	}
	args = append(args, []string{"IRQ", string(dltkpi.AppendIRQ(nil, []byte("NMI"), counts))},
		[]string{"IRQ", "0;cpu0:-0;cpu1:0000000000000000000000012;cpu2:-00009223372036854775808;"},
		[]string{"IRQ", "0;cpu0:1;cpu1"}, []string{"IRQ", "0;cpu0:99999999999999999999;"},
		[]string{"CHK", "x;sh"}, []string{"NEW", "1;99999999999;sh"}, []string{"STP", "-"},
		[]string{"STP", "-2147483648"}, []string{"CHK", "+1;sh"}, []string{"STP", "2147483648"},
		[]string{"ACT", "1;2;3;4;5;6"}, []string{"ACT", "1;2;3;4;5"}, []string{"IRQ", "bad\xff;cpu0:x;"},
		[]string{"NEW", "BEG"}, []string{"NEW", "END"})
	var in []byte
	for _, order := range []binary.ByteOrder{nil, binary.BigEndian} {
		for i, a := range args {
			// Every form of the timestamp, and others.
			tmsp := [...]uint32{0, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, uint32(i * 977)}[i%9]
			h := dlt.LogHeader(dlt.MakeID("ECU1"), dltkpi.DefaultAppID, dltkpi.DefaultContextID, dlt.LevelInfo, 1, tmsp)
			h.Order = order
			b := dlt.NewBuilder(nil, h)
			for _, s := range a {
				b.String(s)
			}
			// Three datasets in a message, the text's as the middle one.
			if len(a) == 2 && a[1] != "BEG" && a[1] != "END" {
				b.String(a[1])
				b.String("1")
			}
			rec, err := b.Finish()
			if err != nil {
				t.Fatalf("%q: %v", a, err)
			}
			in = append(dlt.AppendStorageHeader(in, dlt.StorageHeader{Seconds: uint32(i), ECU: dlt.MakeID("ECU1")}), rec...)
		}
	}
	r := decodeKPIRef(in, 0, dlt.FramingStorage)
	if len(r.Messages) != 2*len(args) || r.Error != nil {
		t.Fatalf("%d messages of %d, error %v", len(r.Messages), 2*len(args), r.Error)
	}
	want, err := r.MarshalMsg([]byte("head"))
	if err != nil {
		t.Fatal(err)
	}
	got := AppendKPIMessages([]byte("head"), in, 0, dlt.FramingStorage)
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%d bytes, want %d; from byte %d:\n got %q\nwant %q", len(got), len(want), i,
			got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
	}
	// The room checks, from buffers of small capacities.
	for c := 0; c < 300; c += 13 {
		got := AppendKPIMessages(make([]byte, 4, 4+c), in, 0, dlt.FramingStorage)
		if !bytes.Equal(got[4:], want[4:]) {
			t.Fatalf("capacity %d: differs", c)
		}
	}
}
