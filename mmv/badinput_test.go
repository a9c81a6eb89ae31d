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
		{"no metrics", v1, mmv.ErrMissing, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionMetrics)
			le.PutUint32(b[a:], 99)
			return mmv.HeaderSize
		}, 0},
		{"no values", v3, mmv.ErrMissing, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionValues)
			le.PutUint32(b[a:], 99)
			return mmv.HeaderSize
		}, 0},
		{"duplicate toc type", v1, mmv.ErrTOC, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionStrings)
			le.PutUint32(b[a:], uint32(mmv.SectionMetrics))
			return int64(a)
		}, 0},
		{"negative count", v1, mmv.ErrCount, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionValues)
			le.PutUint32(b[a+4:], 0xffffffff)
			return int64(a + 4)
		}, 0},
		{"metrics above 1023", v1, mmv.ErrLimit, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionMetrics)
			le.PutUint32(b[a+4:], 1024)
			return int64(a + 4)
		}, 0},
		{"labels above 255", v3, mmv.ErrLimit, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionLabels)
			le.PutUint32(b[a+4:], 256)
			return int64(a + 4)
		}, 0},
		{"values past end", v1, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			_, _, a := tocEntry(t, b, mmv.SectionValues)
			le.PutUint32(b[a+4:], 1000)
			return int64(a + 8)
		}, 0},
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
		{"indom serial 0", v1, mmv.ErrField, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionIndoms, mmv.IndomSize, 0, 0)
			le.PutUint32(b[a:], 0)
			return int64(a)
		}, 0},
		{"indom serial 0xffffffff", v3, mmv.ErrField, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionIndoms, mmv.IndomSize, 0, 0)
			le.PutUint32(b[a:], 0xffffffff)
			return int64(a)
		}, 0},
		{"indom help past end", v3, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionIndoms, mmv.IndomSize, 0, 24)
			le.PutUint64(b[a:], uint64(len(b)-255))
			return int64(a)
		}, 0},
		{"instance indom not an entry", v3, mmv.ErrOffset, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionInstances, mmv.InstanceSizeV2, 1, 0)
			le.PutUint64(b[a:], le.Uint64(b[a:])+4)
			return int64(a)
		}, 0},
		{"v1 instance name without NUL", v1, mmv.ErrString, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionInstances, mmv.InstanceSizeV1, 2, 16)
			copy(b[a:a+64], bytes64('x'))
			return int64(a)
		}, 0},
		{"v2 instance name past end", v3, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionInstances, mmv.InstanceSizeV2, 0, 16)
			le.PutUint64(b[a:], uint64(len(b)-100))
			return int64(a)
		}, 0},
		{"v2 instance name without NUL", v3, mmv.ErrString, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionInstances, mmv.InstanceSizeV2, 0, 16)
			s := le.Uint64(b[a:])
			for i := range 256 {
				b[s+uint64(i)] = 'y'
			}
			return int64(a)
		}, 0},
		{"v1 metric name without NUL", v1, mmv.ErrString, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV1, 3, 0)
			copy(b[a:a+64], bytes64('m'))
			return int64(a)
		}, 0},
		{"v2 metric name past end", v3, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV2, 2, 0)
			le.PutUint64(b[a:], uint64(len(b)-255))
			return int64(a)
		}, 0},
		{"item above 1023", v1, mmv.ErrRange, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV1, 0, 64)
			le.PutUint32(b[a:], 1024)
			return int64(a)
		}, 0},
		{"repeated item", v3, mmv.ErrItem, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV2, 1, 8)
			le.PutUint32(b[a:], 1)
			return int64(a)
		}, 0},
		{"type 7", v1, mmv.ErrType, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV1, 0, 68)
			le.PutUint32(b[a:], 7)
			return int64(a)
		}, 0},
		{"semantics 2", v3, mmv.ErrField, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV2, 0, 16)
			le.PutUint32(b[a:], 2)
			return int64(a)
		}, 0},
		{"unknown indom", v1, mmv.ErrInDom, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV1, 0, 80)
			le.PutUint32(b[a:], 99)
			return int64(a)
		}, 0},
		{"metric help past end", v1, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV1, 1, 88)
			le.PutUint64(b[a:], uint64(len(b)-1))
			return int64(a)
		}, 0},
		{"metric help without NUL", v3, mmv.ErrString, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionMetrics, mmv.MetricSizeV2, 1, 32)
			s := le.Uint64(b[a:])
			for i := range 256 {
				b[s+uint64(i)] = 'h'
			}
			return int64(a)
		}, 0},
		{"value metric not an entry", v1, mmv.ErrOffset, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionValues, mmv.ValueSize, 2, 16)
			le.PutUint64(b[a:], le.Uint64(b[a:])+8)
			return int64(a)
		}, 0},
		{"singular value with instance", v3, mmv.ErrInstance, func(t *testing.T, b []byte) int64 {
			off, _, _ := tocEntry(t, b, mmv.SectionInstances)
			a := at(t, b, mmv.SectionValues, mmv.ValueSize, 0, 24)
			le.PutUint64(b[a:], off)
			return int64(a)
		}, 0},
		{"value instance not an entry", v1, mmv.ErrOffset, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionValues, mmv.ValueSize, 3, 24)
			le.PutUint64(b[a:], 8)
			return int64(a)
		}, 0},
		{"string value past end", v3, mmv.ErrBounds, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionValues, mmv.ValueSize, 10, 8)
			le.PutUint64(b[a:], uint64(len(b)))
			return int64(a)
		}, 0},
		{"label flags", v3, mmv.ErrField, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionLabels, mmv.LabelSize, 1, 0)
			le.PutUint32(b[a:], 0x0c)
			return int64(a)
		}, 0},
		{"label payload without NUL", v3, mmv.ErrString, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionLabels, mmv.LabelSize, 2, 12)
			for i := range 244 {
				b[a+i] = '}'
			}
			return int64(a)
		}, 0},
		{"label not one member", v3, mmv.ErrLabel, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionLabels, mmv.LabelSize, 0, 12)
			copy(b[a:], "{\"a\":1,\"b\":2}\x00")
			return int64(a + 6)
		}, 0},
		{"label name", v3, mmv.ErrLabel, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionLabels, mmv.LabelSize, 0, 12)
			copy(b[a:], "{\"1a\":1}\x00")
			return int64(a + 2)
		}, 0},
		{"label value", v3, mmv.ErrLabel, func(t *testing.T, b []byte) int64 {
			a := at(t, b, mmv.SectionLabels, mmv.LabelSize, 0, 12)
			copy(b[a:], "{\"a\":tru}\x00")
			return int64(a + 5)
		}, 0},
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

func bytes64(c byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return b
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
