package main

/*
#include "bench.h"
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
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

// addEventRecord adds a copy of r (a missed-record marker or a record
// with its parameters) to bld.
func addEventRecord(bld *eventrec.Builder, r eventrec.Record) {
	if n, ok := r.Missed(); ok {
		bld.AddMissed(r.Seconds(), r.Fraction(), n)
		return
	}
	bld.AddRecord(r.Seconds(), r.Fraction(), r.Flags())
	for p := range r.Params() {
		bld.AddParam(p.ID, p.Type, p.Value)
	}
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
	h := C.bench_events_setup(cBytes(pdu), C.int(len(pdu)), 1)
	if h < 0 {
		f.Notes = append(f.Notes, "libpcp could not decode the PDU")
		return f
	}
	compareEvents(cfg, &f, arrays, h)
	return f
}

// compareEvents times unpacking arrays (wire form) with perfwire against
// libpcp unpacking the same arrays from the decoded PDU h.
func compareEvents(cfg Config, f *Figure, arrays [][]byte, h C.int) {
	var u eventrec.Unpacker
	f.compare(cfg, false, []Side{
		{Name: "perfwire Unpacker.UnpackBytes (checks as it unpacks)", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				sum = 0
				for _, b := range arrays {
					rs, err := u.UnpackBytes(b, eventrec.Options{})
					if err != nil {
						return 0
					}
					for _, r := range rs {
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
			return uint64(C.bench_events(h, C.int(n)))
		}},
	})
	checkSums(f)
}

// figEvents100 unpacks one EVENT array of 100 records: the real records of
// the conv05 arrays repeated, packed with eventrec.Builder and carried in
// a RESULT that libpcp decodes, so both sides unpack the same bytes.
func figEvents100(cfg Config) Figure {
	f := Figure{
		ID:       "events-100",
		Title:    "event array unpack, 100 records (the conv05 records repeated, one EVENT array)",
		Unit:     "unpack of the array, every value read",
		Goal:     "perfwire ≥ 3x pmUnpackEventRecords",
		MinRatio: 3,
	}
	names, _ := filepath.Glob("testdata/events/conv05.pdu0.HIGHRES_RESULT.29.0.*.bin")
	var recs []eventrec.Record
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Notes = append(f.Notes, err.Error())
			return f
		}
		a, err := eventrec.Parse(b, eventrec.Options{})
		if err != nil {
			f.Notes = append(f.Notes, err.Error())
			return f
		}
		// EVENT records only: the array type fixes the timestamp width.
		if a.HighRes() {
			continue
		}
		for r := range a.Records() {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		f.Notes = append(f.Notes, "no EVENT records in the inputs")
		return f
	}
	bld := eventrec.NewBuilder(nil, pcp.TypeEvent)
	for i := range 100 {
		addEventRecord(bld, recs[i%len(recs)])
	}
	arr, err := bld.Finish()
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	f.Bytes = len(arr)
	res := pduwire.ResultPDU{Sec: 1, Sets: []pduwire.ValueSetData{{
		PMID:   pcp.NewID(29, 0, 136),
		ValFmt: pduwire.ValDPTR,
		Values: []pduwire.ValueData{{Inst: 0, BlockType: pcp.TypeEvent, Payload: arr[4:]}},
	}}}
	pdu := res.Append(nil, 0)
	h := C.bench_events_setup(cBytes(pdu), C.int(len(pdu)), 0)
	if h < 0 {
		f.Notes = append(f.Notes, "libpcp could not decode the RESULT carrying the array")
		return f
	}
	f.Notes = append(f.Notes, fmt.Sprintf("%d real records repeated to 100; array of %d bytes.", len(recs), len(arr)))
	compareEvents(cfg, &f, [][]byte{arr}, h)
	return f
}
