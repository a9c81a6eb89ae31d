package ltt_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/ltt"
)

// Walk one block of the 2004 sample trace (system.xml: ILP32,
// little-endian, 1,000,000-byte blocks) and count its events.
func Example() {
	r, err := ltt.NewDecoder(ltt.Options{Arch: ltt.ILP32, BlockSize: 1000000, MicroTime: true}, ltt.Core())
	if err != nil {
		panic(err)
	}
	data, err := os.ReadFile("testdata/smp_example/cpu/0")
	if err != nil {
		panic(err)
	}
	blk, err := r.Block(data)
	if err != nil {
		panic(err)
	}
	n := 0
	s := blk.Scanner()
	for s.Next() {
		n++
	}
	if err := s.Err(); err != nil {
		panic(err)
	}
	fmt.Println(blk.Version, "block_end at", blk.EndOffset, "events", n, "wraps", s.Wraps())
	// Output: v1 block_end at 774284 events 85917 wraps 1
}

func ExampleFacility_Checksum() {
	fmt.Printf("%#08x\n", ltt.Core().Checksum())
	// Output: 0x06588858
}

// Print the fields of the first named file_system event of cpu/0.
func ExampleValue_Iter() {
	r, _ := ltt.NewDecoder(ltt.Options{Arch: ltt.ILP32, BlockSize: 1000000}, ltt.Core())
	data, _ := os.ReadFile("testdata/smp_example/cpu/0")
	blk, _ := r.Block(data)
	for ev, err := range blk.Events() {
		if err != nil {
			panic(err)
		}
		name, _ := ev.Field("file_name")
		if ev.Type.Name() != "core.file_system" || len(name.Text()) == 0 {
			continue
		}
		fmt.Println(ev.Offset, ev.Type.Name())
		it := ev.Payload().Iter()
		for it.Next() {
			v := it.Value()
			switch v.Kind() {
			case ltt.KindString:
				fmt.Printf("  %s = %q\n", it.Name(), v.Text())
			case ltt.KindEnum:
				label, _ := v.Label(false)
				fmt.Printf("  %s = %d (%s)\n", it.Name(), v.Uint(), label)
			default:
				fmt.Printf("  %s = %d\n", it.Name(), v.Uint())
			}
		}
		break
	}
	// Output:
	// 503 core.file_system
	//   event_sub_id = 4 (TRACE_EV_FILE_SYSTEM_OPEN)
	//   event_data1 = 5
	//   event_data2 = 6
	//   file_name = "c.proc"
}

// Write a v2 tracefile with one schedchange and read it back.
func ExampleNewWriter() {
	r, _ := ltt.NewDecoder(ltt.Options{Arch: ltt.LP64, BigEndian: true, BlockSize: 4096}, ltt.Core())
	l := r.Layout()
	var p []byte
	p = l.AppendUint(p, ltt.Size4, 100) // out
	p = l.AppendUint(p, ltt.Size4, 200) // in
	p = l.AppendUint(p, ltt.Size4, 1)   // out_state
	w := ltt.NewWriter(r, nil)          // cycles are nanoseconds
	if err := w.Event(7, 5_000_000_000, p); err != nil {
		panic(err)
	}
	file, err := w.Finish()
	if err != nil {
		panic(err)
	}

	blk, err := r.Block(file[:4096])
	if err != nil {
		panic(err)
	}
	for ev, err := range blk.Events() {
		if err != nil {
			panic(err)
		}
		in, _ := ev.Field("in")
		fmt.Println(ev.Type.Name(), ev.Time, in.Uint())
	}
	fmt.Println(blk.Version, len(file))
	// Output:
	// core.block_start 5000000000 0
	// core.schedchange 5000000000 200
	// core.block_end 5000000000 0
	// v2 4096
}
