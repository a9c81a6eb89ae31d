package dltkpi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/dlt"
)

// TestFromDLT reads each capture with package dlt's scanner and checks
// that PushDLT sees exactly what the test reader's payloads give: the
// same stats, no NOAR mismatch, nothing skipped by the scanner.
func TestFromDLT(t *testing.T) {
	for _, name := range captures {
		data, err := os.ReadFile("testdata/" + name + ".dlt")
		if err != nil {
			t.Fatal(err)
		}
		_, want, wantOpen := replay(t, name, Options{})
		r := NewReassembler(Options{})
		s := dlt.NewScanner(data, dlt.Options{})
		i := 0
		capMsgs := readCapture(t, name)
		for s.Next() {
			m := s.Message()
			km, src, err := FromDLT(m)
			if capMsgs[i].isKPI() != (err == nil) {
				t.Fatalf("%s #%d: FromDLT: %v", name, i, err)
			}
			if err == nil && (src != capMsgs[i].sourceWithNOAR() || km.Arguments != capMsgs[i].noar) {
				t.Fatalf("%s #%d: source %+v", name, i, src)
			}
			if err != nil && !errors.Is(err, ErrNotKPI) {
				t.Fatalf("%s #%d: %v", name, i, err)
			}
			r.PushDLT(Selector{}, m)
			for r.Next() {
			}
			i++
		}
		if s.Err() != nil || s.Skipped() != 0 || i != len(capMsgs) {
			t.Fatalf("%s: scanner: %v, skipped %d, %d messages", name, s.Err(), s.Skipped(), i)
		}
		open := r.OpenGroups()
		r.Flush()
		for r.Next() {
		}
		if st := r.Stats(); st != want || open != wantOpen {
			t.Errorf("%s: stats %+v\nwant %+v", name, r.Stats(), want)
		}
	}
}

// TestFromDLTBigEndian: a KPI message from a big-endian target (MSBF)
// built with dlt's encoder parses like its little-endian twin; messages
// of another context or non-verbose ones are not KPI.
func TestFromDLTBigEndian(t *testing.T) {
	build := func(h dlt.Header, args ...string) dlt.Message {
		b := dlt.NewBuilder(nil, h)
		for _, a := range args {
			b.String(a)
		}
		rec, err := b.Finish()
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := dlt.ConsumeMessage(rec, dlt.Options{Framing: dlt.FramingBare})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	h := dlt.LogHeader(dlt.MakeID("ECU1"), DefaultAppID, DefaultContextID, dlt.LevelInfo, 14698, 11727820)
	h.Counter = 111
	le := build(h, "IRQ", "LOC;cpu0:350458;cpu1:343627;", "ERR;cpu0:0;")
	h.Order = binary.BigEndian
	be := build(h, "IRQ", "LOC;cpu0:350458;cpu1:343627;", "ERR;cpu0:0;")
	if bytes.Equal(le.Payload(), be.Payload()) {
		t.Fatal("big-endian twin has the same payload")
	}
	var got [2][]string
	for i, m := range []dlt.Message{le, be} {
		km, src, err := FromDLT(m)
		if err != nil {
			t.Fatal(err)
		}
		if src.SEID != 14698 || src.TMSP != 11727820 || src.MCNT != 111 || src.NOAR != 3 || src.ECU != dlt.MakeID("ECU1") {
			t.Errorf("source %+v", src)
		}
		for d, err := range km.All() {
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], string(d.IRQ)+":"+strconv.Itoa(d.CPUs))
		}
	}
	if !slices.Equal(got[0], got[1]) || len(got[0]) != 2 {
		t.Errorf("LE %v, BE %v", got[0], got[1])
	}
	other := dlt.LogHeader(dlt.MakeID("ECU1"), dlt.MakeID("SYS"), dlt.MakeID("PROC"), dlt.LevelInfo, 1, 1)
	if _, _, err := FromDLT(build(other, "NEW", "BEG")); !errors.Is(err, ErrNotKPI) {
		t.Errorf("other APID: %v", err)
	}
	sel := Selector{AppID: dlt.MakeID("SYS"), ContextID: dlt.MakeID("PROC")}
	if m, _, err := sel.FromDLT(build(other, "NEW", "BEG")); err != nil || m.Sync != SyncBegin {
		t.Errorf("selector for SYS/PROC: %v", err)
	}
	h.Verbose = false
	if _, _, err := FromDLT(build(h)); !errors.Is(err, ErrNotKPI) {
		t.Errorf("non-verbose: %v", err)
	}
}
