package main

/*
#include "bench.h"
*/
import "C"

import (
	"os"
	"path/filepath"

	"github.com/perfwire/perfwire/eventrec"
)

// sumEventValue folds one unpacked value into the checksum as
// sum_vset in c_events.c does (one value per value set).
func sumEventValue(sum uint64, v eventrec.Value) uint64 {
	sum = sum*31 + uint64(v.ID)
	if v.InsituFmt {
		return sum*31 + uint64(v.Insitu)
	}
	return sum*31 + uint64(len(v.Block))
}

func figEvents(cfg Config) Figure {
	f := Figure{
		ID:       "events",
		Title:    "event array unpack (the four arrays of testdata/events/conv05.pdu0.HIGHRES_RESULT.bin)",
		Unit:     "unpack of all four arrays, every value read",
		Goal:     "perfwire ≥ 2x pmUnpackEventRecords",
		MinRatio: 2,
	}
	pdu, err := os.ReadFile("testdata/events/conv05.pdu0.HIGHRES_RESULT.bin")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	// The same four arrays, in the PDU's order, as the shared inputs cut
	// them out (wire form, from the type/length word).
	names, _ := filepath.Glob("testdata/events/conv05.pdu0.HIGHRES_RESULT.29.0.*.bin")
	var arrays [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Notes = append(f.Notes, err.Error())
			return f
		}
		arrays = append(arrays, b)
		f.Bytes += len(b)
	}
	if rc := C.bench_events_setup(cBytes(pdu), C.int(len(pdu)), 1); rc < 0 {
		f.Notes = append(f.Notes, "libpcp could not decode the PDU")
		return f
	}
	var u eventrec.Unpacker
	f.compare(cfg, false, []Side{
		{Name: "perfwire eventrec.Parse + Unpacker.Unpack", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				sum = 0
				for _, b := range arrays {
					a, err := eventrec.Parse(b)
					if err != nil {
						return 0
					}
					for _, r := range u.Unpack(a) {
						sum = sum*31 + uint64(r.Sec)
						for _, v := range r.Values {
							sum = sumEventValue(sum, v)
						}
					}
				}
			}
			return sum
		}},
		{Name: "libpcp pmUnpack[HighRes]EventRecords + pmFree* (C -O2)", Peer: true, Run: func(n int) uint64 {
			return uint64(C.bench_events(C.int(n)))
		}},
	})
	checkSums(&f)
	return f
}
