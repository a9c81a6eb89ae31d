package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/mmv"
)

// mmvSeeds returns the MMV images written by libpcp_mmv and by speed.
func mmvSeeds(tb testing.TB) [][]byte {
	return seedFiles(tb, "testdata/mmv/*.mmv")
}

// checkMMV opens img as pmdammv would and reads everything a viewer
// shows: names, help, instances, every value and every label, whose
// JSON goes to package labels as pmdammv hands it to libpcp. It returns
// the number of labels that parsed.
func checkMMV(t *testing.T, img []byte, o mmv.Options) int {
	t.Helper()
	r, err := mmv.Parse(img, o)
	if err != nil {
		if _, ok := errors.AsType[*mmv.ParseError](err); !ok {
			t.Fatalf("NewReader error %v (%T) is not a *ParseError", err, err)
		}
		return 0
	}
	var name []byte
	for m := range r.Metrics() {
		name = r.AppendMetricName(name[:0], "mmv", "fuzz", m)
		_ = mmv.ValidMetricName(name)
		if d, ok := r.IndomOf(m); ok {
			for in := range r.Instances(d) {
				_ = in
			}
		}
	}
	for v := range r.Values() {
		_, _, _, _ = v.Int(), v.Float(), v.Raw(), v.Missing()
		_ = v.Elapsed(1 << 50)
		_, _ = r.Words(v.Index)
	}
	parsed := 0
	var set labels.Set
	for l := range r.Labels() {
		if err := labels.Parse(&set, l.Payload, labels.Options{}); err != nil {
			mustBeParseError(t, "labels.Parse of an MMV label", err)
			continue
		}
		parsed++
	}
	// The dump is a pure function of the bytes: same text twice, from
	// this Reader and from a fresh one.
	d1 := mmv.AppendDump(nil, &r, "fuzz.mmv", 1<<50)
	r2, err := mmv.Parse(img, o)
	if err != nil {
		t.Fatalf("second NewReader of the same bytes fails: %v", err)
	}
	if d2 := mmv.AppendDump(nil, &r2, "fuzz.mmv", 1<<50); !bytes.Equal(d1, d2) {
		t.Fatalf("dump differs between two readers of the same bytes")
	}
	return parsed
}

// TestMMVImages: every seed image opens and dumps; the v3 ones carry
// labels that package labels accepts.
func TestMMVImages(t *testing.T) {
	total := 0
	for _, img := range mmvSeeds(t) {
		if _, err := mmv.Parse(img, mmv.Options{Order: binary.LittleEndian}); err != nil {
			t.Fatal(err)
		}
		total += checkMMV(t, img, mmv.Options{Order: binary.LittleEndian})
	}
	if total == 0 {
		t.Fatal("no label of the seed images parses")
	}
}

// FuzzMMVImage treats the input as an MMV file: the first byte picks
// the byte order and whether repeated items are allowed, the rest is
// the image. Invariants: no panic, typed errors, every entry readable,
// labels parse or fail with a *ParseError, the dump deterministic.
func FuzzMMVImage(f *testing.F) {
	for _, img := range mmvSeeds(f) {
		f.Add(append([]byte{0}, img...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 1<<17 {
			return
		}
		var order binary.ByteOrder = binary.LittleEndian
		if data[0]&1 == 1 {
			order = binary.BigEndian
		}
		checkMMV(t, data[1:], mmv.Options{Order: order, RepeatedItems: data[0]&2 != 0})
	})
}
