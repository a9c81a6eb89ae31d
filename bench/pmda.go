package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pmapi"
)

// pmdaPmcd is the pmda figure's private pmcd: its own port, unix socket,
// pmcd.conf, namespace, run and var directories in a temporary directory, with
// the C and the Go PMDA as its only agents, so the shared pmcd on
// pmcdAddr is never touched.
type pmdaPmcd struct {
	dir    string
	addr   string
	cmd    *exec.Cmd
	cPID   int // the C PMDA's process
	goPID  int // the Go PMDA's process
	client *pmapi.Client
}

const pmcdBin = "/usr/lib/pcp/bin/pmcd"

// startPmdaPmcd builds the C PMDA, writes the configuration and starts
// pmcd in the foreground as a child of the harness.
func startPmdaPmcd() (*pmdaPmcd, error) {
	dir, err := os.MkdirTemp("", "perfwire-bench-pmda-")
	if err != nil {
		return nil, err
	}
	p := &pmdaPmcd{dir: dir}
	cBin := filepath.Join(dir, "c_pmda")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-DPERFWIRE_PMDA_MAIN", "-o", cBin, "c_pmda.c", "-lpcp_pmda", "-lpcp").CombinedOutput(); err != nil {
		p.stop()
		return nil, fmt.Errorf("building c_pmda.c (bash scripts/cgo-deps.sh installs libpcp-pmda3-dev): %v: %s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		p.stop()
		return nil, err
	}
	var pmns strings.Builder
	pmns.WriteString("root {\n\tbench\n}\nbench {\n\tc\n\tgo\n}\n")
	for _, side := range []struct {
		name   string
		domain int
		extra  bool
	}{{"c", pmdaDomainC, false}, {"go", pmdaDomainGo, true}} {
		fmt.Fprintf(&pmns, "bench.%s {\n", side.name)
		for i := range pmdaMetrics {
			fmt.Fprintf(&pmns, "\tm%03d\t%d:0:%d\n", i, side.domain, i)
		}
		if side.extra {
			fmt.Fprintf(&pmns, "\tallocs\t%d:0:%d\n\tallocbytes\t%d:0:%d\n\tthreads\t%d:0:%d\n\tthreadsafter\t%d:0:%d\n",
				side.domain, pmdaAllocsItem, side.domain, pmdaBytesItem, side.domain, pmdaThreadsItem, side.domain, pmdaThreadsAfterItem)
		}
		pmns.WriteString("}\n")
	}
	conf := fmt.Sprintf("bench_c\t%d\tpipe\tbinary\t%s %d\nbench_go\t%d\tpipe\tbinary\t%s -pmda-go\n",
		pmdaDomainC, cBin, pmdaDomainC, pmdaDomainGo, self)
	for name, body := range map[string]string{"root": pmns.String(), "pmcd.conf": conf} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			p.stop()
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		p.stop()
		return nil, err
	}
	p.addr = "127.0.0.1:" + strconv.Itoa(port)
	p.cmd = exec.Command(pmcdBin, "-f", "-A", "-U", "root", "-p", strconv.Itoa(port),
		"-s", filepath.Join(dir, "pmcd.socket"), "-c", filepath.Join(dir, "pmcd.conf"),
		"-n", filepath.Join(dir, "root"), "-l", filepath.Join(dir, "pmcd.log"), "-x", filepath.Join(dir, "pmcd.err"))
	// PCP_VAR_DIR decides where pmcd looks for pmdaroot's socket: in the
	// temporary directory there is none, so this pmcd starts its PMDAs
	// itself instead of asking the shared pmcd's pmdaroot to.
	p.cmd.Env = append(os.Environ(), "PCP_RUN_DIR="+dir, "PCP_TMP_DIR="+dir, "PCP_VAR_DIR="+dir)
	if err := p.cmd.Start(); err != nil {
		p.stop()
		return nil, err
	}
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.client, err = pmapi.Dial(ctx, p.addr, pmapi.Options{BlockingIO: true})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "pmcd.log"))
			p.stop()
			return nil, fmt.Errorf("private pmcd on %s: %v\n%s", p.addr, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.cPID, p.goPID = p.children(cBin, "-pmda-go")
	if p.cPID == 0 || p.goPID == 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "pmcd.log"))
		p.stop()
		return nil, fmt.Errorf("private pmcd did not start both PMDAs:\n%s", log)
	}
	return p, nil
}

// children finds pmcd's two PMDA processes by their command lines.
func (p *pmdaPmcd) children(cBin, goFlag string) (cPID, goPID int) {
	pid := strconv.Itoa(p.cmd.Process.Pid)
	b, _ := os.ReadFile("/proc/" + pid + "/task/" + pid + "/children")
	for f := range strings.FieldsSeq(string(b)) {
		cl, err := os.ReadFile("/proc/" + f + "/cmdline")
		if err != nil {
			continue
		}
		n, _ := strconv.Atoi(f)
		args := strings.Split(string(cl), "\x00")
		switch {
		case args[0] == cBin:
			cPID = n
		case len(args) > 1 && args[1] == goFlag:
			goPID = n
		}
	}
	return cPID, goPID
}

func (p *pmdaPmcd) stop() {
	if p.client != nil {
		p.client.Close()
	}
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
	os.RemoveAll(p.dir)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// procCPU returns a process's user+system CPU time from /proc/PID/stat
// (clock ticks of 10 ms: the figure sums it over whole rounds).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name is in parentheses and may hold spaces: fields
	// count from after its closing one (utime and stime are 14 and 15).
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("bad /proc stat line")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, errors.New("short /proc stat line")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("bad /proc stat times")
	}
	return time.Duration(u+st) * 10 * time.Millisecond, nil
}

// pmdaTotals accumulates one side's CPU over every timed round: the
// PMDA's, pmcd's and the client's (this process's), and the fetches.
type pmdaTotals struct {
	pmda, pmcd, client time.Duration
	fetches            int
	// Go side: the heap allocations and bytes of its process in the
	// rounds where the runtime started no OS thread, and those rounds'
	// fetches; the rounds where it started some are counted apart.
	allocs, bytes uint64
	judged        int
	threadRounds  int
	threads       uint64
	threadAllocs  uint64
}

func figPMDA(cfg Config, quick bool) Figure {
	f := Figure{
		ID:    "pmda",
		Title: "fetches through a private pmcd of 100 metrics x 100 instances from a Go PMDA (package pmda) and a C PMDA (libpcp_pmda)",
		Unit:  "fetch of the 100 metrics' 10,000 values, every value set's count read",
		Goal: "the Go PMDA at least as many fetches per second as the C PMDA (ratio >= 1), " +
			"at most the C PMDA's CPU per fetch, 0 allocations per fetch",
		MinRatio: 1,
	}
	p, err := startPmdaPmcd()
	if err != nil {
		f.Stats = []Stat{{Name: "perfwire pmda", Err: err.Error()}}
		return f
	}
	f.cleanup = p.stop
	ctx := context.Background()
	names := func(prefix string) []string {
		n := make([]string, pmdaMetrics)
		for i := range n {
			n[i] = fmt.Sprintf("bench.%s.m%03d", prefix, i)
		}
		return n
	}
	goIDs, err := p.client.LookupName(ctx, names("go")...)
	if err == nil {
		var cIDs, allocID []pcp.ID
		cIDs, err = p.client.LookupName(ctx, names("c")...)
		if err == nil {
			allocID, err = p.client.LookupName(ctx, "bench.go.allocs", "bench.go.allocbytes", "bench.go.threads", "bench.go.threadsafter")
		}
		if err == nil {
			f.pmdaSides(cfg, quick, p, goIDs, cIDs, allocID)
			return f
		}
	}
	f.Stats = []Stat{{Name: "perfwire pmda", Err: "looking up the figure's names in the private pmcd: " + err.Error()}}
	return f
}

func (f *Figure) pmdaSides(cfg Config, quick bool, p *pmdaPmcd, goIDs, cIDs []pcp.ID, allocIDs []pcp.ID) {
	ctx := context.Background()
	var goT, cT pmdaTotals
	// readAllocs returns the Go PMDA's heap allocations, bytes and the
	// OS threads its runtime had started just before and just after.
	readAllocs := func() (v [4]uint64) {
		r, err := p.client.FetchBuf(ctx, allocIDs...)
		if err != nil {
			return v
		}
		s := r.Scan()
		for i := 0; i < len(v) && s.Next(); i++ {
			if vs := s.ValueSet(); vs.Len() == 1 {
				v[i] = vs.Value(0).Uint64()
			}
		}
		return v
	}
	timed := func(pid int, ids []pcp.ID, tot *pmdaTotals, allocs bool) func(n int) (time.Duration, time.Duration, uint64, error) {
		run := fetchLoop(ctx, p.client, ids)
		return func(n int) (time.Duration, time.Duration, uint64, error) {
			var a0 [4]uint64
			if allocs {
				a0 = readAllocs()
			}
			c0, e0 := procCPU(pid)
			m0, e1 := procCPU(p.cmd.Process.Pid)
			cl0 := processCPU()
			t0 := time.Now()
			sum := run(n)
			w := time.Since(t0)
			cl1 := processCPU()
			c1, e2 := procCPU(pid)
			m1, e3 := procCPU(p.cmd.Process.Pid)
			if err := errors.Join(e0, e1, e2, e3); err != nil {
				return 0, 0, 0, err
			}
			if sum == 0 {
				return 0, 0, 0, errors.New("a fetch failed")
			}
			if allocs {
				// The second read of the counter is itself one fetch's
				// worth of allocations at most; it is not subtracted.
				// A round in which the runtime started an OS thread (sysmon
				// handing a P on while a thread sat in a system call, which
				// a loaded host makes likely) holds that thread's
				// allocations: it is kept apart, not judged. The request
				// path is the same in every round, so what it allocates
				// shows in the rounds that are judged.
				a1 := readAllocs()
				if a1[3] > a0[2] {
					tot.threadRounds++
					tot.threads += a1[3] - a0[2]
					tot.threadAllocs += a1[0] - a0[0]
				} else {
					tot.allocs += a1[0] - a0[0]
					tot.bytes += a1[1] - a0[1]
					tot.judged += n
				}
			}
			tot.pmda += c1 - c0
			tot.pmcd += m1 - m0
			tot.client += cl1 - cl0
			tot.fetches += n
			return c1 - c0, w, sum, nil
		}
	}
	// The Go PMDA's buffers grow to the figure's shape on its first fetch
	// of each shape, once per process: one fetch per side before the first
	// counter read keeps that growth out of the steady state counted.
	warm := fetchLoop(ctx, p.client, goIDs)
	warm(1)
	readAllocs()
	per := 300
	if quick {
		per = 20
	}
	f.Wall = true
	f.Stats = measure(cfg, rankWall, []Side{
		{Name: "perfwire pmda (Go PMDA, pure Go)", Fixed: per, Timed: timed(p.goPID, goIDs, &goT, true)},
		{Name: "libpcp_pmda pmdaMain + pmdaFetch (C -O2)", Peer: true, Fixed: per, Timed: timed(p.cPID, cIDs, &cT, false)},
	})
	if st := &f.Stats[0]; st.Err == "" && goT.judged > 0 {
		st.External = false
		st.GoAllocs = float64(goT.allocs) / float64(goT.judged)
		st.GoBytes = float64(goT.bytes) / float64(goT.judged)
	}
	per1 := func(d time.Duration, n int) string {
		if n == 0 {
			return "-"
		}
		return human(float64(d.Nanoseconds()) / float64(n))
	}
	f.Notes = append(f.Notes,
		"The client is perfwire's pmapi (Client.FetchBuf, Options.BlockingIO) on the private pmcd's TCP port; it fetches the 100 pmIDs of one PMDA per request, alternating PMDAs round by round. "+
			"The CPU median column is the PMDA process's user+system time per fetch (/proc/PID/stat, 10 ms ticks, over a round of "+strconv.Itoa(per)+" fetches); "+
			"the Go PMDA's allocations per fetch are its process's Go heap allocations (runtime.MemStats Mallocs and TotalAlloc, read through metrics of its own before and after each round, so the one fetch that reads them afterwards is counted too); a round in which the Go runtime started an OS thread (its thread-creation count, read with them) is not judged, since starting a thread allocates its M; the C PMDA's allocations are not counted.",
		fmt.Sprintf("CPU per fetch over all rounds, split by process: Go side: PMDA %s, pmcd %s, client %s; C side: PMDA %s, pmcd %s, client %s.",
			per1(goT.pmda, goT.fetches), per1(goT.pmcd, goT.fetches), per1(goT.client, goT.fetches),
			per1(cT.pmda, cT.fetches), per1(cT.pmcd, cT.fetches), per1(cT.client, cT.fetches)),
		fmt.Sprintf("The Go PMDA's process made %d heap allocations of %d bytes in all over the %d judged fetches (and the fetches that read its counters).",
			goT.allocs, goT.bytes, goT.judged),
		"pmcd runs privately (pmcd -f -A -U root -p PORT -s SOCKET -c pmcd.conf -n root, with PCP_RUN_DIR, PCP_TMP_DIR and PCP_VAR_DIR in a temporary directory: PCP_VAR_DIR keeps it from starting its PMDAs through the shared pmcd's pmdaroot) with only these two PMDAs, both pipe PMDAs it starts itself; the Go PMDA is this bench binary run with -pmda-go.")
	if goT.fetches > 0 && cT.fetches > 0 {
		g, c := float64(goT.pmda)/float64(goT.fetches), float64(cT.pmda)/float64(cT.fetches)
		if g > c {
			f.SubMiss = append(f.SubMiss, fmt.Sprintf("CPU per fetch: the Go PMDA spends %s against the C PMDA's %s (%.2fx of it, goal <= 1x).", human(g), human(c), g/c))
		}
		// The runtime allocates its timer heap's first slot once per P,
		// which may fall inside a round: a miss is more allocations than
		// the PMDA's Ps and one in 100 fetches or more, which only the
		// request path could make.
		switch {
		case goT.judged == 0:
			f.SubMiss = append(f.SubMiss, fmt.Sprintf("Allocations: not judged: the Go runtime started an OS thread in each of the %d rounds.", goT.threadRounds))
		case goT.allocs > uint64(runtime.NumCPU()) && goT.allocs*100 >= uint64(goT.judged):
			f.SubMiss = append(f.SubMiss, fmt.Sprintf("Allocations: the Go PMDA made %d heap allocations in %d steady-state fetches (goal 0 per fetch).", goT.allocs, goT.judged))
		}
		if goT.threadRounds > 0 {
			f.Notes = append(f.Notes, fmt.Sprintf("In %d round(s) the Go runtime started %d OS thread(s); those rounds' %d heap allocations (the new threads' Ms among them) are not judged.",
				goT.threadRounds, goT.threads, goT.threadAllocs))
		}
	}
	checkSums(f)
	goSum, err1 := pmdaValueSum(ctx, p.client, goIDs)
	cSum, err2 := pmdaValueSum(ctx, p.client, cIDs)
	switch {
	case err1 != nil || err2 != nil:
		f.Notes = append(f.Notes, fmt.Sprintf("checksum differs: the values could not be fetched for comparison: %v", errors.Join(err1, err2)))
	case goSum != cSum:
		f.Notes = append(f.Notes, fmt.Sprintf("checksum differs: the Go PMDA's values sum to %#x, the C PMDA's to %#x", goSum, cSum))
	default:
		f.Notes = append(f.Notes, fmt.Sprintf("Both PMDAs served the same values: every value of one fetch, summed as 64-bit words, gives %#x for each.", goSum))
	}
}

// pmdaValueSum fetches ids once and sums every value as a 64-bit word:
// both PMDAs must serve the same numbers in the same encodings.
func pmdaValueSum(ctx context.Context, cl *pmapi.Client, ids []pcp.ID) (uint64, error) {
	r, err := cl.FetchBuf(ctx, ids...)
	if err != nil {
		return 0, err
	}
	var sum uint64
	s := r.Scan()
	for s.Next() {
		for v := range s.ValueSet().Values() {
			sum += v.Uint64()
		}
	}
	return sum, nil
}
