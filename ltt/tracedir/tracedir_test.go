package tracedir_test

import (
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/eventdefs"
	"github.com/perfwire/perfwire/ltt/tracedir"
)

func TestOpenSample(t *testing.T) {
	tr, err := tracedir.Open(os.DirFS("../testdata/smp_example"), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.CPUs) != 2 || tr.CPUs[0].CPU != 0 || tr.CPUs[1].CPU != 1 || len(tr.Control) != 3 {
		t.Fatalf("cpus %d control %d", len(tr.CPUs), len(tr.Control))
	}
	if len(tr.Facilities) != 1 || tr.Facilities[0].Checksum() != 0x06588858 {
		t.Fatalf("facilities %v", tr.Facilities)
	}
	for i, want := range []int{85917, 87240} {
		n := 0
		for blk, err := range tr.CPUs[i].Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			s := blk.Scanner()
			for s.Next() {
				n++
			}
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
		}
		if n != want {
			t.Errorf("cpu/%d: %d events, want %d", i, n, want)
		}
	}
	for _, c := range tr.Control {
		if c.NumBlocks() != 0 {
			t.Errorf("%s: %d blocks", c.Name, c.NumBlocks())
		}
	}
}

const demoXML = `<facility name=demo>
  <event name=ev_empty><description>no payload</description></event>
  <event name=ev_pair><typeref name=pair/></event>
  <type name=pair><struct>
    <field name=k><uint size=2/></field>
    <field name=v><int size=long/></field>
  </struct></type>
</facility>`

// multiFacility builds a big-endian LP64 trace whose demo facility sits
// at base 30 through a facility_load record; checksum overrides the
// record's checksum when non-zero.
func multiFacility(t *testing.T, checksum uint32) fstest.MapFS {
	return multiFacilityAt(t, checksum, 30)
}

func multiFacilityAt(t *testing.T, checksum uint32, loadBase uint16) fstest.MapFS {
	core, err := os.ReadFile("../testdata/smp_example/eventdefs/core.xml")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := eventdefs.Parse([]byte(demoXML), eventdefs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	demo := fs[0]
	if checksum == 0 {
		checksum = demo.Checksum()
	}
	cfg := ltt.Options{BigEndian: true, Arch: ltt.LP64, BlockSize: 512}
	r, err := ltt.NewDecoder(cfg, ltt.Core())
	if err != nil {
		t.Fatal(err)
	}
	l := r.Layout()
	w := ltt.NewWriter(r, nil)
	if err := w.Event(ltt.IDFacilityLoad, 1, l.AppendFacilityLoad(nil, "demo", checksum, loadBase)); err != nil {
		t.Fatal(err)
	}
	control, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}

	demo.Base = 30
	r, err = ltt.NewDecoder(cfg, ltt.Core(), demo)
	if err != nil {
		t.Fatal(err)
	}
	w = ltt.NewWriter(r, nil)
	for i := range 100 {
		c := uint64(1000 + 10*i)
		var err error
		if i%2 == 0 {
			err = w.Event(30, c, nil)
		} else {
			p := l.AppendUint(nil, ltt.Size2, uint64(i))
			err = w.Event(31, c, l.AppendInt(p, ltt.SizeLong, -int64(i)))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cpu, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	sys := `<system cpu="1" arch_size="LP64" endian="BIG_ENDIAN" ltt_block_size="512">demo</system>`
	return fstest.MapFS{
		"info/system.xml":    {Data: []byte(sys)},
		"eventdefs/core.xml": {Data: core},
		"eventdefs/demo.xml": {Data: []byte(demoXML)},
		"control/facilities": {Data: control},
		"control/interrupts": {Data: nil},
		"cpu/0":              {Data: cpu},
		"cpu/.svn/entries":   {Data: []byte("x")},
		"cpu/notes":          {Data: []byte("not a tracefile")},
	}
}

func TestOpenFacilityLoad(t *testing.T) {
	tr, err := tracedir.Open(multiFacility(t, 0), tracedir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.CPUs) != 1 || len(tr.Control) != 2 || tr.Facilities[1].Name != "demo" || tr.Facilities[1].Base != 30 {
		t.Fatalf("cpus %d control %d facilities %+v", len(tr.CPUs), len(tr.Control), tr.Facilities)
	}
	pairs, sum := 0, int64(0)
	for blk, err := range tr.CPUs[0].Blocks() {
		if err != nil {
			t.Fatal(err)
		}
		if blk.Version != ltt.Version2 {
			t.Fatalf("version %v", blk.Version)
		}
		for ev, err := range blk.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Type.Name() == "demo.ev_pair" {
				pairs++
				k, _ := ev.Field("k")
				v, _ := ev.Field("v")
				if len(v.Bytes()) != 8 || v.Int() != -int64(k.Uint()) {
					t.Errorf("pair k=%d v=%d (%d bytes)", k.Uint(), v.Int(), len(v.Bytes()))
				}
				sum += v.Int()
			}
		}
	}
	if pairs != 50 || sum != -2500 {
		t.Errorf("%d pairs, sum %d", pairs, sum)
	}
}

// hasCode reports whether err is a decode error of the kind code names.
func hasCode(err error, code string) bool {
	pe, ok := errors.AsType[*eventdefs.ParseError](err)
	return ok && pe.Code() == code
}

func TestOpenErrors(t *testing.T) {
	_, err := tracedir.Open(multiFacility(t, 0xdeadbeef), tracedir.Options{})
	if !errors.Is(err, ltt.ErrFacility) {
		t.Errorf("checksum mismatch: %v", err)
	}
	if _, err := tracedir.Open(multiFacilityAt(t, 0, 20), tracedir.Options{}); !errors.Is(err, ltt.ErrFacility) {
		t.Errorf("demo at 20 overlapping core's 0–21: %v", err)
	}
	fsys := multiFacility(t, 0)
	fsys["info/system.xml"] = &fstest.MapFile{Data: []byte(`<system endian="little" ltt_block_size="512">x</system>`)}
	if _, err := tracedir.Open(fsys, tracedir.Options{}); !hasCode(err, "eventdefs_attribute") {
		t.Errorf("bad endian: %v", err)
	}
	delete(fsys, "info/system.xml")
	if _, err := tracedir.Open(fsys, tracedir.Options{}); err == nil {
		t.Error("missing system.xml accepted")
	}
	fsys = multiFacility(t, 0)
	if _, err := tracedir.Open(fsys, tracedir.Options{MaxFileSize: 100}); !errors.Is(err, tracedir.ErrLayout) {
		t.Errorf("size limit: %v", err)
	}
}

// TestMerge: the two CPUs of the sample interleave into one stream of
// 85,917 + 87,240 events whose times never decrease.
func TestMerge(t *testing.T) {
	tr, err := tracedir.Open(os.DirFS("../testdata/smp_example"), tracedir.Options{MicroTime: true})
	if err != nil {
		t.Fatal(err)
	}
	per := map[int]int{}
	var prev int64
	for cpu, ev := range tr.Merge() {
		if ev == nil {
			t.Fatal(tr.MergeErr())
		}
		if ev.Time < prev {
			t.Fatalf("cpu %d offset %d: time goes back", cpu, ev.Offset)
		}
		prev = ev.Time
		per[cpu]++
	}
	if tr.MergeErr() != nil || per[0] != 85917 || per[1] != 87240 {
		t.Errorf("merged %v, err %v", per, tr.MergeErr())
	}
}
