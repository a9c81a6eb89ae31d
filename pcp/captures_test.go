package pcp

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// pminfoType maps pminfo -d's type wording, as printed in the captures, to
// the type code; it checks that the DESC PDUs and pminfo agree, so a
// mismatch in the pairing below cannot go unnoticed.
var pminfoType = map[string]Type{
	"32-bit int": Type32, "32-bit unsigned int": TypeU32, "64-bit int": Type64,
	"64-bit unsigned int": TypeU64, "float": TypeFloat, "double": TypeDouble,
	"string": TypeString, "aggregate": TypeAggregate, "event record array": TypeEvent,
	"highres event record array": TypeHighResEvent,
}

// descsOf returns the pmDesc of every DESC PDU in pmcd's byte stream.
func descsOf(t testing.TB, stream []byte) []Desc {
	var out []Desc
	for off := 0; off < len(stream); {
		if len(stream)-off < 12 {
			t.Fatalf("trailing %d bytes", len(stream)-off)
		}
		n := int(binary.BigEndian.Uint32(stream[off:]))
		typ := binary.BigEndian.Uint32(stream[off+4:])
		if n < 12 || n > len(stream)-off {
			t.Fatalf("bad PDU length %d at %d", n, off)
		}
		if typ == 0x7005 {
			b := stream[off+12 : off+n]
			w := func(i int) uint32 { return binary.BigEndian.Uint32(b[4*i:]) }
			out = append(out, Desc{ID(w(0)), Type(int32(w(1))), InDom(w(2)), Sem(int32(w(3))), Units(w(4))})
		}
		off += n
	}
	return out
}

// captureConvs are the conversations of testdata/captures with pminfo's
// output beside the server's stream.
var captureConvs = []string{"01", "03", "04", "05", "16", "17"}

// readCapture reads conversation conv: the server's stream and what
// pminfo printed.
func readCapture(t *testing.T, conv string) (server, pminfo []byte) {
	t.Helper()
	server, err := os.ReadFile("testdata/captures/conv" + conv + ".server.bin")
	if err != nil {
		t.Fatal(err)
	}
	pminfo, err = os.ReadFile("testdata/captures/conv" + conv + ".out.txt")
	if err != nil {
		t.Fatal(err)
	}
	return server, pminfo
}

func TestCapturesDescText(t *testing.T) {
	for _, conv := range captureConvs {
		bin, text := readCapture(t, conv)
		descs := descsOf(t, bin)
		lines := strings.Split(string(text), "\n")
		k := 0
		for i, line := range lines {
			rest, ok := strings.CutPrefix(line, "    Data Type: ")
			if !ok {
				continue
			}
			if k >= len(descs) {
				t.Fatalf("conv%s: more pminfo descriptors than DESC PDUs", conv)
			}
			d := descs[k]
			k++
			typeText, indomText, _ := strings.Cut(rest, "  InDom: ")
			if pminfoType[typeText] != d.Type {
				t.Errorf("conv%s line %d: pminfo type %q, DESC has %v", conv, i+1, typeText, d.Type)
			}
			want := d.InDom.String() + " 0x" + strconv.FormatUint(uint64(d.InDom), 16)
			if indomText != want {
				t.Errorf("conv%s line %d: InDom %q, we print %q", conv, i+1, indomText, want)
			}
			semText, unitsText, _ := strings.Cut(strings.TrimPrefix(lines[i+1], "    Semantics: "), "  Units: ")
			if d.Sem.String() != semText {
				t.Errorf("conv%s line %d: Semantics %q, we print %q", conv, i+2, semText, d.Sem)
			}
			u := d.Units.String()
			if u == "" {
				u = "none" // pminfo's word for dimensionless units
			}
			if u != unitsText {
				t.Errorf("conv%s line %d: Units %q, we print %q (%#08x)", conv, i+2, unitsText, u, uint32(d.Units))
			}
			if got := d.String(); got != lines[i]+"\n"+lines[i+1]+"\n" {
				t.Errorf("conv%s line %d: Desc.String() = %q", conv, i+1, got)
			}
			// With -m, the name line carries the pmID.
			if _, id, ok := strings.Cut(lines[i-1], " PMID: "); ok && id != d.ID.String() {
				t.Errorf("conv%s line %d: PMID %q, we print %q", conv, i, id, d.ID)
			}
		}
		if k != len(descs) || k == 0 {
			t.Errorf("conv%s: %d pminfo descriptors, %d DESC PDUs", conv, k, len(descs))
		}
	}
}

// pminfoValue formats an atom the way pminfo -f printed the captured
// values (integers in decimal, floats shortest, strings quoted, aggregates
// quoted then in hex).
func pminfoValue(a Atom) string {
	switch a.Type() {
	case Type32:
		return strconv.FormatInt(int64(a.Int32()), 10)
	case TypeU32:
		return strconv.FormatUint(uint64(a.Uint32()), 10)
	case Type64:
		return strconv.FormatInt(a.Int64(), 10)
	case TypeU64:
		return strconv.FormatUint(a.Uint64(), 10)
	case TypeFloat:
		return strconv.FormatFloat(float64(a.Float32()), 'g', -1, 32)
	case TypeDouble:
		return strconv.FormatFloat(a.Float64(), 'g', -1, 64)
	case TypeString:
		return `"` + string(a.Bytes()) + `"`
	case TypeAggregate:
		return `"` + string(a.Bytes()) + `" [` + hex.EncodeToString(a.Bytes()) + "]"
	}
	return "?"
}

// resultValues returns, per pmID, the values of the last HIGHRES_RESULT
// in pmcd's stream that carried the metric.
func resultValues(t testing.TB, stream []byte) map[ID][]Raw {
	vals := make(map[ID][]Raw)
	for off := 0; off < len(stream); {
		n := int(binary.BigEndian.Uint32(stream[off:]))
		pdu := stream[off : off+n]
		off += n
		if binary.BigEndian.Uint32(pdu[4:]) != 0x7015 {
			continue
		}
		w := func(o int) uint32 { return binary.BigEndian.Uint32(pdu[o:]) }
		p := 32
		for range w(12) {
			id, numval := ID(w(p)), int32(w(p+4))
			p += 8
			if numval <= 0 {
				continue
			}
			valfmt := w(p)
			p += 4
			var raws []Raw
			for range numval {
				word := w(p + 4)
				p += 8
				if valfmt == 0 {
					raws = append(raws, Raw{Insitu: true, Word: word})
					continue
				}
				hdr := w(int(word) * 4)
				start := int(word)*4 + 4
				raws = append(raws, Raw{Block: pdu[start : start+int(hdr&0xffffff)-4]})
			}
			vals[id] = raws
		}
	}
	return vals
}

func TestCapturesExtractValues(t *testing.T) {
	checked := 0
	for _, conv := range captureConvs {
		bin, text := readCapture(t, conv)
		descs := descsOf(t, bin)
		vals := resultValues(t, bin)
		k := -1
		var raws []Raw
		vi := 0
		for line := range strings.Lines(string(text)) {
			line = strings.TrimSuffix(line, "\n")
			if strings.HasPrefix(line, "    Data Type: ") {
				k++
				raws, vi = vals[descs[k].ID], 0
				continue
			}
			_, want, ok := strings.Cut(line, "value ")
			if !ok || k < 0 {
				continue
			}
			if vi >= len(raws) {
				t.Fatalf("conv%s: %s has more values than the RESULT", conv, descs[k].ID)
			}
			d := descs[k]
			a, err := Extract(raws[vi], d.Type, d.Type)
			vi++
			if d.Type == TypeEvent || d.Type == TypeHighResEvent {
				if !errors.Is(err, ErrConv) {
					t.Errorf("conv%s: event value extracted: %v", conv, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("conv%s %s: %v", conv, d.ID, err)
				continue
			}
			if got := pminfoValue(a); got != want {
				t.Errorf("conv%s %s: value %s, pminfo %s", conv, d.ID, got, want)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d values checked", checked)
	}
}
