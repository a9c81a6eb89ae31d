package mmv_test

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/mmv"
)

var le = binary.LittleEndian

// tocEntry returns the offset and count of section s and where its TOC
// entry sits.
func tocEntry(t *testing.T, b []byte, s mmv.Section) (off uint64, count int, at int) {
	t.Helper()
	n := int(le.Uint32(b[24:]))
	for i := range n {
		at := mmv.HeaderSize + i*mmv.TOCEntrySize
		if mmv.Section(le.Uint32(b[at:])) == s {
			return le.Uint64(b[at+8:]), int(le.Uint32(b[at+4:])), at
		}
	}
	t.Fatalf("no section %d", s)
	return 0, 0, 0
}

// TestBadInput covers the spec's validation checklist (docs/pcp-mmv.md §11):
// each mutation of a real file must fail with its own kind and offset.
func TestBadInput(t *testing.T) {
	v1 := readFile(t, "testdata/lab/sample1.mmv")
	v3 := readFile(t, "testdata/lab/sample3.mmv")
	type mut func(t *testing.T, b []byte) (wantOff int64)
	// at returns where a field of entry i of section s sits.
	at := func(t *testing.T, b []byte, s mmv.Section, size, i, field int) int {
		off, _, _ := tocEntry(t, b, s)
		return int(off) + i*size + field
	}
	// An entry's field: size, index and offset of the field in entry i
	// of section s.
	type field struct {
		s              mmv.Section
		size, i, field int
	}
	// The mutations, each failing at the field it changes. put32 and
	// put64 set a field (put64 from the file and the old value); tocPut
	// sets field off of section s's TOC entry and fails at want from it;
	// fill overwrites n bytes of a field with c, fillAt the 256 bytes of
	// the string it points at; text writes a label payload and fails
	// want bytes into it.
	put32 := func(e field, v uint32) mut {
		return func(t *testing.T, b []byte) int64 {
			a := at(t, b, e.s, e.size, e.i, e.field)
			le.PutUint32(b[a:], v)
			return int64(a)
		}
	}
	put64 := func(e field, v func(b []byte, old uint64) uint64) mut {
		return func(t *testing.T, b []byte) int64 {
			a := at(t, b, e.s, e.size, e.i, e.field)
			le.PutUint64(b[a:], v(b, le.Uint64(b[a:])))
			return int64(a)
		}
	}
	tocPut := func(s mmv.Section, off int, v uint32, want int) mut {
		return func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, s)
			le.PutUint32(b[a+off:], v)
			return int64(a + want)
		}
	}
	fill := func(e field, n int, c byte) mut {
		return func(t *testing.T, b []byte) int64 {
			a := at(t, b, e.s, e.size, e.i, e.field)
			for i := range n {
				b[a+i] = c
			}
			return int64(a)
		}
	}
	fillAt := func(e field, c byte) mut {
		return func(t *testing.T, b []byte) int64 {
			a := at(t, b, e.s, e.size, e.i, e.field)
			s := le.Uint64(b[a:])
			for i := range 256 {
				b[s+uint64(i)] = c
			}
			return int64(a)
		}
	}
	text := func(e field, payload string, want int) mut {
		return func(t *testing.T, b []byte) int64 {
			a := at(t, b, e.s, e.size, e.i, e.field)
			copy(b[a:], payload)
			return int64(a + want)
		}
	}
	set := func(v uint64) func([]byte, uint64) uint64 { return func([]byte, uint64) uint64 { return v } }
	end := func(back int) func([]byte, uint64) uint64 {
		return func(b []byte, _ uint64) uint64 { return uint64(len(b) - back) }
	}
	plus := func(d uint64) func([]byte, uint64) uint64 {
		return func(_ []byte, old uint64) uint64 { return old + d }
	}
	noSection := func(s mmv.Section) mut {
		return func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, s)
			le.PutUint32(b[a:], 99)
			return mmv.HeaderSize
		}
	}
	var (
		indom   = func(i, f int) field { return field{mmv.SectionIndoms, mmv.IndomSize, i, f} }
		inst1   = func(i, f int) field { return field{mmv.SectionInstances, mmv.InstanceSizeV1, i, f} }
		inst2   = func(i, f int) field { return field{mmv.SectionInstances, mmv.InstanceSizeV2, i, f} }
		metric1 = func(i, f int) field { return field{mmv.SectionMetrics, mmv.MetricSizeV1, i, f} }
		metric2 = func(i, f int) field { return field{mmv.SectionMetrics, mmv.MetricSizeV2, i, f} }
		value   = func(i, f int) field { return field{mmv.SectionValues, mmv.ValueSize, i, f} }
		label   = func(i, f int) field { return field{mmv.SectionLabels, mmv.LabelSize, i, f} }
	)
	cases := []struct {
		name string
		base []byte
		kind error
		mut  mut
		size int // truncate the file to size bytes first, if non-zero
	}{
		{"short header", v1, mmv.ErrTruncated, func(t *testing.T, b []byte) int64 { return 39 }, 39},
		{"magic", v1, mmv.ErrMagic, func(t *testing.T, b []byte) int64 { b[3] = 'X'; return 0 }, 0},
		{"version 0", v1, mmv.ErrVersion, func(t *testing.T, b []byte) int64 { le.PutUint32(b[4:], 0); return 4 }, 0},
		{"version 4", v3, mmv.ErrVersion, func(t *testing.T, b []byte) int64 { le.PutUint32(b[4:], 4); return 4 }, 0},
		{"g1 zero", v1, mmv.ErrGeneration, func(t *testing.T, b []byte) int64 { le.PutUint64(b[8:], 0); le.PutUint64(b[16:], 0); return 16 }, 0},
		{"g1 != g2", v1, mmv.ErrGeneration, func(t *testing.T, b []byte) int64 { le.PutUint64(b[16:], 0); return 16 }, 0},
		{"tocs < 2", v1, mmv.ErrCount, func(t *testing.T, b []byte) int64 { le.PutUint32(b[24:], 1); return 24 }, 0},
		{"tocs beyond file", v1, mmv.ErrTruncated, func(t *testing.T, b []byte) int64 { return mmv.HeaderSize }, 60},
		{"tocs above limit", v1, mmv.ErrLimit, func(t *testing.T, b []byte) int64 { le.PutUint32(b[24:], 0x7fffffff); return 24 }, 0},
		{"cluster negative", v1, mmv.ErrRange, func(t *testing.T, b []byte) int64 { le.PutUint32(b[36:], 0xffffffff); return 36 }, 0},
		{"cluster 4096", v1, mmv.ErrRange, func(t *testing.T, b []byte) int64 { le.PutUint32(b[36:], 4096); return 36 }, 0},
		{"no metrics", v1, mmv.ErrMissing, noSection(mmv.SectionMetrics), 0},
		{"no values", v3, mmv.ErrMissing, noSection(mmv.SectionValues), 0},
		{"duplicate toc type", v1, mmv.ErrTOC, tocPut(mmv.SectionStrings, 0, uint32(mmv.SectionMetrics), 0), 0},
		{"negative count", v1, mmv.ErrCount, tocPut(mmv.SectionValues, 4, 0xffffffff, 4), 0},
		{"metrics above 1023", v1, mmv.ErrLimit, tocPut(mmv.SectionMetrics, 4, 1024, 4), 0},
		{"labels above 255", v3, mmv.ErrLimit, tocPut(mmv.SectionLabels, 4, 256, 4), 0},
		{"values past end", v1, mmv.ErrBounds, tocPut(mmv.SectionValues, 4, 1000, 8), 0},
		{"section offset overflows", v3, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionMetrics)
			le.PutUint64(b[a+8:], 0xffffffffffffff00)
			return int64(a + 8)
		}, 0},
		{"section over header", v3, mmv.ErrOffset, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionValues)
			le.PutUint64(b[a+8:], 8)
			return int64(a + 8)
		}, 0},
		{"indom instances outside", v1, mmv.ErrOffset, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionIndoms, mmv.IndomSize, 0, 4)
			le.PutUint32(b[a:], 4)
			return int64(a + 4)
		}, 0},
		{"indom serial 0", v1, mmv.ErrField, put32(indom(0, 0), 0), 0},
		{"indom serial 0xffffffff", v3, mmv.ErrField, put32(indom(0, 0), 0xffffffff), 0},
		{"indom help past end", v3, mmv.ErrBounds, put64(indom(0, 24), end(255)), 0},
		{"instance indom not an entry", v3, mmv.ErrOffset, put64(inst2(1, 0), plus(4)), 0},
		{"v1 instance name without NUL", v1, mmv.ErrString, fill(inst1(2, 16), 64, 'x'), 0},
		{"v2 instance name past end", v3, mmv.ErrBounds, put64(inst2(0, 16), end(100)), 0},
		{"v2 instance name without NUL", v3, mmv.ErrString, fillAt(inst2(0, 16), 'y'), 0},
		{"v1 metric name without NUL", v1, mmv.ErrString, fill(metric1(3, 0), 64, 'm'), 0},
		{"v2 metric name past end", v3, mmv.ErrBounds, put64(metric2(2, 0), end(255)), 0},
		{"item above 1023", v1, mmv.ErrRange, put32(metric1(0, 64), 1024), 0},
		{"repeated item", v3, mmv.ErrItem, put32(metric2(1, 8), 1), 0},
		{"type 7", v1, mmv.ErrType, put32(metric1(0, 68), 7), 0},
		{"semantics 2", v3, mmv.ErrField, put32(metric2(0, 16), 2), 0},
		{"unknown indom", v1, mmv.ErrInDom, put32(metric1(0, 80), 99), 0},
		{"metric help past end", v1, mmv.ErrBounds, put64(metric1(1, 88), end(1)), 0},
		{"metric help without NUL", v3, mmv.ErrString, fillAt(metric2(1, 32), 'h'), 0},
		{"value metric not an entry", v1, mmv.ErrOffset, put64(value(2, 16), plus(8)), 0},
		{"singular value with instance", v3, mmv.ErrInstance, put64(value(0, 24), func(b []byte, _ uint64) uint64 {
			return tocOff(t, b, mmv.SectionInstances)
		}), 0},
		{"value instance not an entry", v1, mmv.ErrOffset, put64(value(3, 24), set(8)), 0},
		{"string value past end", v3, mmv.ErrBounds, put64(value(10, 8), end(0)), 0},
		{"label flags", v3, mmv.ErrField, put32(label(1, 0), 0x0c), 0},
		{"label payload without NUL", v3, mmv.ErrString, fill(label(2, 12), 244, '}'), 0},
		{"label not one member", v3, mmv.ErrLabel, text(label(0, 12), "{\"a\":1,\"b\":2}\x00", 6), 0},
		{"label name", v3, mmv.ErrLabel, text(label(0, 12), "{\"1a\":1}\x00", 2), 0},
		{"label value", v3, mmv.ErrLabel, text(label(0, 12), "{\"a\":tru}\x00", 5), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), tc.base...)
			want := tc.mut(t, b)
			if tc.size > 0 {
				b = b[:tc.size]
			}
			_, err := mmv.Parse(b[:len(b):len(b)], mmv.Options{})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
			pe, ok := errors.AsType[*mmv.ParseError](err)
			if !ok {
				t.Fatalf("err %T is not a *ParseError", err)
			}
			if pe.Offset != want {
				t.Errorf("offset = %d, want %d (%v)", pe.Offset, want, err)
			}
			// The format is named once, by the ParseError, not again by
			// the kind.
			if msg := err.Error(); !strings.HasPrefix(msg, "mmv: ") || strings.Contains(msg[len("mmv: "):], "mmv:") {
				t.Errorf("message %q does not name the format exactly once", msg)
			}
		})
	}
}

// Each zero field of Options takes its own default: a limit set alone
// applies, and the counts left zero are not zero limits. Limit errors
// carry the count and the limit.
func TestOptionsPerFieldDefaults(t *testing.T) {
	v3 := readFile(t, "testdata/lab/sample3.mmv")
	_, n, at := tocEntry(t, v3, mmv.SectionLabels)
	if n < 2 {
		t.Fatalf("sample3 has %d labels; the test needs 2 or more", n)
	}
	if _, err := mmv.Parse(v3, mmv.Options{MaxLabels: n}); err != nil {
		t.Fatalf("MaxLabels %d alone: %v", n, err)
	}
	_, err := mmv.Parse(v3, mmv.Options{MaxLabels: n - 1})
	pe, ok := errors.AsType[*mmv.ParseError](err)
	if !ok || !errors.Is(err, mmv.ErrLimit) || !pe.HasValue || !pe.HasLimit ||
		pe.Value != int64(n) || pe.Limit != int64(n-1) || pe.Offset != int64(at+4) {
		t.Fatalf("MaxLabels %d: %v", n-1, err)
	}

	b := append([]byte(nil), readFile(t, "testdata/lab/sample1.mmv")...)
	_, _, at = tocEntry(t, b, mmv.SectionMetrics)
	le.PutUint32(b[at+4:], 1024)
	_, err = mmv.Parse(b, mmv.Options{})
	pe, ok = errors.AsType[*mmv.ParseError](err)
	if !ok || !errors.Is(err, mmv.ErrLimit) || pe.Value != 1024 || pe.Limit != mmv.DefaultMaxMetrics {
		t.Fatalf("1024 metrics: %v", err)
	}
	want := "mmv: toc[" + strconv.Itoa((at-mmv.HeaderSize)/mmv.TOCEntrySize) + "].count: over the limit (value 1024, limit 1023) at offset " + strconv.Itoa(at+4)
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}

	b = append(b[:0:0], readFile(t, "testdata/lab/sample1.mmv")...)
	le.PutUint32(b[36:], 4096)
	_, err = mmv.Parse(b, mmv.Options{})
	if pe, ok = errors.AsType[*mmv.ParseError](err); !ok || !errors.Is(err, mmv.ErrRange) || pe.Value != 4096 || pe.Limit != mmv.MaxCluster {
		t.Fatalf("cluster 4096: %v", err)
	}
}

// TestPackedStrings follows qa/1552: string references are arbitrary
// byte offsets, valid while offset + 256 fits in the file.
func TestPackedStrings(t *testing.T) {
	b := append([]byte(nil), readFile(t, "testdata/lab/sample2.mmv")...)
	metrics, _, _ := tocEntry(t, b, mmv.SectionMetrics)
	// Instance 1's name is "green" in the first slots; point metric 0's
	// name at its second byte, and its help at the last 256 bytes.
	inst1 := le.Uint64(b[int(tocOff(t, b, mmv.SectionInstances))+mmv.InstanceSizeV2+16:])
	le.PutUint64(b[metrics:], inst1+1)
	copy(b[len(b)-256:], "tail help\x00")
	le.PutUint64(b[metrics+40:], uint64(len(b)-256))
	r, err := mmv.Parse(b, mmv.Options{})
	if err != nil {
		t.Fatalf("packed strings rejected: %v", err)
	}
	m := r.Metric(0)
	if string(m.Name) != "reen" || string(m.HelpText) != "tail help" {
		t.Errorf("name %q help %q", m.Name, m.HelpText)
	}
}

func tocOff(t *testing.T, b []byte, s mmv.Section) uint64 {
	off, _, _ := tocEntry(t, b, s)
	return off
}

// The shared kinds are internal/wire's, not copies: errors.Is matches
// them across formats.
func TestSharedKinds(t *testing.T) {
	for _, k := range [][2]error{{mmv.ErrTruncated, wire.ErrTruncated}, {mmv.ErrMagic, wire.ErrMagic},
		{mmv.ErrVersion, wire.ErrVersion}, {mmv.ErrCount, wire.ErrCount}, {mmv.ErrLimit, wire.ErrLimit},
		{mmv.ErrRange, wire.ErrRange}, {mmv.ErrType, wire.ErrType}, {mmv.ErrField, wire.ErrField}} {
		if k[0] != k[1] {
			t.Errorf("%v is a copy of the shared kind", k[0])
		}
	}
}
