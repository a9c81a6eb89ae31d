package mmv_test

import (
	"encoding/binary"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

// TestNextValue reads the values of every real file and of the sample
// registry's layouts (each version, both byte orders) by NextValue, as
// they lie and with their value entries reversed (so that no value
// follows the last one's metric and instance), and checks each value
// against its entry's own offsets: the metric and the instance are those
// whose entries (found by Metric and Instance, not by the lookups
// NextValue and Value share) sit where the value points, the type is
// that metric's. Starting from a Value with the wrong metric and
// instance must give the same.
func TestNextValue(t *testing.T) {
	type file struct {
		name  string
		b     []byte
		order binary.ByteOrder
	}
	var files []file
	for _, name := range realFiles(t) {
		files = append(files, file{name, readFile(t, name), binary.LittleEndian})
	}
	files = append(files, file{"testdata/qa/large-parfait", readFile(t, "testdata/qa/large-parfait"), binary.LittleEndian})
	for _, v := range []int32{1, 2, 3} {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			p, err := sampleRegistry(v, v > 1).Plan()
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, file{"sample v" + string(rune('0'+v)) + " " + order.String(), p.AppendFile(nil, order), order})
		}
	}
	for _, f := range files {
		for _, reversed := range []bool{false, true} {
			b := append([]byte(nil), f.b...)
			o := mmv.Options{Order: f.order, SkipRefused: true}
			r, err := mmv.Parse(b, o)
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			n := r.NumValues()
			if reversed {
				if n < 2 {
					continue
				}
				start := r.Value(0).Offset
				for i := range n / 2 {
					x, y := b[start+i*mmv.ValueSize:][:mmv.ValueSize], b[start+(n-1-i)*mmv.ValueSize:][:mmv.ValueSize]
					var tmp [mmv.ValueSize]byte
					copy(tmp[:], x)
					copy(x, y)
					copy(y, tmp[:])
				}
				if r, err = mmv.Parse(b, o); err != nil {
					t.Fatalf("%s reversed: %v", f.name, err)
				}
			}
			metrics, instances := map[uint64]int{}, map[uint64]int{}
			for i := range r.NumMetrics() {
				metrics[uint64(r.Metric(i).Offset)] = i
			}
			for i := range r.NumInstances() {
				instances[uint64(r.Instance(i).Offset)] = i
			}
			v, i := mmv.Value{Index: -1}, 0
			for ; r.NextValue(&v); i++ {
				at := v.Offset
				mi, ok := metrics[f.order.Uint64(b[at+16:])]
				ii, iok := instances[f.order.Uint64(b[at+24:])]
				if !iok {
					ii = -1
				}
				if v.Index != i || !ok || v.Metric != mi || v.Instance != ii || v.Type != r.Metric(mi).Type {
					t.Fatalf("%s (reversed %v): value %d at %d: NextValue gave index %d metric %d instance %d type %v, the entry points at metric %d (found %v) instance %d type %v",
						f.name, reversed, i, at, v.Index, v.Metric, v.Instance, v.Type, mi, ok, ii, r.Metric(mi).Type)
				}
				if w := r.Value(i); w.Index != v.Index || w.Offset != v.Offset || w.Metric != v.Metric || w.Instance != v.Instance ||
					w.Type != v.Type || w.Int() != v.Int() {
					t.Fatalf("%s: value %d: Value and NextValue differ: %+v, %+v", f.name, i, w, v)
				}
				// From a Value whose metric and instance are not the
				// previous entry's.
				for _, d := range []int{1, 2, -3} {
					w := mmv.Value{Index: i - 1, Metric: mi + d, Instance: ii + d}
					if !r.NextValue(&w) || w.Metric != mi || w.Instance != ii || w.Type != v.Type {
						t.Fatalf("%s: value %d from metric %d instance %d: got metric %d instance %d", f.name, i, mi+d, ii+d, w.Metric, w.Instance)
					}
				}
			}
			if i != n {
				t.Errorf("%s: NextValue read %d values of %d", f.name, i, n)
			}
			if w := (mmv.Value{Index: -2}); r.NextValue(&w) {
				t.Errorf("%s: NextValue after index -2 gave a value", f.name)
			}
		}
	}
}
