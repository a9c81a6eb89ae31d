package dlt

import (
	"bytes"
	"testing"
)

// TestCaptureRoundTrip re-encodes every message of every capture from its
// decoded fields and expects the original bytes, then checks that the
// big-endian twin of every verbose message decodes to the same values.
func TestCaptureRoundTrip(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			data := readCapture(t, c.name)
			var out []byte
			for _, m := range scanAll(t, data, Options{}) {
				out = reencode(t, out, m, false)
			}
			if !bytes.Equal(out, data) {
				i := 0
				for i < len(out) && i < len(data) && out[i] == data[i] {
					i++
				}
				t.Fatalf("re-encoded capture differs at offset %d (len %d, want %d)", i, len(out), len(data))
			}
		})
	}
}

func TestBigEndianTwins(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			data := readCapture(t, c.name)
			var twins []byte
			var orig []Message
			for _, m := range scanAll(t, data, Options{}) {
				if m.Verbose() {
					twins = reencode(t, twins, m, true)
					orig = append(orig, m)
				}
			}
			got := scanAll(t, twins, Options{})
			if len(got) != len(orig) {
				t.Fatalf("%d twins, want %d", len(got), len(orig))
			}
			for i, m := range got {
				o := orig[i]
				if m.Order() != orderOf(true) || m.HeaderType() != o.HeaderType()|HTYPBigEndian || m.Len() != o.Len() {
					t.Fatalf("twin %d: HTYP %#x LEN %d, original %#x %d", i, m.HeaderType(), m.Len(), o.HeaderType(), o.Len())
				}
				var ga, oa []byte
				for a, err := range m.Args() {
					if err != nil {
						t.Fatal(err)
					}
					ga, _ = a.AppendText(append(ga, '|'))
				}
				for a := range o.Args() {
					oa, _ = a.AppendText(append(oa, '|'))
				}
				if !bytes.Equal(ga, oa) {
					t.Fatalf("twin %d args %q, want %q", i, ga, oa)
				}
			}
		})
	}
}

// TestCopyRawArgs rebuilds every verbose message of a capture from its
// arguments' Raw bytes and expects the original record.
func TestCopyRawArgs(t *testing.T) {
	data := readCapture(t, "kpi-odd")
	for _, m := range scanAll(t, data, Options{}) {
		if !m.Verbose() {
			continue
		}
		b := NewBuilder(AppendStorageHeader(nil, m.StorageHeader()), headerOf(m))
		for a, err := range m.Args() {
			if err != nil {
				t.Fatal(err)
			}
			b.Bytes(a.Raw(), 1)
		}
		out, err := b.Finish()
		if err != nil || !bytes.Equal(out, m.Bytes()) {
			t.Fatalf("message at %d: %v", m.Offset(), err)
		}
	}
}
