package mmv_test

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// Read a file written by speed (Go) and print what pmdammv exports.
func ExampleParse() {
	b, err := os.ReadFile("testdata/speed/test2.mmv")
	if err != nil {
		panic(err)
	}
	r, err := mmv.Parse(b, mmv.Options{Order: binary.LittleEndian})
	if err != nil {
		panic(err)
	}
	h := r.Header()
	for v := range r.Values() {
		m := r.Metric(v.Metric)
		name := r.AppendMetricName(nil, mmv.PrefixMMV, "test2", m)
		in := r.Instance(v.Instance)
		fmt.Printf("%s %s [%d or %q] = %d\n", name, mmv.PMID(uint32(h.Cluster), m.Item), in.ID, in.Name, v.Uint())
	}
	// Output:
	// mmv.test2.language.users 70.1297.1021 [1109423947 or "go"] = 8388608
	// mmv.test2.language.users 70.1297.1021 [-2122300086 or "javascript"] = 330
	// mmv.test2.language.users 70.1297.1021 [1531230383 or "php"] = 33
}

// Lay a file out again: speed's file, its registry and values written by
// this package's writer in the other byte order, reads back with the
// values speed wrote (ExampleParse), in the writer's order.
func ExampleFile_Registry() {
	b, err := os.ReadFile("testdata/speed/test2.mmv")
	if err != nil {
		panic(err)
	}
	r, err := mmv.Parse(b, mmv.Options{Order: binary.LittleEndian})
	if err != nil {
		panic(err)
	}
	p, err := r.Registry().Plan()
	if err != nil {
		panic(err)
	}
	out := p.AppendFile(nil, binary.BigEndian)
	if err := p.CopyValues(out, binary.BigEndian, &r); err != nil {
		panic(err)
	}
	back, err := mmv.Parse(out, mmv.Options{Order: binary.BigEndian})
	if err != nil {
		panic(err)
	}
	for v := range back.Values() {
		fmt.Printf("%s [%q] = %d\n", back.Metric(v.Metric).Name, back.Instance(v.Instance).Name, v.Uint())
	}
	// Output:
	// language.users ["javascript"] = 330
	// language.users ["php"] = 33
	// language.users ["go"] = 8388608
}

// Lay out a file, update a counter through its slot, read it back.
func ExampleRegistry_Plan() {
	reg := &mmv.Registry{
		Cluster: 123,
		Gen:     1,
		Metrics: []mmv.MetricDef{{Name: "simple.counter", Item: 1, Type: mmv.TypeU32,
			Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0)}},
	}
	p, err := reg.Plan()
	if err != nil {
		panic(err)
	}
	b := p.AppendFile(nil, binary.LittleEndian)
	counter, _ := p.Slot(b, binary.LittleEndian, 0, 0)
	counter.Add(40)
	counter.Add(2)

	r, err := mmv.Parse(b, mmv.Options{Order: binary.LittleEndian})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(b), "bytes, version", r.Header().Version)
	fmt.Printf("%s = %d\n", r.Metric(0).Name, r.Value(0).Uint())
	// Output:
	// 208 bytes, version 1
	// simple.counter = 42
}

// pmdammv numbers instance domains from the cluster and the serial.
func ExampleInDomID() {
	fmt.Println(mmv.InDomID(2986, 491372), mmv.InDomID(1234, 1))
	// Output: 70.2064236 70.2527233
}

// Print a file the way PCP's mmvdump does.
func ExampleAppendDump() {
	b, _ := os.ReadFile("testdata/speed/test3.mmv")
	r, err := mmv.Parse(b, mmv.Options{})
	if err != nil {
		panic(err)
	}
	os.Stdout.Write(mmv.AppendDump(nil, &r, "test3.mmv", 0))
	// Output:
	// MMV file   = test3.mmv
	// Version    = 1
	// Generated  = 1469564258
	// TOC count  = 3
	// Cluster    = 764
	// Process    = 8672
	// Flags      = 0x2 (process)
	//
	// TOC[0]: toc offset 40, metrics offset 88 (1 entries)
	//   [1022/88] bat.names
	//        type=string (0x6), sem=instant (0x3), pad=0x0
	//        units=count
	//        (no indom)
	//        (no shorttext)
	//        (no helptext)
	//
	// TOC[1]: offset 56, values offset 192 (1 entries)
	//   [1022/192] bat.names = "Robin"
	//
	// TOC[2]: offset 72, string offset 224 (1 entries)
	//   [1/224] Robin
}
