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
