package labels

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// The helpers below decode just enough of PCP's PDU framing (docs/pcp-pdu.md
// §4.15) to reach the label sets in captured pmcd streams; the real PDU
// decoder lives in pduwire.

const (
	pduDesc  = 0x7005
	pduLabel = 0x7013
)

// pdu is one PDU of a stream: its type and whole bytes.
type pdu struct {
	typ  uint32
	body []byte // the whole PDU, header included
}

// splitPDUs cuts a pmcd byte stream into PDUs by their len words.
func splitPDUs(t testing.TB, b []byte) []pdu {
	t.Helper()
	var out []pdu
	for len(b) > 0 {
		if len(b) < 12 {
			t.Fatalf("trailing %d bytes", len(b))
		}
		n := binary.BigEndian.Uint32(b)
		if n < 12 || uint64(n) > uint64(len(b)) {
			t.Fatalf("bad PDU len %d", n)
		}
		out = append(out, pdu{binary.BigEndian.Uint32(b[4:]), b[:n]})
		b = b[n:]
	}
	return out
}

// labelPDU is a decoded LABEL PDU: the request it answers and its sets.
type labelPDU struct {
	ident, typ uint32
	insts      []uint32
	sets       []*Set
}

// decodeLabelPDU decodes a LABEL PDU body, verifying each set with v.
func decodeLabelPDU(b []byte, v Verify) (labelPDU, error) {
	return decodeLabelPDUWith(b, func(s *Set, json, index []byte) error {
		if err := s.DecodeWire(json, index, v); err != nil {
			return err
		}
		if string(s.AppendIndex(nil)) != string(index) {
			return errors.New("index does not re-encode to the received bytes")
		}
		return nil
	})
}

// decodeLabelPDUWith decodes a LABEL PDU body, making each set with dec.
func decodeLabelPDUWith(b []byte, dec func(s *Set, json, index []byte) error) (labelPDU, error) {
	var r labelPDU
	if len(b) < 28 {
		return r, errors.New("short LABEL PDU")
	}
	r.ident = binary.BigEndian.Uint32(b[12:])
	r.typ = binary.BigEndian.Uint32(b[16:])
	nsets := binary.BigEndian.Uint32(b[24:])
	if uint64(nsets) > uint64(len(b)-16)/16 {
		return r, errors.New("nsets too big")
	}
	off := 28
	for i := uint32(0); i < nsets; i++ {
		if off+16 > len(b) {
			return r, errors.New("set header out of bounds")
		}
		inst := binary.BigEndian.Uint32(b[off:])
		nlabels := int32(binary.BigEndian.Uint32(b[off+4:]))
		json := binary.BigEndian.Uint32(b[off+8:])
		jsonlen := binary.BigEndian.Uint32(b[off+12:])
		off += 16
		if nlabels >= 255 || uint64(json)+uint64(jsonlen) > uint64(len(b)) {
			return r, errors.New("set out of bounds")
		}
		n := max(int(nlabels), 0)
		if off+8*n > len(b) {
			return r, errors.New("index out of bounds")
		}
		s := new(Set)
		index := b[off : off+8*n]
		if err := dec(s, b[json:json+jsonlen], index); err != nil {
			return r, err
		}
		off += 8 * n
		r.insts = append(r.insts, inst)
		r.sets = append(r.sets, s)
	}
	return r, nil
}

// captureMetric is one metric of a pminfo run: its pmID and indom, from
// the DESC PDU pmcd sent.
type captureMetric struct{ pmid, indom uint32 }

// labelLines returns pminfo's "labels {...}" lines in order: the metric
// line and then the instance lines, as "inst N {...}" for instances.
func labelLines(out string) [][]string {
	var metrics [][]string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "labels "):
			metrics = append(metrics, []string{strings.TrimPrefix(l, "labels ")})
		case strings.HasPrefix(l, "inst [") && strings.Contains(l, "] labels "):
			inst := strings.Fields(strings.TrimPrefix(l, "inst ["))[0]
			_, js, _ := strings.Cut(l, "] labels ")
			metrics[len(metrics)-1] = append(metrics[len(metrics)-1], "inst "+inst+" "+js)
		}
	}
	return metrics
}

// TestCaptureLabelsMatchPminfo decodes every LABEL PDU pmcd 6.0.3 sent in
// the captured pminfo -l runs, strictly, merges each metric's levels as
// pmLookupLabels does and compares with the labels pminfo printed.
func TestCaptureLabelsMatchPminfo(t *testing.T) {
	for _, conv := range []string{"conv01", "conv03", "conv04", "conv05"} {
		t.Run(conv, func(t *testing.T) {
			var metrics []captureMetric
			byReq := map[[2]uint32]labelPDU{}
			clusters := map[uint32]labelPDU{} // keyed by pmID with item 0
			for _, p := range splitPDUs(t, readFile(t, "captures/"+conv+".server.bin")) {
				switch p.typ {
				case pduDesc:
					metrics = append(metrics, captureMetric{binary.BigEndian.Uint32(p.body[12:]), binary.BigEndian.Uint32(p.body[20:])})
				case pduLabel:
					lp, err := decodeLabelPDU(p.body, VerifyStrict)
					if err != nil {
						t.Fatalf("LABEL ident %#x type %d: %v", lp.ident, lp.typ, err)
					}
					if lp.typ == uint32(Cluster) {
						clusters[lp.ident&^0x3ff] = lp
					}
					byReq[[2]uint32{lp.typ, lp.ident}] = lp
				}
			}
			lines := labelLines(string(readFile(t, "captures/"+conv+".out.txt")))
			if len(lines) != len(metrics) || len(metrics) == 0 {
				t.Fatalf("%d metrics with DESC, %d printed with labels", len(metrics), len(lines))
			}
			one := func(typ Flags, ident uint32) *Set {
				lp, ok := byReq[[2]uint32{uint32(typ), ident}]
				if !ok || len(lp.sets) == 0 {
					return nil
				}
				return lp.sets[0]
			}
			for i, m := range metrics {
				levels := []*Set{
					one(Context, 0xffffffff),
					one(Domain, m.pmid>>22&0x1ff),
					one(InDom, m.indom),
				}
				if c, ok := clusters[m.pmid&^0x3ff]; ok {
					levels = append(levels, c.sets[0])
				}
				levels = append(levels, one(Item, m.pmid))
				var merged Set
				if err := Merge(&merged, levels, nil); err != nil {
					t.Fatal(err)
				}
				if got := string(merged.JSON); got != lines[i][0] {
					t.Errorf("metric %d (pmid %#x):\n got %s\nwant %s", i, m.pmid, got, lines[i][0])
				}
				inst := byReq[[2]uint32{uint32(Instances), m.indom}]
				for _, want := range lines[i][1:] {
					f := strings.SplitN(want, " ", 3)
					n, _ := strconv.ParseUint(f[1], 10, 32)
					var is *Set
					for k, id := range inst.insts {
						if id == uint32(n) {
							is = inst.sets[k]
						}
					}
					if is == nil {
						t.Fatalf("metric %d: no instance %d in the LABEL PDU", i, n)
					}
					if err := Merge(&merged, append(levels, is), nil); err != nil {
						t.Fatal(err)
					}
					if got := string(merged.JSON); got != f[2] {
						t.Errorf("metric %d inst %d:\n got %s\nwant %s", i, n, got, f[2])
					}
				}
			}
		})
	}
}
