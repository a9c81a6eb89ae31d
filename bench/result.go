package main

/*
#include "bench.h"
*/
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"github.com/perfwire/perfwire/bench/pluginfloor"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// sumAtom folds an extracted atom into the checksum exactly as the C side
// does (sum_atom in c_result.c).
func sumAtom(a pcp.Atom) uint64 {
	switch a.Type() {
	case pcp.Type32:
		return uint64(int64(a.Int32()))
	case pcp.TypeU32:
		return uint64(a.Uint32())
	case pcp.Type64:
		return uint64(a.Int64())
	case pcp.TypeU64:
		return a.Uint64()
	case pcp.TypeDouble:
		return math.Float64bits(a.Float64())
	case pcp.TypeFloat:
		return uint64(math.Float32bits(a.Float32()))
	case pcp.TypeString:
		return uint64(len(a.Bytes()))
	}
	return 0
}

// decodeExtract parses a RESULT view and extracts every value to its own
// type: insitu values as 32-bit integers, blocks as their block type.
func decodeExtract(pdu []byte) uint64 {
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		return 0
	}
	var sum uint64
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		for i := range vs.Len() {
			v := vs.Value(i)
			t := pcp.Type32 // no descriptor here: insitu values as 32-bit
			if v.Block() {
				t = v.BlockType()
			}
			a, err := pcp.Extract(v.Raw(), t, t)
			if err != nil {
				return 0
			}
			sum = sum*31 + sumAtom(a)
		}
	}
	return sum
}

// decodeDirect is decodeExtract reading the values with the view's own
// accessors instead of pcp.Extract: it shows what the conversion costs.
func decodeDirect(pdu []byte) uint64 {
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		return 0
	}
	var sum uint64
	s := r.Scan()
	for s.Next() {
		sum = pluginfloor.Values(sum, s.ValueSet())
	}
	return sum
}

// decodeReader reads every value of a RESULT with pduwire.ResultScanner,
// which checks each value set as it reaches it (one pass), and reads
// each value to its own type with Value's accessors: the public API a
// caller uses to read a whole result.
func decodeReader(pdu []byte) uint64 {
	rr, err := pduwire.NewResultScanner(pdu)
	if err != nil {
		return 0
	}
	var sum uint64
	for rr.Next() {
		sum = pluginfloor.Values(sum, rr.ValueSet())
	}
	if rr.Err() != nil {
		return 0
	}
	return sum
}

// decodeReaderExtract is decodeReader converting each value with
// pcp.Extract (insitu values as 32-bit integers, blocks as their type).
// Its loop is written out, not decodeReader's with a callback: each
// figure times the loop a caller writes, with no call between values.
func decodeReaderExtract(pdu []byte) uint64 {
	rr, err := pduwire.NewResultScanner(pdu)
	if err != nil {
		return 0
	}
	var sum uint64
	for rr.Next() {
		vs := rr.ValueSet()
		for i := range vs.Len() {
			v := vs.Value(i)
			t := pcp.Type32
			if v.Block() {
				t = v.BlockType()
			}
			a, err := pcp.Extract(v.Raw(), t, t)
			if err != nil {
				return 0
			}
			sum = sum*31 + sumAtom(a)
		}
	}
	if rr.Err() != nil {
		return 0
	}
	return sum
}

// decodeLowerBound validates with ParseResult, then walks the value sets
// by hand over the bytes it has validated: no accessor calls, no Value or
// Atom structs. It is not an API; it shows what the view's accessors could
// cost at best.
func decodeLowerBound(pdu []byte) uint64 {
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		return 0
	}
	be32 := func(o int) uint32 { return binary.BigEndian.Uint32(pdu[o:]) }
	off := 24
	if r.HighRes {
		off = 32
	}
	var sum uint64
	for range r.NumPMID {
		numval := int32(be32(off + 4))
		if numval <= 0 {
			off += 8
			continue
		}
		insitu := be32(off+8) == pduwire.ValInsitu
		vl := off + 12
		for j := range int(numval) {
			w := be32(vl + 8*j + 4)
			var x uint64
			if insitu {
				x = uint64(int64(int32(w)))
			} else {
				blk := 4 * int(w)
				hdr := be32(blk)
				p := pdu[blk+4 : blk+int(hdr&0xffffff)]
				switch pcp.Type(hdr >> 24) {
				case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
					x = binary.BigEndian.Uint64(p)
				case pcp.TypeString:
					n := bytes.IndexByte(p, 0)
					if n < 0 {
						n = len(p)
					}
					x = uint64(n)
				default:
					return 0
				}
			}
			sum = sum*31 + x
		}
		off = vl + 8*int(numval)
	}
	return sum
}

func figResult(cfg Config) Figure {
	return resultFigure(cfg, "result", "testdata/result-1000.bin", false)
}

func figResultHighRes(cfg Config) Figure {
	return resultFigure(cfg, "result-highres", "testdata/result-1000-highres.bin", true)
}

func resultFigure(cfg Config, id, path string, highRes bool) Figure {
	pdu, err := os.ReadFile(path)
	if err != nil {
		return Figure{ID: id, Notes: []string{err.Error()}}
	}
	cp := cBytes(pdu)
	hr := C.int(0)
	if highRes {
		hr = 1
	}
	C.bench_result_setup(cp, C.int(len(pdu)), hr)
	kind, decoder := "RESULT", "__pmDecodeResult"
	if highRes {
		kind, decoder = "HIGHRES_RESULT", "__pmDecodeHighResResult"
	}
	f := Figure{
		ID:       id,
		Title:    kind + " decode + value extraction (" + path + ": 50 metrics, 1,000 values)",
		Unit:     "PDU",
		Bytes:    len(pdu),
		Goal:     "perfwire ≥ 2x libpcp (aim 5x)",
		MinRatio: 2,
	}
	f.compare(cfg, false, []Side{
		{Name: "perfwire pduwire.ResultScanner (one pass) + typed reads of Value", Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = decodeReader(pdu)
			}
			return s
		}},
		{Name: "perfwire pduwire.ResultScanner + pcp.Extract", Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = decodeReaderExtract(pdu)
			}
			return s
		}},
		{Name: "perfwire ParseResult (validate, then walk) + typed reads of Value", Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = decodeDirect(pdu)
			}
			return s
		}},
		{Name: "Go lower bound: ParseResult + hand walk of the validated bytes (not an API)", Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = decodeLowerBound(pdu)
			}
			return s
		}},
		{Name: "  of which pduwire.ParseResult alone (validation)", NoSum: true, NoRatio: true, Run: func(n int) uint64 {
			var s uint64
			for range n {
				r, err := pduwire.ParseResult(pdu)
				if err != nil {
					return 0
				}
				s += uint64(r.NumPMID)
			}
			return s
		}},
		{Name: "libpcp " + decoder + " + pmExtractValue (C -O2)", Peer: true, Run: func(n int) uint64 {
			return uint64(C.bench_result(C.int(n)))
		}},
		{Name: "  of which libpcp PDU buffer + 15 KB memcpy (C)", NoSum: true, NoRatio: true, Run: func(n int) uint64 {
			return uint64(C.bench_result_copyonly(C.int(n)))
		}},
	})
	checkSums(&f)
	return f
}

func figMemcpy(cfg Config) Figure {
	pdu, _ := os.ReadFile("testdata/result-1000.bin")
	dst := make([]byte, len(pdu))
	cs, cd := cBytes(pdu), cBytes(pdu)
	f := Figure{
		ID:    "memcpy",
		Title: "memory-copy ceiling: one copy of the 15,396-byte RESULT",
		Unit:  "copy",
		Bytes: len(pdu),
		Goal:  "ceiling for every throughput figure",
	}
	f.compare(cfg, false, []Side{
		{Name: "Go copy()", NoSum: true, Run: func(n int) uint64 {
			var s uint64
			for k := range n {
				copy(dst, pdu)
				s += uint64(dst[k%len(dst)])
			}
			return s
		}},
		{Name: "C memcpy (-O2)", Peer: true, NoSum: true, Run: func(n int) uint64 {
			return uint64(C.bench_memcpy(cs, cd, C.int(len(pdu)), C.int(n)))
		}},
	})
	return f
}

// figMemcpyLarge is the ceiling for the file-sized figures (dlt): a copy
// of a buffer as large as the DLT file, which runs from memory, not cache.
func figMemcpyLarge(cfg Config, quick bool) Figure {
	size := 64 << 20
	if quick {
		size = 4 << 20
	}
	src := make([]byte, size)
	for i := range src {
		src[i] = byte(i)
	}
	dst := make([]byte, size)
	cs, cd := cBytes(src), cBytes(dst)
	f := Figure{
		ID:    "memcpy-large",
		Title: fmt.Sprintf("memory-copy ceiling: one copy of %d MiB (the DLT figure's size)", size>>20),
		Unit:  "copy",
		Bytes: size,
		Goal:  "ceiling for the file-sized figures",
	}
	f.compare(cfg, false, []Side{
		{Name: "Go copy()", NoSum: true, Fixed: 1, Run: func(n int) uint64 {
			var s uint64
			for k := range n {
				copy(dst, src)
				s += uint64(dst[k%len(dst)])
			}
			return s
		}},
		{Name: "C memcpy (-O2)", Peer: true, NoSum: true, Fixed: 1, Run: func(n int) uint64 {
			return uint64(C.bench_memcpy(cs, cd, C.int(size), C.int(n)))
		}},
	})
	return f
}
