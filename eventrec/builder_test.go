package eventrec

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/perfwire/perfwire/pcp"
)

// TestBuilderSampleRecord packs the sample PMDA's first record of
// docs/pcp-events.md §5 (START|ID|PARENT with U32 4, U64 5 and STRING "6") and
// expects the captured bytes, with the pad zeroed as the builder writes
// it (the capture's pad held zeros here too).
func TestBuilderSampleRecord(t *testing.T) {
	want := hx(t, "E 00000001 6b0256fa 000cc224 0000001a 00000003"+
		" 0740007f 01000008 00000004 07400083 0300000c 00000000 00000005 07400086 06000005 36000000")
	b := NewBuilder(nil, pcp.TypeEvent)
	b.AddRecord(0x6b0256fa, 0xcc224, FlagStart|FlagID|FlagParent)
	b.AddUint32(pcp.NewID(29, 0, 127), 4)
	b.AddUint64(pcp.NewID(29, 0, 131), 5)
	b.AddString(pcp.NewID(29, 0, 134), "6")
	got, err := b.Finish()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %x, %v\nwant %x", got, err, want)
	}
}

// TestBuilderAppendsAfterDst checks the append contract: dst's bytes are
// kept and the array starts after them.
func TestBuilderAppendsAfterDst(t *testing.T) {
	dst := []byte{1, 2, 3}
	b := NewBuilder(dst, pcp.TypeHighResEvent)
	b.AddMissed(1, 2, 3)
	out, err := b.Finish()
	if err != nil || !bytes.Equal(out[:3], []byte{1, 2, 3}) {
		t.Fatal(err)
	}
	a, err := Parse(out[3:], Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := collect(t, a)[0]
	if n, ok := r.Missed(); !ok || n != 3 || r.Seconds() != 1 || r.Fraction() != 2 {
		t.Errorf("record %+v", r)
	}
}

func TestBuilderErrors(t *testing.T) {
	id := pcp.NewID(1, 2, 3)
	tests := []struct {
		name  string
		typ   pcp.Type
		build func(b *Builder)
		kind  error
	}{
		{"array type", pcp.TypeString, func(b *Builder) {}, ErrType},
		{"parameter before any record", pcp.TypeEvent, func(b *Builder) { b.AddUint32(id, 1) }, ErrBuild},
		{"parameter after a missed record", pcp.TypeEvent, func(b *Builder) { b.AddMissed(0, 0, 1); b.AddString(id, "x") }, ErrBuild},
		{"MISSED in AddRecord", pcp.TypeEvent, func(b *Builder) { b.AddRecord(0, 0, FlagMissed) }, ErrField},
		{"negative missed count", pcp.TypeEvent, func(b *Builder) { b.AddMissed(0, 0, -1) }, ErrCount},
		{"seconds beyond 32 bits", pcp.TypeEvent, func(b *Builder) { b.AddRecord(math.MaxInt32+1, 0, 0) }, ErrRange},
		{"nested event", pcp.TypeEvent, func(b *Builder) { b.AddRecord(0, 0, 0); b.AddParam(id, pcp.TypeEvent, nil) }, ErrType},
		{"static aggregate", pcp.TypeEvent, func(b *Builder) { b.AddRecord(0, 0, 0); b.AddParam(id, pcp.TypeAggregateStatic, nil) }, ErrType},
		{"short U64", pcp.TypeEvent, func(b *Builder) { b.AddRecord(0, 0, 0); b.AddParam(id, pcp.TypeU64, make([]byte, 4)) }, ErrLength},
		{"array over 24 bits", pcp.TypeEvent, func(b *Builder) { b.AddRecord(0, 0, 0); b.AddAggregate(id, make([]byte, 1<<24-20)) }, ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder([]byte{9}, tt.typ)
			tt.build(b)
			out, err := b.Finish()
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err %v, want %v", err, tt.kind)
			}
			if len(out) != 1 {
				t.Errorf("failed Finish returned %d bytes, want dst back", len(out))
			}
		})
	}
}

// TestParamGetters checks that typed getters refuse other types and
// wrong lengths.
func TestParamGetters(t *testing.T) {
	p := Param{Type: pcp.TypeU64, Value: []byte{0, 0, 0, 0, 0, 0, 0, 5}}
	if v, ok := p.Uint64(); !ok || v != 5 {
		t.Error("Uint64")
	}
	if _, ok := p.Int64(); ok {
		t.Error("Int64 accepted a U64")
	}
	p.Value = p.Value[:4]
	if _, ok := p.Uint64(); ok {
		t.Error("Uint64 accepted 4 bytes")
	}
	if _, ok := (Param{Type: pcp.TypeFloat, Value: []byte{0xc1, 0x88, 0, 0}}).Float32(); !ok {
		t.Error("Float32")
	}
	if _, ok := (Param{Type: pcp.TypeAggregate}).Text(); ok {
		t.Error("Text accepted an aggregate")
	}
}
