package ltt_test

import (
	"errors"
	"testing"

	"github.com/perfwire/perfwire/ltt"
)

// TestArchSizes is docs/ltt.md §9's table: integer and float widths per size
// code and data model (short pinned to 2; 0 = undefined).
func TestArchSizes(t *testing.T) {
	codes := []ltt.SizeCode{ltt.Size1, ltt.Size2, ltt.Size4, ltt.Size8, ltt.SizeShort, ltt.SizeMedium, ltt.SizeLong}
	ints := map[ltt.Arch][7]int{
		ltt.LP32:        {1, 2, 4, 8, 2, 2, 4},
		ltt.ILP32:       {1, 2, 4, 8, 2, 4, 4},
		ltt.LP64:        {1, 2, 4, 8, 2, 4, 8},
		ltt.ILP64:       {1, 2, 4, 8, 2, 8, 8},
		ltt.ArchUnknown: {1, 2, 4, 8, 2, 0, 0},
	}
	floats := [7]int{0, 0, 4, 8, 0, 4, 8}
	for a, want := range ints {
		for i, c := range codes {
			if got := a.IntBytes(c); got != want[i] {
				t.Errorf("%v %v: int %d bytes, want %d", a, c, got, want[i])
			}
			if got := a.FloatBytes(c); got != floats[i] {
				t.Errorf("%v %v: float %d bytes, want %d", a, c, got, floats[i])
			}
		}
		if p, ok := ltt.ParseArch(a.String()); !ok || p != a {
			t.Errorf("ParseArch(%q)", a.String())
		}
	}
	// A medium field cannot be laid out without a data model.
	f := &ltt.Facility{Name: "f", Events: []ltt.EventDef{{Name: "e", Type: &ltt.Type{Kind: ltt.KindStruct,
		Fields: []ltt.Field{{Name: "m", Type: &ltt.Type{Kind: ltt.KindInt, Size: ltt.SizeMedium}}}}}}}
	if _, err := ltt.NewDecoder(ltt.Options{Arch: ltt.ArchUnknown, BlockSize: 100}, f); !errors.Is(err, ltt.ErrType) {
		t.Error("medium under UNKNOWN accepted")
	}
	if _, err := ltt.NewDecoder(ltt.Options{Arch: ltt.LP64, BlockSize: 10}, f); !errors.Is(err, ltt.ErrBlockSize) {
		t.Error("block size 10 accepted")
	}
}
