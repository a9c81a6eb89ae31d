package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// scaleChildFlag re-executes the harness to measure one decoder at one
// size in a process of its own, so that one size's peak memory is not
// another's. It is read before main's flags, so it needs no entry there,
// and it stays out of -h.
const scaleChildFlag = "-scaling-child"

// scaleBudget bounds the timed rounds of one point: at 1 GB a pass takes
// seconds, so the largest sizes get fewer rounds (never fewer than 3).
const scaleBudget = 20 * time.Second

func init() {
	if len(os.Args) == 6 && os.Args[1] == scaleChildFlag {
		os.Exit(scaleChildMain(os.Args[2:]))
	}
}

// scalePoint is what a child measured: one decoder at one size.
type scalePoint struct {
	Size      int       // the size asked for
	Bytes     int       // the input's size
	Resident  int       // bytes of the input in memory during a pass
	Records   uint64    // records the first pass counted
	Want      uint64    // records the input holds
	Sum       uint64    // checksum of the first pass's reads; every pass must match it
	NsPerByte []float64 // one per round
	Med       float64
	// RefNs are the rounds of the same decoder over a scaleFrom input in
	// the same child, each run right after a round of this one (sizes
	// above scaleFrom only), and RefMed their median: the host's speed
	// drifts between children run minutes apart, not within a round pair.
	RefNs  []float64
	RefMed float64
	// Faults and Allocs are the minor page faults (the thread's) and the
	// heap allocations per timed pass: a pass over a resident input that
	// faults or allocates pays for memory, not for decoding.
	Faults, Allocs float64
	PeakRSS        int64 // VmHWM over the passes, bytes
	BaseRSS        int64 // VmRSS before the first pass, input built
	Err            string
}

// overhead is the peak memory beyond the input's own resident bytes.
func (p *scalePoint) overhead() int64 { return p.PeakRSS - int64(p.Resident) }

// scaleChildMain runs one point: args are the decoder's index, the size,
// the rounds and the round's target time; it prints the point as JSON.
func scaleChildMain(args []string) int {
	var nums [3]int
	for i := range nums {
		n, err := strconv.Atoi(args[i])
		if err != nil {
			fmt.Fprintln(os.Stderr, "scaling child:", err)
			return 2
		}
		nums[i] = n
	}
	target, err := time.ParseDuration(args[3])
	if err != nil || nums[0] < 0 || nums[0] >= len(scalers) {
		fmt.Fprintln(os.Stderr, "scaling child: bad arguments", args)
		return 2
	}
	p := measureScale(scalers[nums[0]], nums[1], nums[2], target)
	if err := json.NewEncoder(os.Stdout).Encode(&p); err != nil {
		fmt.Fprintln(os.Stderr, "scaling child:", err)
		return 1
	}
	return 0
}

// measureScale builds the input, drops what building it left behind,
// resets the peak RSS, then times the passes: per round as many passes
// as fill target (at least one), ns per input byte on the thread's CPU
// clock. Every pass must read what the first did.
func measureScale(s scaler, size, rounds int, target time.Duration) scalePoint {
	p := scalePoint{Size: size}
	in, err := s.build(size)
	if err != nil {
		p.Err = "build: " + err.Error()
		return p
	}
	if in.cleanup != nil {
		defer in.cleanup()
	}
	p.Bytes, p.Resident, p.Want = in.bytes, in.resident, in.want
	var ref *scaleInput
	if size > scaleFrom {
		r, err := s.build(scaleFrom)
		if err != nil {
			p.Err = "build the reference: " + err.Error()
			return p
		}
		if r.cleanup != nil {
			defer r.cleanup()
		}
		ref = &r
		p.Resident += r.resident
	}
	runtime.GC()
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		p.Err = err.Error()
		return p
	}
	p.BaseRSS, _ = procStatus("VmRSS")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPU()
	p.Records, p.Sum, err = in.pass()
	first := threadCPU() - t0
	if err != nil {
		p.Err = err.Error()
		return p
	}
	n := max(1, int(target/max(first, 1)))
	if size <= scaleFrom {
		// Short passes give the noisiest medians, and the scaleFrom point
		// is the base every larger one is judged against: three times
		// the rounds, which the budget still bounds.
		rounds *= 3
	}
	rounds = max(3, min(rounds, int(scaleBudget/(time.Duration(n)*max(first, 1)))))
	var refN int
	var refRecords, refSum uint64
	if ref != nil {
		t0 := threadCPU()
		refRecords, refSum, err = ref.pass()
		if err != nil {
			p.Err = "reference: " + err.Error()
			return p
		}
		refN = max(1, int(target/max(threadCPU()-t0, 1)))
	}
	var faults, allocs int64
	for range rounds {
		if ref != nil {
			// The reference's garbage (heap goal: twice a live
			// input) is not this size's: the peak is over the size's
			// rounds, each from what it started with.
			debug.FreeOSMemory()
			if err := resetPeakRSS(); err != nil {
				p.Err = err.Error()
				return p
			}
		}
		f0, m0 := threadFaults(), heapMallocs()
		ns, err := timePasses(in, n, p.Records, p.Sum)
		if err != nil {
			p.Err = err.Error()
			return p
		}
		faults, allocs = faults+threadFaults()-f0, allocs+int64(heapMallocs()-m0)
		if ref != nil {
			hwm, err := procStatus("VmHWM")
			if err != nil {
				p.Err = err.Error()
				return p
			}
			p.PeakRSS = max(p.PeakRSS, hwm)
		}
		p.NsPerByte = append(p.NsPerByte, ns/float64(p.Bytes))
		if ref != nil {
			ns, err := timePasses(*ref, refN, refRecords, refSum)
			if err != nil {
				p.Err = "reference: " + err.Error()
				return p
			}
			p.RefNs = append(p.RefNs, ns/float64(ref.bytes))
		}
	}
	passes := float64(rounds * n)
	p.Faults, p.Allocs = float64(faults)/passes, float64(allocs)/passes
	_, p.Med, _ = summary(p.NsPerByte)
	if ref != nil {
		_, p.RefMed, _ = summary(p.RefNs)
		return p
	}
	// Without a reference nothing else ran: the peak is the rounds' at once.
	if p.PeakRSS, err = procStatus("VmHWM"); err != nil {
		p.Err = err.Error()
	}
	return p
}

// timePasses collects garbage, then times n passes over in on the
// thread's CPU clock and returns ns per pass; each pass must read
// records with checksum sum, as the first did.
func timePasses(in scaleInput, n int, records, sum uint64) (float64, error) {
	runtime.GC()
	t0 := threadCPU()
	for range n {
		c, s, err := in.pass()
		if err == nil && (c != records || s != sum) {
			err = fmt.Errorf("a later pass read %d records (checksum %#x), the first %d (%#x)", c, s, records, sum)
		}
		if err != nil {
			return 0, err
		}
	}
	return float64((threadCPU() - t0).Nanoseconds()) / float64(n), nil
}

// threadFaults is the calling thread's minor page faults so far
// (getrusage(2), RUSAGE_THREAD).
func threadFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return ru.Minflt
}

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// heapMallocs is the process's heap allocations so far.
func heapMallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// resetPeakRSS sets VmHWM back to the current RSS (proc(5), clear_refs 5).
func resetPeakRSS() error {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// procStatus reads one kB field of /proc/self/status, in bytes.
func procStatus(field string) (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no " + field + " in /proc/self/status")
}

// runScaleChild measures decoder i at size in a child process.
func runScaleChild(i, size int, cfg Config) scalePoint {
	self, err := os.Executable()
	if err != nil {
		return scalePoint{Size: size, Err: err.Error()}
	}
	cmd := exec.Command(self, scaleChildFlag, strconv.Itoa(i), strconv.Itoa(size), strconv.Itoa(cfg.Rounds), cfg.Target.String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return scalePoint{Size: size, Err: fmt.Sprintf("child: %v: %s", err, lastLines(errb.Bytes(), 3))}
	}
	var p scalePoint
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		return scalePoint{Size: size, Err: "child output: " + err.Error()}
	}
	return p
}
