package main

import (
	"fmt"
	"runtime"
	"slices"
	"time"
)

// Side is one implementation in a comparison. Run performs n operations
// and returns a checksum of what it read, so that every side can be shown
// to have done the same work and nothing is optimised away.
type Side struct {
	Name string
	// Peer marks the reference implementation the ratio is taken against.
	Peer bool
	Run  func(n int) uint64
	// Fixed, when non-zero, is the number of operations per round for
	// sides too slow or too external to calibrate (subprocesses, network).
	Fixed int
	// Timed, when set, performs n operations and reports their CPU and
	// wall time itself (for subprocesses, which exclude their start-up);
	// Run is then unused.
	Timed func(n int) (cpu, wall time.Duration, sum uint64, err error)
	// NoSum keeps a side that does different work out of the checksum test.
	NoSum bool
	// NoRatio marks a reference row (start-up cost, a component) that is
	// not compared with the peer.
	NoRatio bool
}

// Stat is what one side measured over all rounds.
type Stat struct {
	Name          string
	Peer          bool
	N             int       // operations per round
	NsPerOp       []float64 // one per round (CPU or wall time, see Figure.Wall)
	WallPerOp     []float64 // wall time, one per round
	CPUPerOp      []float64 // CPU time of the timing thread, one per round
	Min, Med, Max float64
	WallMed       float64
	CPUMed        float64
	GoAllocs      float64 // Go heap allocations per operation
	GoBytes       float64 // Go heap bytes per operation
	CAllocs       float64 // C malloc calls per operation (libpcp and our harness)
	CBytes        float64 // C bytes requested per operation
	Sum           uint64  // checksum of one operation's reads
	Err           string
	NoSum         bool
	NoRatio       bool
	External      bool // a subprocess: its allocations are not counted
}

// Figure is one comparison's result.
type Figure struct {
	ID, Title string
	Unit      string // what one operation is
	Bytes     int    // input bytes per operation, for throughput (0: none)
	Goal      string
	MinRatio  float64 // the goal as a peer÷perfwire median ratio (0: none)
	Stats     []Stat
	Notes     []string
	// Wall ranks sides by wall time (network round trips) instead of
	// the CPU time of the timed thread.
	Wall bool
	// ProcCPU ranks sides by the whole process's CPU time (a client
	// against a server in another process): the rounds run as for Wall,
	// on an unpinned goroutine, but the ratio is one of CPU times.
	ProcCPU bool
	// Miss, when the goal is missed, says why (from a profile) and what
	// to do next; it is written by hand in misses.go.
	Miss    string
	Elapsed time.Duration
	// Profile is the top of a CPU profile of the perfwire side, taken
	// when the goal is missed.
	Profile string
	// profile runs the perfwire side (for profileFigure).
	profile func(n int) uint64
	// cleanup, if set, releases what the sides use (after profiling).
	cleanup func()
	// SubMiss lists the parts of a compound goal (against a second peer)
	// that were missed; the summary then says "partly".
	SubMiss []string
	// SubMissProfiled says the figure's miss analysis and profile explain
	// the SubMiss too (so they are printed for "partly").
	SubMissProfiled bool
	// Verdict, when set, is the met column for a goal that is not a
	// speed ratio (the wasm figure's size budget).
	Verdict string
	// Floor, when set, says why a missed goal is out of reach, from rows
	// measured in the same run; the met column then says "floor".
	Floor string
	// SummaryNote, when set, replaces the ratio in the summary table.
	SummaryNote string
	// Markdown is written after the figure's table (generated tables).
	Markdown string
}

// Config sets how long measurements take.
type Config struct {
	Rounds int
	Target time.Duration // wall time of one round of one side
}

// calibrate finds an operation count that takes about target.
func calibrate(run func(int) uint64, target time.Duration) int {
	n := 1
	for {
		t0 := threadCPU()
		run(n)
		d := threadCPU() - t0
		if d >= target/4 || n >= 1<<30 {
			if d <= 0 {
				return n
			}
			return max(1, int(float64(n)*float64(target)/float64(d)))
		}
		n *= 4
	}
}

// measureAllocs runs one extra untimed round of n operations and returns
// the Go and C allocations per operation.
func measureAllocs(run func(int) uint64, n int) (goA, goB, cA, cB float64) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0, cb0 := cMallocCounters()
	run(n)
	c1, cb1 := cMallocCounters()
	runtime.ReadMemStats(&m1)
	f := float64(n)
	return float64(m1.Mallocs-m0.Mallocs) / f, float64(m1.TotalAlloc-m0.TotalAlloc) / f,
		float64(c1-c0) / f, float64(cb1-cb0) / f
}

// Compare times the sides alternately, cfg.Rounds times, rotating which
// goes first, and returns their statistics.
func Compare(cfg Config, sides []Side) []Stat { return compare(cfg, false, sides) }

// compare runs Compare (ranking by wall time when wall is set) and
// keeps the first side for profiling.
func (f *Figure) compare(cfg Config, wall bool, sides []Side) {
	f.Wall = wall
	f.Stats = compare(cfg, wall, sides)
	if len(sides) > 0 && sides[0].Run != nil {
		f.profile = sides[0].Run
	}
}

// compareProcCPU runs the sides as compare does for a network figure,
// but ranks them by the process's CPU time (Figure.ProcCPU).
func (f *Figure) compareProcCPU(cfg Config, sides []Side) {
	f.ProcCPU = true
	f.Stats = measure(cfg, rankProcCPU, sides)
	if len(sides) > 0 && sides[0].Run != nil {
		f.profile = sides[0].Run
	}
}

// rank is the clock a comparison ranks its sides by.
type rank int

const (
	rankThreadCPU rank = iota // CPU time of the pinned timing thread
	rankWall                  // wall time, unpinned
	rankProcCPU               // the process's CPU time, unpinned
)

func compare(cfg Config, wall bool, sides []Side) []Stat {
	if wall {
		return measure(cfg, rankWall, sides)
	}
	return measure(cfg, rankThreadCPU, sides)
}

func measure(cfg Config, by rank, sides []Side) []Stat {
	// CPU-bound figures pin the goroutine to its thread and read that
	// thread's CPU clock. Network figures must not: a goroutine locked to
	// a thread that blocks in the netpoller needs an extra thread hand-off
	// per wake-up, which would add latency no real client has; they read
	// the whole process's CPU time instead (GC and poller threads
	// included, which is the client's real cost).
	clock := processCPU
	if by == rankThreadCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		clock = threadCPU
	}
	stats := make([]Stat, len(sides))
	for i, s := range sides {
		st := &stats[i]
		st.Name, st.Peer, st.NoSum, st.NoRatio = s.Name, s.Peer, s.NoSum, s.NoRatio
		switch {
		case s.Timed != nil:
			st.N, st.External = s.Fixed, true
			_, _, sum, err := s.Timed(1)
			if err != nil {
				st.Err = err.Error()
			}
			st.Sum = sum
		default:
			st.Sum = s.Run(1)
			st.N = s.Fixed
			if st.N == 0 {
				st.N = calibrate(s.Run, cfg.Target)
			}
			st.GoAllocs, st.GoBytes, st.CAllocs, st.CBytes = measureAllocs(s.Run, min(st.N, 1000))
		}
	}
	for r := range cfg.Rounds {
		for k := range sides {
			i := (k + r) % len(sides)
			s, st := sides[i], &stats[i]
			if st.Err != "" {
				continue
			}
			var d, w time.Duration
			if s.Timed != nil {
				var err error
				d, w, _, err = s.Timed(st.N)
				if err != nil {
					st.Err = err.Error()
					continue
				}
			} else {
				runtime.GC()
				c0, t0 := clock(), time.Now()
				s.Run(st.N)
				d, w = clock()-c0, time.Since(t0)
			}
			st.CPUPerOp = append(st.CPUPerOp, float64(d.Nanoseconds())/float64(st.N))
			st.WallPerOp = append(st.WallPerOp, float64(w.Nanoseconds())/float64(st.N))
			if by == rankWall {
				d = w
			}
			st.NsPerOp = append(st.NsPerOp, float64(d.Nanoseconds())/float64(st.N))
		}
	}
	for i := range stats {
		st := &stats[i]
		if len(st.NsPerOp) == 0 {
			continue
		}
		st.Min, st.Med, st.Max = summary(st.NsPerOp)
		_, st.WallMed, _ = summary(st.WallPerOp)
		_, st.CPUMed, _ = summary(st.CPUPerOp)
	}
	return stats
}

// checkSums reports whether every side that ran read the same checksum.
func checkSums(f *Figure) {
	var ref *Stat
	for i := range f.Stats {
		st := &f.Stats[i]
		if st.Err != "" || st.NoSum {
			continue
		}
		if ref == nil {
			ref = st
			continue
		}
		if st.Sum != ref.Sum {
			f.Notes = append(f.Notes, fmt.Sprintf("checksum differs: %s read %#x, %s read %#x", ref.Name, ref.Sum, st.Name, st.Sum))
		}
	}
}

// summary returns the minimum, median and maximum of v.
func summary(v []float64) (lo, med, hi float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	med = v[len(v)/2]
	if len(v)%2 == 0 {
		med = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[0], med, v[len(v)-1]
}
