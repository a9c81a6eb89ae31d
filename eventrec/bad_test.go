package eventrec

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// hx decodes space-separated hex words, the notation of docs/pcp-events.md.
// A first word "E" or "H" stands for an EVENT or HIGHRES_EVENT
// type/length word whose ea_len is the length of the whole input.
func hx(t testing.TB, s string) []byte {
	t.Helper()
	f := strings.Fields(s)
	var typ byte
	switch f[0] {
	case "E":
		typ = 9
	case "H":
		typ = 10
	}
	if typ != 0 {
		f[0] = "00000000"
	}
	b, err := hex.DecodeString(strings.Join(f, ""))
	if err != nil {
		t.Fatal(err)
	}
	if typ != 0 {
		binary.BigEndian.PutUint32(b, uint32(typ)<<24|uint32(len(b)))
	}
	return b
}

// TestBadInput covers the checklist of docs/pcp-events.md §6.3 and the
// issue's validation list: each malformed array is rejected with a
// specific kind at the offset of the offending field.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts Options
		kind error
		off  int64
	}{
		{"shorter than the type/len word", "0900", Options{}, ErrTruncated, 0},
		{"ea_len below 8", "09000004 00000000", Options{}, ErrLength, 0},
		{"ea_len 0", "09000000 00000000", Options{}, ErrLength, 0},
		{"ea_len beyond vlen (bytes supplied)", "09000010 00000000", Options{}, ErrTruncated, 0},
		{"ea_len not a multiple of 4", "09000009 00000000 00", Options{}, ErrLength, 0},
		{"ea_type not an event type", "07000008 00000000", Options{}, ErrType, 0},
		{"ea_type HIGHRES when EVENT expected", "0a000008 00000000", Options{Type: pcp.TypeEvent}, ErrType, 0},
		{"nrecords negative", "09000008 ffffffff", Options{}, ErrCount, 4},
		{"nrecords huge", "09000018 7fffffff 00000000 00000000 00000001 00000000", Options{}, ErrCount, 4},
		{"nrecords more than the bytes can hold", "09000018 00000002 00000000 00000000 00000001 00000000", Options{}, ErrCount, 4},
		{"nrecords over MaxRecords", "E 00000002" + rec0 + rec0, Options{MaxRecords: 1}, ErrLimit, 4},
		{"error offsets include Base", "09000008 ffffffff", Options{Base: 100}, ErrCount, 104},
		{"record header straddling the end",
			"0900002c 00000002 00000000 00000000 00000001 00000001 07400086 06000008 61626364 00000000 00000000", Options{}, ErrTruncated, 36},
		{"highres header straddling the end",
			"0a00003c 00000002 0000000000000000 0000000000000000 00000001 00000001" + u32p + " 0000000000000000 0000000000000000", Options{}, ErrTruncated, 44},
		{"MISSED|POINT", "09000018 00000001 00000000 00000000 80000001 00000000", Options{}, ErrField, 16},
		{"MISSED|undefined bit", "09000018 00000001 00000000 00000000 80000100 00000000", Options{}, ErrField, 16},
		{"MISSED with a negative count", "09000018 00000001 00000000 00000000 80000000 fffffff9", Options{}, ErrCount, 20},
		{"er_nparams negative", "09000018 00000001 00000000 00000000 00000001 ffffffff", Options{}, ErrCount, 20},
		{"er_nparams over MaxParams", "E 00000001 00000000 00000000 00000001 00000002" + u32p + u32p, Options{MaxParams: 1}, ErrLimit, 20},
		{"er_nparams larger than the bytes", "E 00000001 00000000 00000000 00000001 00000002" + u32p, Options{}, ErrTruncated, 20},
		{"ep_len 0", "E 00000001 00000000 00000000 00000001 00000001 07400086 06000000", Options{}, ErrLength, 28},
		{"ep_len 3", "E 00000001 00000000 00000000 00000001 00000001 07400086 06000003", Options{}, ErrLength, 28},
		{"ep_len 5 for U64", "E 00000001 00000000 00000000 00000001 00000001 07400083 03000005 00000000", Options{}, ErrLength, 28},
		{"ep_len 7 for DOUBLE", "E 00000001 00000000 00000000 00000001 00000001 07400085 05000007 00000000", Options{}, ErrLength, 28},
		{"ep_len 9 for 64", "E 00000001 00000000 00000000 00000001 00000001 07400082 02000009 00000000 00000000", Options{}, ErrLength, 28},
		{"ep_len 11 for U64", "E 00000001 00000000 00000000 00000001 00000001 07400083 0300000b 00000000 00000000", Options{}, ErrLength, 28},
		{"ep_len 12 for U32", "E 00000001 00000000 00000000 00000001 00000001 0740007f 0100000c 00000000 00000000", Options{}, ErrLength, 28},
		{"ep_len 4 for FLOAT", "E 00000001 00000000 00000000 00000001 00000001 07400084 04000004", Options{}, ErrLength, 28},
		{"ep_len larger than what remains", "E 00000001 00000000 00000000 00000001 00000001 07400086 06000010 61626364", Options{}, ErrTruncated, 28},
		{"parameters that fit one by one but overrun the array together",
			"E 00000001 00000000 00000000 00000001 00000003" + u32p + u32p + u32p[:len(u32p)-9], Options{}, ErrTruncated, 52},
		{"second parameter overruns the array",
			"E 00000001 00000000 00000000 00000001 00000002" + u32p + " 07400086 0600000c 61626364", Options{}, ErrTruncated, 40},
		{"parameters overrun the PDU (ea_len past the bytes)",
			"09000040 00000001 00000000 00000000 00000001 00000002" + u32p + u32p, Options{}, ErrTruncated, 0},
		{"nested EVENT parameter", "E 00000001 00000000 00000000 00000001 00000001 07400088 09000008 00000000", Options{}, ErrType, 28},
		{"nested HIGHRES_EVENT parameter", "E 00000001 00000000 00000000 00000001 00000001 0740008b 0a000008 00000000", Options{}, ErrType, 28},
		{"AGGREGATE_STATIC parameter", "E 00000001 00000000 00000000 00000001 00000001 07400087 08000008 00000000", Options{}, ErrType, 28},
		{"UNKNOWN parameter type", "E 00000001 00000000 00000000 00000001 00000001 07400087 ff000008 00000000", Options{}, ErrType, 28},
		{"tv_usec 10^6", "09000018 00000001 00000000 000f4240 00000001 00000000", Options{}, ErrRange, 12},
		{"tv_usec negative", "09000018 00000001 00000000 ffffffff 00000001 00000000", Options{}, ErrRange, 12},
		{"tv_nsec 10^9", "0a000020 00000001 00000000 00000000 00000000 3b9aca00 00000001 00000000", Options{}, ErrRange, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := hx(t, tt.in)
			_, err := Parse(b[:len(b):len(b)], tt.opts)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want %v", err, tt.kind)
			}
			pe, ok := errors.AsType[*ParseError](err)
			if !ok {
				t.Fatalf("err %T is not a *ParseError", err)
			}
			if pe.Offset != tt.off {
				t.Errorf("offset = %d, want %d (%v)", pe.Offset, tt.off, err)
			}
			var u Unpacker
			res, uerr := u.UnpackBytes(b[:len(b):len(b)], tt.opts)
			if res != nil || uerr == nil || uerr.Error() != err.Error() {
				t.Errorf("UnpackBytes = %d results, %v; Parse failed with %v", len(res), uerr, err)
			}
		})
	}
}

// Fragments for the table: a record with no parameters and a U32
// parameter (29.0.127 = 4).
const (
	rec0 = " 00000000 00000000 00000001 00000000"
	u32p = " 0740007f 01000008 00000004"
)

// TestAcceptedEdgeCases covers the checklist items that must decode.
func TestAcceptedEdgeCases(t *testing.T) {
	t.Run("empty arrays", func(t *testing.T) {
		for _, s := range []string{"09000008 00000000", "0a000008 00000000"} {
			a, err := Parse(hx(t, s), Options{})
			if err != nil || a.Len() != 0 {
				t.Fatalf("%s: %v, %d records", s, err, a.Len())
			}
		}
	})
	t.Run("MISSED record followed by the next record, not parameters", func(t *testing.T) {
		a, err := Parse(hx(t, "E 00000002 00000000 00000000 80000000 00000002 00000001 00000002 00000001 00000001"+u32p), Options{})
		if err != nil {
			t.Fatal(err)
		}
		recs := collect(t, a)
		if n, ok := recs[0].Missed(); !ok || n != 2 || recs[0].NumParams() != 0 {
			t.Errorf("record 0: missed %d %v, params %d", n, ok, recs[0].NumParams())
		}
		if recs[1].Seconds() != 1 || recs[1].Fraction() != 2 || recs[1].Flags() != FlagPoint || recs[1].NumParams() != 1 {
			t.Errorf("record 1 = %+v", recs[1])
		}
	})
	t.Run("high-resolution records at offsets 4 mod 8", func(t *testing.T) {
		a, err := Parse(hx(t, "H 00000002 0000000000000005 0000000000000006 00000001 00000001"+u32p+
			" 0000000000000007 000000003b9ac9ff 00000004 00000001 07400083 0300000c 0000000100000002"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		recs := collect(t, a)
		if recs[1].Offset()%8 != 4 {
			t.Fatalf("record 1 at %d", recs[1].Offset())
		}
		p := firstParam(recs[1])
		if v, ok := p.Uint64(); !ok || v != 1<<32|2 || recs[1].Nanoseconds() != 999999999 || recs[1].Seconds() != 7 {
			t.Errorf("record 1: %v %v %+v", v, ok, recs[1])
		}
	})
	t.Run("negative seconds", func(t *testing.T) {
		for _, s := range []string{
			"09000018 00000001 ffffffff 00000000 00000001 00000000",
			"0a000020 00000001 ffffffffffffffff 0000000000000000 00000001 00000000",
		} {
			a, err := Parse(hx(t, s), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r := collect(t, a)[0]; r.Seconds() != -1 {
				t.Errorf("%s: seconds %d", s, r.Seconds())
			}
		}
	})
	t.Run("STRING with and without a trailing NUL", func(t *testing.T) {
		a, err := Parse(hx(t, "E 00000001 00000000 00000000 00000001 00000002 07400086 06000007 61626300 07400086 06000008 61626300"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for p := range collect(t, a)[0].Params() {
			v, _ := p.Text()
			got = append(got, string(v))
		}
		if len(got) != 2 || got[0] != "abc" || got[1] != "abc\x00" {
			t.Errorf("strings %q", got)
		}
	})
	t.Run("lenient mode", func(t *testing.T) {
		for _, s := range []string{
			"09000009 00000000 00",
			"09000018 00000001 00000000 000f4240 00000001 00000000",
			"0a000020 00000001 00000000 00000000 00000000 3b9aca00 00000001 00000000",
		} {
			if _, err := Parse(hx(t, s), Options{Lenient: true}); err != nil {
				t.Errorf("%s: %v", s, err)
			}
		}
	})
	t.Run("slack after the last record is reported", func(t *testing.T) {
		a, err := Parse(hx(t, "09000020 00000001"+rec0+" 00000000 00000000"), Options{})
		if err != nil || a.Slack() != 8 {
			t.Fatalf("slack %d, err %v", a.Slack(), err)
		}
	})
	t.Run("bytes after ea_len are ignored", func(t *testing.T) {
		a, err := Parse(hx(t, "09000008 00000000 deadbeef"), Options{})
		if err != nil || len(a.Bytes()) != 8 {
			t.Fatalf("%v, %d bytes", err, len(a.Bytes()))
		}
	})
}

func collect(t testing.TB, a Array) []Record {
	t.Helper()
	var out []Record
	for r, err := range a.All() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if len(out) != a.Len() {
		t.Fatalf("%d records, header says %d", len(out), a.Len())
	}
	return out
}

func firstParam(r Record) Param {
	for p := range r.Params() {
		return p
	}
	return Param{}
}

func TestParseValueFormat(t *testing.T) {
	b := hx(t, "09000008 00000000")
	if _, err := ParseValue(ValInsitu, b, Options{Base: 40}); !errors.Is(err, ErrField) {
		t.Errorf("INSITU: %v", err)
	}
	if _, err := ParseValue(3, b, Options{}); !errors.Is(err, ErrField) {
		t.Errorf("valfmt 3: %v", err)
	}
	for _, f := range []uint32{ValDPTR, ValSPTR} {
		if _, err := ParseValue(f, b, Options{}); err != nil {
			t.Errorf("valfmt %d: %v", f, err)
		}
	}
}

// TestKindsNameTheField: where one shared kind covers several failures,
// the field tells them apart, and limit errors name the count and the
// limit (docs/api.md rule 6).
func TestKindsNameTheField(t *testing.T) {
	for _, tt := range []struct {
		name, in     string
		opts         Options
		kind         error
		field        string
		value, limit int64 // limit 0: no value and limit expected
	}{
		{"nested EVENT parameter", "E 00000001 00000000 00000000 00000001 00000001 07400088 09000008 00000000", Options{}, ErrType, "ep_type", 0, 0},
		{"ea_type not an event", "01000008 00000000", Options{}, ErrType, "ea_type", 0, 0},
		{"ep_len 3", "E 00000001 00000000 00000000 00000001 00000001 07400086 06000003", Options{}, ErrLength, "ep_len", 0, 0},
		{"ea_len 4", "09000004 00000000", Options{}, ErrLength, "ea_len", 0, 0},
		{"MISSED|POINT", "09000018 00000001 00000000 00000000 80000001 00000000", Options{}, ErrField, "er_flags", 0, 0},
		{"tv_usec 10^6", "09000018 00000001 00000000 000f4240 00000001 00000000", Options{}, ErrRange, "tv_usec", 0, 0},
		{"tv_nsec 10^9", "0a000020 00000001 00000000 00000000 00000000 3b9aca00 00000001 00000000", Options{}, ErrRange, "tv_nsec", 0, 0},
		{"2 records over MaxRecords 1", "E 00000002" + rec0 + rec0, Options{MaxRecords: 1}, ErrLimit, "ea_nrecords", 2, 1},
		{"2 parameters over MaxParams 1", "E 00000001 00000000 00000000 00000001 00000002" + u32p + u32p, Options{MaxParams: 1}, ErrLimit, "er_nparams", 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(hx(t, tt.in), tt.opts)
			pe, _ := errors.AsType[*ParseError](err)
			if !errors.Is(err, tt.kind) || pe == nil || pe.Field != tt.field || pe.Format != "eventrec" {
				t.Fatalf("err = %v, want %v in %s", err, tt.kind, tt.field)
			}
			if tt.limit != 0 && (!pe.HasValue || !pe.HasLimit || pe.Value != tt.value || pe.Limit != tt.limit) {
				t.Errorf("err = %#v, want value %d and limit %d", pe, tt.value, tt.limit)
			}
		})
	}
	_, err := ParseValue(ValInsitu, hx(t, "09000008 00000000"), Options{Base: 40})
	if pe, _ := errors.AsType[*ParseError](err); pe == nil || pe.Field != "valfmt" || pe.Offset != 40 || !errors.Is(err, ErrField) {
		t.Errorf("INSITU: %v", err)
	}
	// The kinds are internal/wire's, so errors.Is answers the same for
	// every format; only the builder's sequence error is the package's.
	if ErrTruncated != wire.ErrTruncated || ErrLimit != wire.ErrLimit || ErrType != wire.ErrType || ErrField != wire.ErrField {
		t.Error("a shared kind is not internal/wire's")
	}
	if ErrBuild.Code() != "eventrec_build" || strings.Contains(ErrBuild.Error(), "eventrec") {
		t.Errorf("ErrBuild: code %q, message %q", ErrBuild.Code(), ErrBuild.Error())
	}
}
