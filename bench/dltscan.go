package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

var totalRE = regexp.MustCompile(`Total number of messages: (\d+)`)

// dltConvert runs `dlt-convert -c path` and returns its CPU (user+sys)
// and wall time and the count it printed.
func dltConvert(path string) (cpu, wall time.Duration, count uint64, err error) {
	cmd := exec.Command("dlt-convert", "-c", path)
	var out bytes.Buffer
	cmd.Stdout = &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("dlt-convert: %v", err)
	}
	wall = time.Since(t0)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	m := totalRE.FindSubmatch(out.Bytes())
	if m == nil {
		return 0, 0, 0, fmt.Errorf("dlt-convert printed no total")
	}
	count, _ = strconv.ParseUint(string(m[1]), 10, 64)
	return cpu, wall, count, nil
}

func figDLT(cfg Config, quick bool) Figure {
	size := 64 << 20
	if quick {
		size = 4 << 20
	}
	f := Figure{
		ID:       "dlt",
		Title:    fmt.Sprintf("DLT file scan (%d MiB: kpi-odd.dlt + kpi-huge-argv0.dlt repeated)", size>>20),
		Unit:     "scan of the whole file from the page cache, counting messages",
		Goal:     "perfwire well ahead of dlt-convert (taken here as ≥ 5x)",
		MinRatio: 5,
	}
	dir, err := os.MkdirTemp("", "perfwire-bench-")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	defer os.RemoveAll(dir)
	path, want, err := bigDLT(dir, size)
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	st, _ := os.Stat(path)
	f.Bytes = int(st.Size())
	f.Notes = append(f.Notes, fmt.Sprintf("%d messages, %d bytes; dlt-convert is timed as a process (its CPU is the child's user+sys time, start-up included: see the empty-file row).", want, f.Bytes))
	empty := dir + "/one.dlt"
	one, _ := os.ReadFile("testdata/kpi-odd.dlt")
	os.WriteFile(empty, one[:0], 0o644)
	scanFile := func(n int) uint64 {
		var c uint64
		for range n {
			fh, err := os.Open(path)
			if err != nil {
				return 0
			}
			r := dlt.NewReader(fh, dlt.Options{})
			c = 0
			for r.Next() {
				c++
			}
			fh.Close()
		}
		return c
	}
	data, _ := os.ReadFile(path)
	f.compare(cfg, false, []Side{
		{Name: "perfwire dlt.Reader over the file", Fixed: 1, Run: scanFile},
		{Name: "dlt-convert -c (DLT 2.18.8)", Peer: true, Fixed: 1, Timed: func(n int) (time.Duration, time.Duration, uint64, error) {
			return dltConvert(path)
		}},
		{Name: "perfwire dlt.Scanner over the bytes in memory", Fixed: 1, Run: func(n int) uint64 {
			var c uint64
			for range n {
				s := dlt.NewScanner(data, dlt.Options{})
				c = 0
				for s.Next() {
					c++
				}
			}
			return c
		}},
		{Name: "dlt-convert -c on an empty file (start-up only)", NoSum: true, NoRatio: true, Fixed: 1, Timed: func(n int) (time.Duration, time.Duration, uint64, error) {
			c, w, _, err := dltConvert(empty)
			return c, w, 0, err
		}},
	})
	if f.Stats[0].Sum != uint64(want) {
		f.Notes = append(f.Notes, fmt.Sprintf("checksum differs: expected %d messages, perfwire read %d", want, f.Stats[0].Sum))
	}
	checkSums(&f)
	return f
}
