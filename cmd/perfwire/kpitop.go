package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"golang.org/x/term"
)

const kpiTopUsage = `usage: perfwire kpi top [--sort cpu|rss|ctx|io|pid] [--rows N] [-n FRAMES]
                        [--page-size N] [--final] (FILE.dlt... | --follow HOST[:PORT])

A process table from dlt-kpi, like top: redrawn each time an ACT group
(one KPI interval) ends, busiest first.

  --follow HOST[:PORT]  read a running dlt-daemon (port 3490 by default),
                        as dlt-receive does, until interrupted
  --sort KEY            cpu (default), rss, ctx (context switches in the
                        interval), io (I/O bytes in the interval) or pid
  --rows N              rows per frame (default: the terminal's height,
                        or every process when stdout is not a terminal)
  -n FRAMES             stop after this many frames, as top -n does
  --final               print only the last frame
  --page-size N         bytes per page, to convert RSS (default 4096)

On a terminal each frame replaces the last; otherwise frames follow one
another as plain text, separated by a blank line (as top -b does).`

// kpiTop holds one run of perfwire kpi top.
type kpiTop struct {
	w        io.Writer
	kp       *dltkpi.Session
	t        *dltkpi.Tracker // kp's
	sortKey  string
	rows     int
	pageSize int64
	final    bool
	tty      bool
	source   string
	frames   int
	last     uint32 // TMSP of the last frame
	limit    int    // -n: stop after this many frames; 0: no limit
}

func runKPITop(args []string, stdout io.Writer) error {
	fs := quietFlags("kpi top")
	follow := fs.String("follow", "", "dlt-daemon HOST[:PORT]")
	sortKey := fs.String("sort", "cpu", "cpu, rss, ctx, io or pid")
	rows := fs.Int("rows", 0, "rows per frame")
	frames := fs.Int("n", 0, "stop after this many frames")
	final := fs.Bool("final", false, "print only the last frame")
	pageSize := fs.Int64("page-size", 4096, "bytes per page")
	if done, err := parseOrUsage(fs, args, kpiTopUsage, stdout); done || err != nil {
		return err
	}
	switch {
	case !slices.Contains([]string{"cpu", "rss", "ctx", "io", "pid"}, *sortKey):
		return usagef("--sort %q: want cpu, rss, ctx, io or pid", *sortKey)
	case *rows < 0 || *frames < 0 || *pageSize <= 0:
		return usagef("--rows, -n and --page-size take positive numbers")
	case (*follow == "") == (fs.NArg() == 0):
		return usagef("give FILE.dlt... or --follow HOST[:PORT], not both\n%s", kpiTopUsage)
	}
	kp := dltkpi.NewSession(dltkpi.Options{})
	k := &kpiTop{
		w: stdout, kp: kp, t: kp.Tracker(),
		sortKey: *sortKey, rows: *rows, pageSize: *pageSize, final: *final, limit: *frames,
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		k.tty = true
		if k.rows == 0 {
			if _, h, err := term.GetSize(int(f.Fd())); err == nil && h > 4 {
				k.rows = h - 4 // the header lines and the cursor's
			}
		}
	}
	if *follow != "" {
		return k.follow(*follow)
	}
	for _, name := range fs.Args() {
		if err := k.file(name); err != nil {
			return err
		}
	}
	if k.enough() {
		return nil
	}
	k.kp.End()
	k.drain()
	if k.final || k.frames == 0 {
		k.frame()
	}
	return nil
}

func (k *kpiTop) file(name string) error {
	k.source = name
	_, _, err := readKPIFile(name, func(_ int, m dlt.Message) (bool, error) {
		k.kp.Push(m)
		k.drain()
		return !k.enough(), nil
	})
	return err
}

// follow draws frames from a running daemon until it ends, the user
// interrupts, or -n frames are drawn.
func (k *kpiTop) follow(addr string) error {
	k.source = daemonAddr(addr)
	return followDaemon(addr, func(m dlt.Message) bool {
		k.kp.Push(m)
		k.drain()
		return !k.enough()
	})
}

// enough reports whether -n frames are drawn.
func (k *kpiTop) enough() bool { return k.limit > 0 && k.frames >= k.limit }

// drain applies the reassembler's events and draws a frame when an ACT
// group ends: the tracker then holds the interval's values.
func (k *kpiTop) drain() {
	for k.kp.Next() {
		ev := k.kp.Current()
		if ev.Kind == dltkpi.KindACT && ev.Type == dltkpi.EventGroupEnd {
			k.last = ev.Source.TMSP
			if !k.final && !k.enough() {
				k.frame()
			}
		}
	}
}

// sortValue is a process's value for the chosen column; processes
// without ACT values sort last.
func (k *kpiTop) sortValue(p dltkpi.Process) int64 {
	if !p.HasACT && k.sortKey != "pid" {
		return -1
	}
	switch k.sortKey {
	case "rss":
		return p.RSS
	case "ctx":
		if p.HasDelta {
			return p.CtxDelta
		}
		return 0
	case "io":
		if p.HasDelta {
			return int64(p.IODelta)
		}
		return 0
	case "pid":
		return -int64(p.PID) // ascending pids: the largest sort value first
	}
	return int64(p.CPU)
}

// frame prints the table as it stands.
func (k *kpiTop) frame() {
	k.frames++
	procs := k.t.Processes()
	slices.SortStableFunc(procs, func(a, b dltkpi.Process) int {
		return cmp.Or(cmp.Compare(k.sortValue(b), k.sortValue(a)), cmp.Compare(a.PID, b.PID))
	})
	var total uint64
	running := 0
	for _, p := range procs {
		if p.HasACT {
			total += p.CPU
			if p.CPU > 0 {
				running++
			}
		}
	}
	var b strings.Builder
	if k.tty {
		b.WriteString("\x1b[H\x1b[2J") // home, clear: the frame replaces the last
	} else if k.frames > 1 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "perfwire kpi top - %s - ECU uptime %.1f s - %d processes, %d on CPU, %d‰ in all - sorted by %s\n",
		k.source, float64(k.last)/10000, len(procs), running, total, k.sortKey)
	fmt.Fprintf(&b, "%7s %7s %5s %10s %8s %12s %s\n", "PID", "PPID", "CPU‰", "RSS_KiB", "CTX/int", "IO/int", "COMMAND")
	n := len(procs)
	if k.rows > 0 {
		n = min(n, k.rows)
	}
	for _, p := range procs[:n] {
		c := processColumns(p.PPIDKnown, p.PPID, p.HasACT, p.HasDelta, p.CPU, p.RSSBytes(k.pageSize)/1024, p.CtxDelta, p.IODelta)
		cmd := strconv.Quote(string(p.Cmd))
		fmt.Fprintf(&b, "%7d %7s %5s %10s %8s %12s %s\n", p.PID, c[0], c[1], c[2], c[3], c[4], cmd[1:len(cmd)-1])
	}
	io.WriteString(k.w, b.String())
}
