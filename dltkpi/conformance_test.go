//go:build conformance

package dltkpi

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/wire"
)

// liveProc is one process the conformance test starts, with what /proc
// said about it while it ran.
type liveProc struct {
	label string
	cmd   *exec.Cmd
	truth truthProc
}

// procTruth reads pid, ppid, comm, argv[0] and RSS pages from /proc.
func procTruth(pid int) (truthProc, error) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return truthProc{}, err
	}
	open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	rest := strings.Fields(string(stat[close+2:]))
	ppid, _ := strconv.Atoi(rest[1])
	rss, _ := strconv.ParseInt(rest[21], 10, 64)
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return truthProc{}, err
	}
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return truthProc{pid: int32(pid), ppid: int32(ppid), comm: bytes.Clone(stat[open+1 : close]), argv0: argv0, cmdlineLen: len(cmdline), rssPages: rss}, nil
}

// scanLive reads what dlt-receive has written so far: the parsed KPI
// messages (a record still being written at the end is left out) and
// whether every pid in want appeared in a dataset of kind k.
func scanLive(t *testing.T, file string, k Kind, want map[int32]bool, keep func(Dataset) bool) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	seen := map[int32]bool{}
	s := dlt.NewScanner(data, dlt.Options{NoResync: true})
	for s.Next() {
		m, _, err := FromDLT(s.Message())
		if err != nil || m.Kind != k {
			continue
		}
		for d, err := range m.All() {
			if err == nil && !d.Truncated && (keep == nil || keep(d)) {
				seen[d.PID] = true
			}
		}
	}
	for pid := range want {
		if !seen[pid] {
			return false
		}
	}
	return true
}

// TestConformanceDltKpiLive records the live dlt-daemon + dlt-kpi (as
// scripts/dlt-up.sh starts them, on localhost:3490) with dlt-receive while
// it starts and stops processes with odd names, then checks: every
// parsed message against dlt-convert -a on the same file, and the
// tracker's entries for those processes against what /proc said.
func TestConformanceDltKpiLive(t *testing.T) {
	for _, tool := range []string{"dlt-receive", "dlt-convert", "dlt-kpi", "dlt-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (run scripts/dlt-up.sh): %v", tool, err)
		}
	}
	conn, err := net.DialTimeout("tcp", "localhost:3490", 3*time.Second)
	if err != nil {
		t.Fatalf("dlt-daemon is not listening on localhost:3490 (run scripts/dlt-up.sh): %v", err)
	}
	conn.Close()
	if out, err := exec.Command("pgrep", "-x", "dlt-kpi").Output(); err != nil || len(out) == 0 {
		t.Fatalf("dlt-kpi is not running (run scripts/dlt-up.sh): %v", err)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "live.dlt")
	rec := exec.Command("dlt-receive", "-o", file, "localhost")
	if err := rec.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { rec.Process.Kill(); rec.Wait() }()

	// Odd processes: argv[0] with spaces, ';', UTF-8, control bytes and
	// invalid UTF-8, an empty argv[0], a comm containing a space (with
	// and without argv[0]), and a busy loop for ACT.
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "odd comm;x")
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(odd, b, 0o755); err != nil {
		t.Fatal(err)
	}
	specs := []struct {
		label, path, argv0 string
		args               []string
	}{
		{"spaces", sleep, "name with  spaces and trailing space ", []string{"60"}},
		{"semicolons", sleep, "semi;colon;;name;1", []string{"60"}},
		{"utf8", sleep, "ünïcødé-日本語-🚀", []string{"60"}},
		{"ctrl-badutf8", sleep, "ctl\tTAB\x01\x7f-\xe9\xff", []string{"60"}},
		{"emptyargv0", sleep, "", []string{"60"}},
		{"commspace", odd, odd, []string{"60"}},
		{"commspace-emptyargv0", odd, "", []string{"60"}},
		{"busy", "/bin/bash", "busy-loop", []string{"-c", "while :; do :; done"}},
	}
	var procs []*liveProc
	defer func() {
		for _, p := range procs {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	}()
	want := map[int32]bool{}
	for _, s := range specs {
		c := &exec.Cmd{Path: s.path, Args: append([]string{s.argv0}, s.args...)}
		if err := c.Start(); err != nil {
			t.Fatalf("%s: %v", s.label, err)
		}
		procs = append(procs, &liveProc{label: s.label, cmd: c})
		want[int32(c.Process.Pid)] = true
	}
	time.Sleep(300 * time.Millisecond)
	for _, p := range procs {
		if p.truth, err = procTruth(p.cmd.Process.Pid); err != nil {
			t.Fatalf("%s: %v", p.label, err)
		}
		p.truth.label = p.label
	}
	// dlt-kpi scans every process_interval (1 s in the shipped config):
	// wait for the NEW datasets, for an ACT dataset with CPU time for the
	// busy loop (how many intervals that takes depends on the machine's
	// load), stop the processes and wait for their STP.
	wait := func(k Kind, what string, want map[int32]bool, keep func(Dataset) bool) {
		deadline := time.Now().Add(20 * time.Second)
		for !scanLive(t, file, k, want, keep) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s for every test process within 20 s", what)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	wait(KindNEW, "NEW", want, nil)
	busy := procs[len(procs)-1].cmd.Process.Pid
	wait(KindACT, "ACT with CPU time", map[int32]bool{int32(busy): true}, func(d Dataset) bool { return d.CPU > 0 })
	for _, p := range procs {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
	wait(KindSTP, "STP", want, nil)
	time.Sleep(500 * time.Millisecond)
	rec.Process.Kill()
	rec.Wait()

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("dlt-convert", "-a", file).Output()
	if err != nil {
		t.Fatalf("dlt-convert -a: %v", err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))

	// 1. Every KPI message parses, and its arguments are what dlt-convert
	// prints; the reassembler and the tracker take the whole recording.
	r := NewReassembler(Options{})
	tr := NewTracker(Options{})
	best := map[int32]Process{}
	s := dlt.NewScanner(data, dlt.Options{NoResync: true})
	i, kpi, bare := 0, 0, 0
	for s.Next() {
		m := s.Message()
		if i >= len(lines) {
			t.Fatalf("more messages than dlt-convert lines (%d)", len(lines))
		}
		if km, _, err := FromDLT(m); err == nil {
			kpi++
			line := lines[i]
			if !bytes.HasSuffix(line, oracleText(km)) {
				t.Errorf("message %d: arguments %q, dlt-convert printed %q", i, oracleText(km), line)
			}
		} else if kindOnly(m, err) {
			// Outside dlt-kpi's grammar, so Parse fails it; the chain
			// has delivered one such message (docs/dlt-kpi.md §5.5).
			// dlt-convert must print the identifier alone too.
			bare++
			if !bytes.HasSuffix(lines[i], []byte("["+string(m.Payload()[6:9])+"]")) {
				t.Errorf("message %d: the identifier alone, dlt-convert printed %q", i, lines[i])
			}
			t.Logf("message %d: the identifier alone (%v); dlt-convert printed %q; NOAR %d", i, err, lines[i], m.NumArgs())
		} else if !errors.Is(err, ErrNotKPI) {
			t.Errorf("message %d: %v; dlt-convert printed %q; NOAR %d, payload %x", i, err, lines[i], m.NumArgs(), m.Payload())
		}
		r.PushDLT(Selector{}, m)
		for r.Next() {
			tr.Apply(r.Event())
			for _, p := range procs {
				if e, ok := tr.Process(p.truth.pid); ok && e.PPIDKnown {
					if old, had := best[e.PID]; !had || !old.HasACT || e.HasACT {
						e.Cmd = bytes.Clone(e.Cmd)
						best[e.PID] = e
					}
				}
			}
		}
		i++
	}
	if err := s.Err(); err != nil && !errors.Is(err, dlt.ErrTruncated) {
		t.Fatalf("scanner: %v", err)
	}
	if i != len(lines) && i != len(lines)-1 {
		t.Errorf("%d messages decoded, dlt-convert printed %d lines", i, len(lines))
	}
	if kpi == 0 {
		t.Fatal("no KPI message recorded")
	}
	t.Logf("%d messages, %d from dlt-kpi (%d with the identifier alone); reassembler %+v; tracker %+v", i, kpi, bare, r.Stats(), tr.Stats())

	// 2. Each test process as dlt-kpi reported it, differing from /proc
	// only as the spec explains.
	for _, p := range procs {
		tp := p.truth
		e, ok := best[tp.pid]
		if !ok {
			t.Errorf("%s (pid %d): never in the tracker", p.label, tp.pid)
			continue
		}
		commSpace := bytes.ContainsAny(tp.comm, " \t\n")
		wantPPID := tp.ppid
		if commSpace {
			wantPPID = 0
		}
		if e.CmdKind == CmdNull {
			t.Logf("%s (pid %d): (null) command: gone before dlt-kpi read it", p.label, tp.pid)
		} else if !bytes.Equal(e.Cmd, expectedCmd(tp)) {
			t.Errorf("%s (pid %d): cmd %q, /proc argv[0] %q comm %q", p.label, tp.pid, e.Cmd, tp.argv0, tp.comm)
		}
		if e.PPID != wantPPID && e.CmdKind != CmdNull {
			t.Errorf("%s (pid %d): ppid %d, want %d (/proc %d)", p.label, tp.pid, e.PPID, wantPPID, tp.ppid)
		}
		if e.StatShifted != commSpace {
			t.Errorf("%s (pid %d): stat-shifted %v", p.label, tp.pid, e.StatShifted)
		}
		if p.label == "busy" {
			if !e.HasACT || e.CPU == 0 {
				t.Errorf("busy loop (pid %d): no ACT sample with CPU: %+v", tp.pid, e)
			} else if e.RSS < tp.rssPages/2 || e.RSS > tp.rssPages*2 {
				t.Errorf("busy loop: RSS %d pages, /proc had %d", e.RSS, tp.rssPages)
			}
		}
		if _, ok := tr.Process(tp.pid); ok {
			t.Errorf("%s (pid %d): still in the table after its STP", p.label, tp.pid)
		}
	}

	// 3. Every other process in the final table that /proc still has:
	// the parent dlt-kpi recorded at discovery is /proc's, unless the
	// comm has whitespace (ppid 0), the command was unreadable, or the
	// parent has died since (the child was re-parented).
	checked := 0
	for _, e := range tr.Processes() {
		if !e.PPIDKnown || e.StatShifted || e.CmdKind == CmdNull {
			continue
		}
		now, err := procTruth(int(e.PID))
		if err != nil {
			continue // ended after the recording
		}
		checked++
		if now.ppid != e.PPID {
			if _, err := os.Stat("/proc/" + strconv.Itoa(int(e.PPID))); err == nil {
				t.Errorf("pid %d %q: ppid %d, /proc says %d", e.PID, e.Cmd, e.PPID, now.ppid)
			}
		}
	}
	t.Logf("%d live processes checked against /proc", checked)
}

// kindOnly reports whether err is Parse's answer to a KPI data message
// holding its identifier and nothing else: one little-endian string
// argument of 3 characters, 10 payload bytes.
func kindOnly(m dlt.Message, err error) bool {
	var we *wire.Error
	p := m.Payload()
	return errors.Is(err, ErrCount) && errors.As(err, &we) && we.Field == "dataset" &&
		len(p) == 10 && kindOf(p[6:9]) != KindNone
}
