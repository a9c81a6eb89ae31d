package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

const mmvdumpPath = "/var/lib/pcp/pmdas/mmv/mmvdump"

// mmvMetrics is how many U64 counters mmvFile lays out over its indom.
const mmvMetrics = 10

// mmvFile lays out a v1 file with mmvMetrics U64 counters over one indom
// of n instances.
func mmvFile(n int) ([]byte, error) {
	d := mmv.IndomDef{Serial: 1, Instances: make([]mmv.InstanceDef, n)}
	for i := range d.Instances {
		d.Instances[i] = mmv.InstanceDef{ID: int32(i), Name: "cpu" + strconv.Itoa(i)}
	}
	reg := &mmv.Registry{Cluster: 9, Gen: 1, Process: 1, Indoms: []mmv.IndomDef{d}}
	for i := range mmvMetrics {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{Name: "m" + strconv.Itoa(i), Item: uint32(i),
			Type: mmv.TypeU64, Sem: pcp.SemCounter, Indom: 1})
	}
	p, err := reg.Plan()
	if err != nil {
		return nil, err
	}
	return p.AppendFile(nil, binary.NativeEndian), nil
}

// mmvdump runs PCP's mmvdump on path and returns its CPU and wall time
// and the number of lines it printed.
func mmvdump(path string) (cpu, wall time.Duration, lines uint64, err error) {
	cmd := exec.Command(mmvdumpPath, path)
	var out bytes.Buffer
	cmd.Stdout = &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("mmvdump: %v", err)
	}
	wall = time.Since(t0)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), wall, uint64(bytes.Count(out.Bytes(), []byte("\n"))), nil
}

func figMMVRead(cfg Config) Figure {
	f := Figure{
		ID:       "mmv-read",
		Title:    "MMV file read (10 counters × 1,000 instances: 10,000 values)",
		Unit:     "validation of the file and mmvdump-style print of every entry",
		Goal:     "perfwire ahead of PCP's mmvdump (libpcp's MMV reader) on the same file",
		MinRatio: 1,
	}
	data, err := mmvFile(1000) // 10,000 values
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	dir, err := os.MkdirTemp("", "perfwire-bench-mmvread-")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "big")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	f.Bytes = len(data)
	var out []byte
	f.compare(cfg, false, []Side{
		{Name: "perfwire os.ReadFile + mmv.Parse + mmv.AppendDump", Fixed: 5, Run: func(n int) uint64 {
			var lines uint64
			for range n {
				b, err := os.ReadFile(path)
				if err != nil {
					return 0
				}
				r, err := mmv.Parse(b, mmv.Options{Order: binary.NativeEndian})
				if err != nil {
					return 0
				}
				out = mmv.AppendDump(out[:0], &r, path, time.Now().UnixMicro())
				lines = uint64(bytes.Count(out, []byte("\n")))
			}
			return lines
		}},
		{Name: "mmvdump (PCP 6.0.3)", Peer: true, Fixed: 1, Timed: func(int) (time.Duration, time.Duration, uint64, error) {
			return mmvdump(path)
		}},
		{Name: "perfwire mmv.Parse + every Value (no text)", NoSum: true, NoRatio: true, Run: func(n int) uint64 {
			var sum uint64
			for range n {
				r, err := mmv.Parse(data, mmv.Options{Order: binary.NativeEndian})
				if err != nil {
					return 0
				}
				for v := range r.Values() {
					sum += v.Raw()
				}
			}
			return sum
		}},
	})
	f.Notes = append(f.Notes, "mmvdump is timed as a process (user+system CPU of the child, start-up included); the checksum is the number of lines both print.")
	checkSums(&f)
	return f
}
