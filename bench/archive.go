package main

/*
#include "bench.h"
*/
import "C"

import (
	"bytes"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// figArchive reads every value of a ~100 MB v3 archive: perfwire's
// Scanner with pcp.Extract of each value against libpcp's pmFetch in an
// archive context plus pmExtractValue. The archive is pmlogger's own
// recording in ../archive/testdata/m3, its records repeated (times moved
// on) through archive.Writer until the volume is large enough;
// pmlogcheck accepts it (bench's conformance test).
func figArchive(cfg Config, quick bool) Figure {
	f := Figure{
		ID:       "archive",
		Title:    "PCP archive read: every value of a v3 archive (pmlogger's recording of archive/testdata/m3, repeated)",
		Unit:     "pass: open, read every record, extract every value to its type",
		Goal:     "perfwire ≥ 2x libpcp pmFetch (archive mode) + pmExtractValue (aim 5x)",
		MinRatio: 2,
	}
	size := 100 << 20
	if quick {
		size = 2 << 20
	}
	dir, err := os.MkdirTemp("", "perfwire-bench-archive-")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	f.cleanup = func() { os.RemoveAll(dir) }
	base := filepath.Join(dir, "big")
	n, err := writeBigArchive(base, size)
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	f.Bytes = n
	a, err := archive.OpenFS(os.DirFS(dir), "big", archive.Options{})
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	var pmids []uint32
	var types []C.int
	for _, m := range a.Meta.Metrics {
		if m.Type == pcp.TypeEvent || m.Type == pcp.TypeHighResEvent {
			continue
		}
		pmids = append(pmids, uint32(m.ID))
		types = append(types, C.int(m.Type))
	}
	a.Close()
	cp := C.CString(base)
	cPmids := cBytes(unsafe.Slice((*byte)(unsafe.Pointer(&pmids[0])), 4*len(pmids)))
	cTypes := cBytes(unsafe.Slice((*byte)(unsafe.Pointer(&types[0])), int(unsafe.Sizeof(types[0]))*len(types)))
	C.bench_archive_setup(cp, (*C.uint32_t)(cPmids), (*C.int)(cTypes), C.int(len(pmids)))
	var goValues, cValues uint64
	f.compare(cfg, false, []Side{
		{Name: "perfwire archive.Scanner + pcp.Extract", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				sum, goValues = readArchive(dir)
			}
			return sum
		}},
		{Name: "libpcp pmFetch (PM_MODE_FORW) + pmExtractValue (C -O2)", Peer: true, Run: func(n int) uint64 {
			var v C.uint64_t
			s := uint64(C.bench_archive(C.int(n), &v))
			cValues = uint64(v)
			return s
		}},
	})
	checkSums(&f)
	if goValues != cValues {
		f.Notes = append(f.Notes, "checksum differs: value counts, perfwire "+itoa(goValues)+", libpcp "+itoa(cValues))
	} else {
		f.Notes = append(f.Notes, itoa(goValues)+" values in "+itoa(uint64(n))+" bytes of data volume")
	}
	return f
}

func itoa(v uint64) string { return string(appendUint(nil, v)) }

func appendUint(b []byte, v uint64) []byte {
	if v >= 10 {
		b = appendUint(b, v/10)
	}
	return append(b, byte('0'+v%10))
}

// readArchive is one pass: open, read every record, extract every value
// of every non-event metric to its type; the sum of the values (as the C
// side folds them) and their count.
func readArchive(dir string) (sum, values uint64) {
	a, err := archive.OpenFS(os.DirFS(dir), "big", archive.Options{})
	if err != nil {
		return 0, 0
	}
	defer a.Close()
	s := a.NewScanner()
	for s.Next() {
		x, n := sumRecord(a, s.Record())
		sum += x
		values += n
	}
	return sum, values
}

// sumRecord extracts every value of every non-event metric of r to its
// type: their sum (as the C side folds them) and their count.
func sumRecord(a *archive.Archive, r *archive.Record) (sum, values uint64) {
	vss := r.Result.Scan()
	for vss.Next() {
		vs := vss.ValueSet()
		m, ok := a.Meta.Metric(vs.PMID)
		if !ok || m.Type == pcp.TypeEvent || m.Type == pcp.TypeHighResEvent {
			continue
		}
		for j := range vs.Len() {
			x, err := pcp.Extract(vs.Value(j).Raw(), m.Type, m.Type)
			if err != nil {
				continue
			}
			sum += foldAtom(m.Type, x, vs.Value(j))
			values++
		}
	}
	return sum, values
}

// foldAtom is c_archive.c's fold.
func foldAtom(t pcp.Type, x pcp.Atom, v pduwire.Value) uint64 {
	switch t {
	case pcp.Type32:
		return uint64(int64(x.Int32()))
	case pcp.TypeU32:
		return uint64(x.Uint32())
	case pcp.Type64:
		return uint64(x.Int64())
	case pcp.TypeU64:
		return x.Uint64()
	case pcp.TypeDouble, pcp.TypeFloat:
		return x.Uint64()
	case pcp.TypeString:
		return uint64(len(bytes.TrimRight(x.Bytes(), "\x00")))
	case pcp.TypeAggregate:
		return uint64(len(v.Payload()) + 4)
	}
	return 0
}

// writeBigArchive writes BASE, a v3 archive of at least size bytes of
// data: m3's metadata, then its records again and again, each round moved
// on by the recording's length. It returns the volume's size.
func writeBigArchive(base string, size int) (int, error) {
	src, err := archive.OpenFS(os.DirFS("../archive/testdata"), "m3", archive.Options{})
	if err != nil {
		return 0, err
	}
	defer src.Close()
	var files []*os.File
	for _, suf := range []string{".meta", ".index", ".0"} {
		f, err := os.Create(base + suf)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		files = append(files, f)
	}
	w, err := archive.NewWriter(src.Label, files[0], files[1], files[2])
	if err != nil {
		return 0, err
	}
	for _, m := range src.Meta.Metrics {
		w.Metric(m)
	}
	for _, in := range src.Meta.InDoms {
		w.InDom(in)
	}
	end, err := src.End()
	if err != nil {
		return 0, err
	}
	span := end.Sub(src.Label.Start) + 1e6
	// Each round adds the source's records: its volumes less their labels.
	perRound := 0
	for _, v := range src.Volumes() {
		st, err := os.Stat("../archive/testdata/m3." + itoa(uint64(v)))
		if err != nil {
			return 0, err
		}
		perRound += int(st.Size()) - 808
	}
	var rd pduwire.ResultPDU
	for round := int64(0); int(round)*perRound < size; round++ {
		s := src.NewScanner()
		for s.Next() {
			r := s.Record()
			r.Result.AppendTo(&rd)
			ns := r.Time.Sec*1e9 + int64(r.Time.Nsec) + round*span
			if err := w.Result(archive.Timestamp{Sec: ns / 1e9, Nsec: int32(ns % 1e9)}, &rd); err != nil {
				return 0, err
			}
		}
		if err := s.Err(); err != nil {
			return 0, err
		}
	}
	if err := w.Finish(); err != nil {
		return 0, err
	}
	st, err := files[2].Stat()
	if err != nil {
		return 0, err
	}
	return int(st.Size()), nil
}
