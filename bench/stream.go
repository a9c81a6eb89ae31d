package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfwire/perfwire/bench/pluginfloor"
	"github.com/perfwire/perfwire/pduwire"
)

// streamFloor is the stream figure's goal in MB/s.
const streamFloor = 1000

// streamPattern returns every RESULT and HIGHRES_RESULT PDU recorded in
// pduwire's pmcd captures and the two 1,000-value results, back to back.
func streamPattern() ([]byte, int, error) {
	files, _ := filepath.Glob("../pduwire/testdata/captures/conv*.server.bin")
	files = append(files, "testdata/result-1000.bin", "testdata/result-1000-highres.bin")
	var pat []byte
	n := 0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, 0, err
		}
		for p, err := range pduwire.All(b, pduwire.Options{}) {
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %v", name, err)
			}
			if t := p.Header.Type; t == pduwire.TypeResult || t == pduwire.TypeHighResResult {
				pat = append(pat, p.Bytes...)
				n++
			}
		}
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("no RESULT PDU in the captures")
	}
	return pat, n, nil
}

// chunkSource delivers pat over and over, total bytes in all, at most
// chunk bytes per Read, as a socket or a file read in 64 KB pieces does.
type chunkSource struct {
	pat   []byte
	off   int // in pat
	left  int // bytes still to deliver
	chunk int
}

func (s *chunkSource) Read(p []byte) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	p = p[:min(len(p), s.chunk, s.left)]
	n := 0
	for n < len(p) {
		c := copy(p[n:], s.pat[s.off:])
		n += c
		if s.off += c; s.off == len(s.pat) {
			s.off = 0
		}
	}
	s.left -= n
	return n, nil
}

// streamDecode frames the stream with pduwire.Reader and reads every
// value of every RESULT with a ResultScanner, each to its own type.
func streamDecode(src io.Reader) (uint64, error) {
	r := pduwire.NewReader(src, pduwire.Options{})
	var sum uint64
	for r.Next() {
		rr, err := pduwire.NewResultScanner(r.PDU().Bytes)
		if err != nil {
			return 0, err
		}
		for rr.Next() {
			vs := rr.ValueSet()
			sum = pluginfloor.Values(sum*31+uint64(vs.PMID), vs)
		}
		if err := rr.Err(); err != nil {
			return 0, err
		}
	}
	return sum, r.Err()
}

func figStream(cfg Config, quick bool) Figure {
	const chunk = 64 << 10
	f := Figure{ID: "stream", Unit: "pass over the whole stream",
		Goal: fmt.Sprintf("≥ %d MB/s through pduwire.Reader + ResultScanner, every value read (ceiling: the same 64 KB chunks copied, not decoded)", streamFloor)}
	pat, npdu, err := streamPattern()
	if err != nil {
		f.Title = "RESULT stream"
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	size := 1 << 30
	if quick {
		size = 16 << 20
	}
	reps := max(1, size/len(pat))
	total := reps * len(pat)
	f.Bytes = total
	f.Title = fmt.Sprintf("RESULT stream: %d MiB of recorded RESULT PDUs (pduwire captures + result-1000, repeated) framed and read in %d KB chunks", total>>20, chunk>>10)
	f.Notes = append(f.Notes, fmt.Sprintf("%d PDUs per pass (%d recorded, %d bytes, repeated %d times); the source copies each 64 KB chunk out of the cache-resident pattern, as a read from a socket or the page cache copies it.", npdu*reps, npdu, len(pat), reps))
	src := func() *chunkSource { return &chunkSource{pat: pat, left: total, chunk: chunk} }
	var sideErr error
	buf := make([]byte, chunk)
	f.compare(cfg, false, []Side{
		{Name: "perfwire pduwire.Reader + ResultScanner, every value read", Fixed: 1, Run: func(n int) uint64 {
			var s uint64
			for range n {
				var err error
				if s, err = streamDecode(src()); err != nil {
					sideErr = err
					return 0
				}
			}
			return s
		}},
		{Name: "ceiling: the 64 KB chunks copied, not decoded", Fixed: 1, NoSum: true, NoRatio: true, Run: func(n int) uint64 {
			var s uint64
			for range n {
				r := src()
				for {
					m, err := r.Read(buf)
					s += uint64(m)
					if err != nil {
						break
					}
				}
			}
			return s
		}},
	})
	if sideErr != nil {
		f.Notes = append(f.Notes, "decode failed: "+sideErr.Error())
	}
	if len(f.Stats) == 2 && f.Stats[0].Med > 0 && f.Stats[1].Med > 0 {
		got := float64(total) / f.Stats[0].Med * 1e3
		ceil := float64(total) / f.Stats[1].Med * 1e3
		f.Verdict = "no"
		if got >= streamFloor && sideErr == nil {
			f.Verdict = "yes"
		}
		f.SummaryNote = fmt.Sprintf("%.0f MB/s (floor %d MB/s, ceiling %.0f MB/s)", got, streamFloor, ceil)
	}
	return f
}
