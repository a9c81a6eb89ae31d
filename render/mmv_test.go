package render

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// checkAppendMMV holds mmv_read's in-place writer to ReadMMV's bytes,
// after whatever dst holds.
func checkAppendMMV(t *testing.T, name string, in []byte, big bool) {
	t.Helper()
	r := ReadMMV(in, big)
	want, _ := r.MarshalMsg([]byte("prefix"))
	if got := AppendMMV([]byte("prefix"), in, big); !bytes.Equal(got, want) {
		t.Errorf("%s (big %v, error %v): AppendMMV\n%x\nReadMMV\n%x", name, big, r.Error, got, want)
		return
	}
}

// TestAppendMMV: every MMV file of the repository (PCP's mmvdump test
// files, speed's, the QA file mmv_read refuses), both byte orders, files
// damaged byte by byte, and a version 3 file with every value type,
// strings, infinities, missing values and labels.
func TestAppendMMV(t *testing.T) {
	files, _ := filepath.Glob("../mmv/testdata/*/*")
	more, _ := filepath.Glob("testdata/*.mmv")
	n := 0
	for _, f := range append(files, more...) {
		if filepath.Ext(f) == ".txt" || filepath.Ext(f) == ".md" {
			continue
		}
		in, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		n++
		checkAppendMMV(t, f, in, false)
		checkAppendMMV(t, f, in, true)
		if len(in) > 100000 {
			continue
		}
		for i := 0; i < len(in); i += 7 {
			b := bytes.Clone(in)
			b[i] ^= 0x5a
			checkAppendMMV(t, f, b, false)
		}
	}
	if n < 10 {
		t.Fatalf("%d MMV files", n)
	}
	reg := &mmv.Registry{Cluster: 7, Gen: 3, Flags: mmv.FlagSentinel, Process: 42,
		Indoms: []mmv.IndomDef{{Serial: 1, ShortText: "short", HelpText: "help text",
			Instances: []mmv.InstanceDef{{ID: 1, Name: "one"}, {ID: -5, Name: "minus five"}}}},
		Labels: []mmv.LabelDef{{Flags: mmv.LabelCluster, Identity: 7, Name: "a", Value: `"b"`},
			{Flags: mmv.LabelInstances | mmv.LabelOptional, Identity: 1, Internal: -5, Name: "n", Value: "1.5"}},
	}
	types := []mmv.Type{mmv.TypeI32, mmv.TypeU32, mmv.TypeI64, mmv.TypeU64, mmv.TypeFloat, mmv.TypeDouble, mmv.TypeString, mmv.TypeElapsed}
	for i, ty := range types {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{Name: "m.x" + string(rune('a'+i)), Item: uint32(i + 1), Type: ty,
			Sem: pcp.SemInstant, Units: pcp.NewUnits(1, -1, 0, pcp.SpaceKByte, pcp.TimeSec, 0), Indom: uint32(i % 2),
			ShortText: "s", HelpText: "h"})
	}
	p, err := reg.Plan()
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		b := p.AppendFile(nil, order)
		for m, ty := range types {
			for inst := range 2 {
				s, err := p.Slot(b, order, m, inst)
				if err != nil {
					continue
				}
				switch {
				case ty == mmv.TypeString:
					_ = s.SetString("a string longer than thirty-one bytes")
				case ty == mmv.TypeDouble:
					s.SetFloat(math.Inf(-1))
				case inst == 1:
					s.Clear() // missing, with the sentinel flag
				default:
					s.Add(-3)
				}
			}
		}
		checkAppendMMV(t, "built", b, order == binary.BigEndian)
		// A metric of a type mmv_read does not know (TypeNoSupport, which
		// Plan does not lay out): its value has neither number nor text.
		nb := append([]byte(nil), b...)
		r0, err := mmv.Parse(nb, mmv.Options{Order: order})
		if err != nil {
			t.Fatal(err)
		}
		msz := mmv.MetricSizeV2
		if r0.Header().Version == 1 {
			msz = mmv.MetricSizeV1
		}
		order.PutUint32(nb[r0.Metric(0).Offset+msz-36:], 0xffffffff) // the type word
		if r1, err := mmv.Parse(nb, mmv.Options{Order: order}); err != nil || r1.Metric(0).Type != mmv.TypeNoSupport {
			t.Fatalf("metric 0 of no type: %v", err)
		}
		checkAppendMMV(t, "built, metric 0 of no type", nb, order == binary.BigEndian)
		r := ReadMMV(b, order == binary.BigEndian)
		var missing, text, inf bool
		for _, v := range r.Values {
			missing = missing || v.Missing
			text = text || v.Text != nil && len(*v.Text) > 31
			inf = inf || v.Float != nil && math.IsInf(*v.Float, -1)
		}
		if r.Error != nil || len(r.Labels) != 2 || !missing || !text || !inf {
			t.Errorf("built file: error %v, %d labels, missing %v, text %v, -Inf %v", r.Error, len(r.Labels), missing, text, inf)
		}
	}
}
