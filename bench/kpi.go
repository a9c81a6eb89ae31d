package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

// kpiPayloads returns the verbose payloads of the KPI messages (context
// PROC/PROC) in a DLT file.
func kpiPayloads(path string) ([][]byte, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var out [][]byte
	size := 0
	s := dlt.NewScanner(data, dlt.Options{})
	var sel dltkpi.Selector
	for s.Next() {
		m := s.Message()
		if sel.IsKPI(m) && m.Order() == binary.LittleEndian {
			out = append(out, m.Payload())
			size += len(m.Payload())
		}
	}
	return out, size, s.Err()
}

// kpiSumOurs parses every message with dltkpi and adds up every ACT
// field; other kinds' datasets are decoded too.
func kpiSumOurs(payloads [][]byte) uint64 {
	var sum uint64
	for _, p := range payloads {
		m, err := dltkpi.Parse(p)
		if err != nil {
			continue
		}
		s := m.Scanner()
		for s.Next() {
			d, err := s.Dataset()
			if err != nil || d.Truncated || d.Kind != dltkpi.KindACT {
				continue
			}
			sum += uint64(d.PID) + d.CPU + uint64(d.RSS) + uint64(d.Ctx) + d.IO + d.IOWait
		}
	}
	return sum
}

// kpiSumNaive is the straightforward Go a user would write: walk the
// string arguments into Go strings, then strings.Split each dataset on
// ';' and strconv every field.
func kpiSumNaive(payloads [][]byte) uint64 {
	var sum uint64
	for _, p := range payloads {
		var args []string
		for off := 0; off+6 <= len(p); {
			n := int(binary.LittleEndian.Uint16(p[off+4:]))
			if off+6+n > len(p) {
				break
			}
			args = append(args, strings.TrimRight(string(p[off+6:off+6+n]), "\x00"))
			off += 6 + n
		}
		if len(args) < 2 {
			continue
		}
		for _, ds := range args[1:] {
			if strings.HasSuffix(ds, "...") || ds == "BEG" || ds == "END" {
				continue
			}
			f := strings.Split(ds, ";")
			switch args[0] {
			case "ACT":
				if len(f) != 6 {
					continue
				}
				pid, e1 := strconv.ParseInt(f[0], 10, 32)
				cpu, e2 := strconv.ParseUint(f[1], 10, 64)
				rss, e3 := strconv.ParseInt(f[2], 10, 64)
				ctx, e4 := strconv.ParseInt(f[3], 10, 64)
				io, e5 := strconv.ParseUint(f[4], 10, 64)
				iow, e6 := strconv.ParseUint(f[5], 10, 64)
				if e1 != nil || e2 != nil || e3 != nil || e4 != nil || e5 != nil || e6 != nil {
					continue
				}
				sum += uint64(pid) + cpu + uint64(rss) + uint64(ctx) + io + iow
			case "IRQ":
				for _, c := range f[1:] {
					if _, v, ok := strings.Cut(c, ":"); ok {
						strconv.ParseInt(v, 10, 64)
					}
				}
			default:
				if len(f) > 0 {
					strconv.ParseInt(f[0], 10, 32)
				}
			}
		}
	}
	return sum
}

func figKPI(cfg Config) Figure {
	f := Figure{
		ID:       "kpi",
		Title:    "dlt-kpi message parse (every KPI message of testdata/kpi-odd.dlt, a real capture)",
		Unit:     "parse of every KPI payload, every ACT field summed",
		Goal:     "perfwire ≥ 5x a naive strings.Split implementation",
		MinRatio: 5,
	}
	payloads, size, err := kpiPayloads("testdata/kpi-odd.dlt")
	if err != nil || len(payloads) == 0 {
		f.Notes = append(f.Notes, "no KPI payloads: "+errString(err))
		return f
	}
	f.Bytes = size
	f.Notes = append(f.Notes, strconv.Itoa(len(payloads))+" KPI messages, "+strconv.Itoa(size)+" payload bytes per operation.")
	f.compare(cfg, false, []Side{
		{Name: "perfwire dltkpi.Parse + DatasetScanner", Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = kpiSumOurs(payloads)
			}
			return s
		}},
		{Name: "naive Go: string args + strings.Split + strconv", Peer: true, Run: func(n int) uint64 {
			var s uint64
			for range n {
				s = kpiSumNaive(payloads)
			}
			return s
		}},
	})
	checkSums(&f)
	return f
}

func errString(err error) string {
	if err == nil {
		return "none found"
	}
	return err.Error()
}

// bigDLT writes a DLT file of about size bytes made of the real captures
// repeated, and returns its path and message count.
func bigDLT(dir string, size int) (string, int, error) {
	var one []byte
	for _, n := range []string{"testdata/kpi-odd.dlt", "testdata/kpi-huge-argv0.dlt"} {
		b, err := os.ReadFile(n)
		if err != nil {
			return "", 0, err
		}
		one = append(one, b...)
	}
	per := 0
	s := dlt.NewScanner(one, dlt.Options{})
	for s.Next() {
		per++
	}
	reps := max(1, size/len(one))
	path := dir + "/big.dlt"
	if err := os.WriteFile(path, bytes.Repeat(one, reps), 0o644); err != nil {
		return "", 0, err
	}
	return path, per * reps, nil
}
