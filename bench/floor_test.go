package main

import (
	"strings"
	"testing"
	"time"
)

// TestFetchFloor checks the floor judgement on the rows of a real run
// (2026-12-07: libpcp 16.9 µs, transport floor 10.8 µs, decode 1.88 µs)
// and on one where the floor leaves room.
func TestFetchFloor(t *testing.T) {
	us := func(v float64) Stat { return Stat{Med: v * float64(time.Microsecond)} }
	got := fetchFloor(us(16.9), us(10.8), us(1.88), 1.5)
	if !strings.Contains(got, "1.33x libpcp at best") {
		t.Errorf("floor text %q does not give 16.9 / (10.8 + 1.88) = 1.33x", got)
	}
	if got := fetchFloor(us(30), us(10.8), us(1.88), 1.5); got != "" {
		t.Errorf("a floor of 12.7 µs under 30/1.5 = 20 µs is in reach, got %q", got)
	}
	f := Figure{MinRatio: 1.5, Stats: []Stat{us(14.6), {Med: 16.9e3, Peer: true}}}
	if m := f.met(); m != "no" {
		t.Errorf("met without a floor = %q, want no", m)
	}
	f.Floor = "out of reach"
	if m := f.met(); m != "floor" {
		t.Errorf("met with a floor = %q, want floor", m)
	}
	f.Stats[0].Med = 10e3
	if m := f.met(); m != "yes" {
		t.Errorf("met of a goal reached despite a floor text = %q, want yes", m)
	}
}

// TestPluginWalkFloor checks the plugin figures' floor judgement on the
// rows of a real run (kpi_decode, load 2-6: Node 1.42 ms, its decoder
// alone 1.03 ms in Node and 209 µs natively, native Go 330 µs), on one
// where the decoder alone is above the goal, and on walks whose
// checksums differ.
func TestPluginWalkFloor(t *testing.T) {
	us := func(v float64, sum uint64) Stat { return Stat{Med: v * float64(time.Microsecond), Sum: sum} }
	floor, note := pluginWalkFloor(us(1420, 0), us(1030, 7), us(209, 7), us(330, 0), 0.3)
	if !strings.Contains(floor, "0.20x native Go") || !strings.Contains(floor, "4.9 times") {
		t.Errorf("floor text %q does not give 209 / 1030 = 0.20x, 4.9 times", floor)
	}
	if !strings.Contains(note, "121 µs, 0.31x") || !strings.Contains(note, "would be 0.32x") {
		t.Errorf("note %q does not give render's 121 / 390 = 0.31x and 330 / 1030 = 0.32x", note)
	}
	floor, note = pluginWalkFloor(us(1420, 0), us(500, 7), us(209, 7), us(330, 0), 0.3)
	if floor != "" || !strings.Contains(note, "above the 0.3x goal") {
		t.Errorf("a walk at 0.42x is above the goal: floor %q, note %q", floor, note)
	}
	floor, note = pluginWalkFloor(us(1420, 0), us(1030, 7), us(209, 8), us(330, 0), 0.3)
	if floor != "" || !strings.Contains(note, "not valid") {
		t.Errorf("walks with different checksums: floor %q, note %q", floor, note)
	}
}
