package abi

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// readMMVServeInput reads what the generated MarshalMsg writes, and what
// the generated UnmarshalMsg reads from it, for random inputs, also with
// an unknown key and keys in another order.
func TestReadMMVServeInput(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		in := schema.MMVServeInput{Strict: r.IntN(2) == 1, Now: r.Int64() - 1<<62, ValidateOnly: r.IntN(2) == 1}
		for j := range r.IntN(4) {
			img := make([]byte, r.IntN(64))
			for k := range img {
				img[k] = byte(r.Uint32())
			}
			in.Files = append(in.Files, schema.MMVImage{Path: "dir/f" + string(rune('a'+j)), Name: "f", BigEndian: r.IntN(2) == 1, Image: img})
		}
		b, err := in.MarshalMsg(nil)
		if err != nil {
			t.Fatal(err)
		}
		var want schema.MMVServeInput
		if _, err := want.UnmarshalMsg(b); err != nil {
			t.Fatal(err)
		}
		got, err := readMMVServeInput(b)
		if err != nil || !sameInput(got, want) {
			t.Fatalf("case %d: %+v, %v; generated %+v", i, got, err, want)
		}
	}
	// Keys reordered, an unknown one, a file map with an unknown key;
	// each map's keys are its own (a file's strict, the input's path are
	// unknown keys).
	b := msgp.AppendMapHeader(nil, 5)
	b = msgp.AppendBool(msgp.AppendString(b, "validate_only"), true)
	b = msgp.AppendString(msgp.AppendString(b, "extra"), "x")
	b = msgp.AppendArrayHeader(msgp.AppendString(b, "files"), 1)
	b = msgp.AppendMapHeader(b, 4)
	b = msgp.AppendBytes(msgp.AppendString(b, "image"), []byte{1, 2})
	b = msgp.AppendInt(msgp.AppendString(b, "later"), 7)
	b = msgp.AppendString(msgp.AppendString(b, "path"), "p")
	b = msgp.AppendBool(msgp.AppendString(b, "strict"), true)
	b = msgp.AppendInt64(msgp.AppendString(b, "now"), -5)
	b = msgp.AppendString(msgp.AppendString(b, "path"), "q")
	got, err := readMMVServeInput(b)
	if err != nil || !got.ValidateOnly || got.Strict || got.Now != -5 || len(got.Files) != 1 || got.Files[0].Path != "p" ||
		!bytes.Equal(got.Files[0].Image, []byte{1, 2}) {
		t.Errorf("%+v, %v", got, err)
	}
	// Cut anywhere, or a huge file count: an error, no panic.
	for n := range len(b) {
		if _, err := readMMVServeInput(b[:n]); err == nil {
			t.Errorf("cut at %d: no error", n)
		}
	}
	huge := msgp.AppendArrayHeader(msgp.AppendString(msgp.AppendMapHeader(nil, 1), "files"), 1<<31)
	if _, err := readMMVServeInput(huge); err == nil {
		t.Error("2^31 files in a few bytes: no error")
	}
}

func sameInput(a, b schema.MMVServeInput) bool {
	if len(a.Files) != len(b.Files) || a.Strict != b.Strict || a.Now != b.Now || a.ValidateOnly != b.ValidateOnly {
		return false
	}
	for i := range a.Files {
		x, y := a.Files[i], b.Files[i]
		if x.Path != y.Path || x.Name != y.Name || x.BigEndian != y.BigEndian || !bytes.Equal(x.Image, y.Image) {
			return false
		}
	}
	return true
}
