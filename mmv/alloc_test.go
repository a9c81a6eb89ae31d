package mmv_test

import (
	"encoding/binary"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// TestAllocs checks the zero-allocation contract: validating a file,
// reading every entry and value, and every slot update.
func TestAllocs(t *testing.T) {
	files := realFiles(t)
	datas := make([][]byte, len(files))
	for i, f := range files {
		datas[i] = readFile(t, f)
	}
	var sink int64
	read := testing.AllocsPerRun(100, func() {
		for _, b := range datas {
			r, err := mmv.Parse(b, mmv.Options{})
			if err != nil {
				panic(err)
			}
			for m := range r.Metrics() {
				sink += int64(len(m.Name) + len(m.HelpText))
			}
			for i := range r.NumInstances() {
				sink += int64(len(r.Instance(i).Name))
			}
			for l := range r.Labels() {
				sink += int64(len(l.Payload))
			}
			for v := range r.Values() {
				sink += v.Int() + int64(v.Float()) + int64(len(v.Text())) + v.Elapsed(1)
				if v.Missing() {
					sink++
				}
			}
			if r.Stale() {
				sink++
			}
		}
	})
	if read != 0 {
		t.Errorf("reading: %v allocs per run, want 0", read)
	}
	p, err := sampleRegistry(3, true).Plan()
	if err != nil {
		t.Fatal(err)
	}
	b := p.AppendFile(nil, binary.NativeEndian)
	slot := func(m string, inst string) mmv.Slot {
		mi, ii, err := p.Lookup(m, inst)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Slot(b, binary.NativeEndian, mi, ii)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	u64, dbl, str, el := slot("u64", "red"), slot("double", "blue"), slot("string", ""), slot("elapsed", "")
	set := testing.AllocsPerRun(100, func() {
		u64.Add(1)
		u64.SetUint(9)
		dbl.SetFloat(1.5)
		dbl.Add(2)
		if err := str.SetString("text"); err != nil {
			panic(err)
		}
		el.Start(10)
		el.Stop(20)
		u64.Clear()
	})
	if set != 0 {
		t.Errorf("slot updates: %v allocs per run, want 0", set)
	}
	buf := make([]byte, 0, 1<<16)
	r, _ := mmv.Parse(b, mmv.Options{Order: binary.NativeEndian})
	dump := testing.AllocsPerRun(20, func() {
		buf = mmv.AppendDump(buf[:0], &r, "x", 0)
		buf, _ = pcp.Units(0x1f023000).AppendText(buf)
	})
	if dump != 0 {
		t.Errorf("dump into a large buffer: %v allocs per run, want 0", dump)
	}
	_ = sink
}
