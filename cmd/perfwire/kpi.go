package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

const kpiUsage = `usage: perfwire kpi [--json | --summary | --all | --irqs] [--page-size N] FILE.dlt...
       perfwire kpi top [OPTIONS] (FILE.dlt... | --follow HOST[:PORT])   (perfwire kpi top --help)

Decodes the dlt-kpi messages (APID/CTID PROC/PROC) of DLT files, in order,
through the group reassembler and the process tracker. A file is a storage
capture (.dlt, dlt-receive -o) or, when it starts with "DLS" 01, a serial
capture; with --plugin every file must be in the first one's framing.

  (default)  the final process table: PID, PPID, CPU per mille, RSS in KiB
             (pages × --page-size), context switches and I/O bytes in the
             last ACT interval, flags (S: comm with whitespace, ACT values
             unreliable; P: command known only from a truncated fragment;
             N: unreadable command line) and the command, escaped
  --json     one object per KPI message: tmsp (DLT timestamp, ECU uptime
             in 0.1 ms), time (the same in s), kind, sync ("BEG", "END"
             or ""), datasets
  --summary  one object: messages, datasets and groups per identifier,
             truncated, malformed, open_groups, skipped_bytes and the
             tracker's inferred_stops, suspect_irq, replaced
  --all      every process seen, exited ones and earlier holders of reused
             pids too, by PID then start: PID, PPID, START and END (s of
             ECU uptime; END "-" while it runs), LIFETIME (END or, while
             it runs, the last time seen, minus START), ENDED (what said
             it ended: STP, CHK when a complete CHK group missed it, NEW
             when its pid was reused, session when dlt-kpi restarted),
             FLAGS and COMMAND
  --irqs     one object per interrupt and CPU each IRQ group updated (a
             suspect group is not applied): name, cpu, count, has_delta,
             delta, interval (0.1 ms), per_second, tmsp (the group's BEG)`

// runKPI implements `perfwire kpi`.
func runKPI(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "top" {
		return runKPITop(args[1:], stdout)
	}
	fs := quietFlags("kpi")
	asJSON := fs.Bool("json", false, "one JSON object per KPI message")
	summary := fs.Bool("summary", false, "one JSON object with counts")
	all := fs.Bool("all", false, "every process seen, exited ones too")
	irqs := fs.Bool("irqs", false, "the interrupt table after each IRQ group")
	pageSize := fs.Int64("page-size", 4096, "bytes per page, to convert RSS")
	if done, err := parseOrUsage(fs, args, kpiUsage, stdout); done || err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return usagef("no input file\n%s", kpiUsage)
	case btoi(*asJSON)+btoi(*summary)+btoi(*all)+btoi(*irqs) > 1:
		return usagef("--json, --summary, --all and --irqs exclude each other")
	case *pageSize <= 0:
		return usagef("--page-size must be positive")
	}

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if plugin != nil {
		return kpiInPlugin(plugin, fs.Args(), kpiMode{*asJSON, *summary, *all, *irqs}, *pageSize, out)
	}
	kp := dltkpi.NewSession(dltkpi.Options{KeepEnded: *all})
	k := kpiRun{kp: kp, t: kp.Tracker(), json: *asJSON, irqs: *irqs, out: jsonLines{w: out}}
	var fileErr error
	for _, name := range fs.Args() {
		if err := k.file(name); err != nil {
			fileErr = err
			break
		}
	}
	k.kp.End()
	if err := k.drain(); err != nil {
		return err
	}
	open := k.kp.OpenGroups()
	switch {
	case *all:
		writeAll(out, append(k.ended, rows(k.t)...))
	case *summary:
		st := render.Stats(k.kp.Stats(), k.t.Stats(), open, k.skipped, k.places)
		if err := k.out.write(&st); err != nil {
			return err
		}
	case !*asJSON && !*irqs:
		writeTable(out, rows(k.t), render.Stats(k.kp.Stats(), k.t.Stats(), open, k.skipped, k.places), *pageSize)
	}
	return fileErr
}

// kpiMode is the output runKPI chose.
type kpiMode struct{ json, summary, all, irqs bool }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kpiInPlugin is runKPI with the decode inside the wasip1 module: a KPI
// stream session fed each file (kpi_decode for --json's messages), its
// table and stats printed as the native run prints the tracker's.
func kpiInPlugin(p *wasmPlugin, files []string, mode kpiMode, pageSize int64, out io.Writer) error {
	asJSON := mode.json
	jl := jsonLines{w: out}
	var ended []schema.KPIProcess
	// took keeps what a step reported: the processes that ended, and the
	// IRQ samples printed as the native run prints them.
	took := func(st *schema.KPIStep) error {
		ended = append(ended, st.Ended...)
		for i := range st.IRQs {
			if !mode.irqs {
				break
			}
			if err := jl.write(&st.IRQs[i]); err != nil {
				return err
			}
		}
		return nil
	}
	// The stream's framing is fixed when it opens: the first file's, read
	// as natively (a serial capture starts with "DLS" 01). A later file in
	// the other framing would need a session of its own, which would not
	// carry the processes on, so it is refused.
	framing := dlt.FramingStorage
	if len(files) > 0 {
		framing = fileFraming(files[0])
	}
	s, err := p.open(opKPIStream, uint32(framing))
	if err != nil {
		return err
	}
	defer p.free(s)
	var fileErr error
	stopped := false
	skipped, places := 0, 0 // the stream's totals after the last file
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			fileErr = &inputError{file: name, err: err}
			break
		}
		if f := framingOf(data); f != framing {
			fileErr = &inputError{file: name, err: fmt.Errorf("--plugin: %s framing after %s's %s framing: give it a run of its own", framingName(f), files[0], framingName(framing))}
			break
		}
		if asJSON {
			var m schema.KPIMessages
			if err := p.callIn(opKPIDecode, data, uint32(framing)<<kpiFramingShift, &m); err != nil {
				return err
			}
			for i := range m.Messages {
				if err := jl.write(&m.Messages[i]); err != nil {
					return err
				}
			}
			if m.Error != nil {
				fileErr = &inputError{file: name, err: errOf(m.Error)}
				break
			}
		}
		h, err := p.put(data)
		if err != nil {
			return err
		}
		var st schema.KPIStep
		err = p.call(opKPIFeed, s, h, &st)
		p.free(h)
		if err == nil {
			err = took(&st)
		}
		// Each file is an input of its own, as natively: kpi_cut ends it
		// (a record it cuts off is truncated and ends the run) and the
		// next file starts afresh, with the processes carried on.
		if err == nil {
			err = p.call(opKPICut, s, 0, &st)
		}
		if err == nil {
			err = took(&st)
		}
		if err != nil {
			return err
		}
		var tb schema.KPITable
		if err := p.call(opKPITable, s, 0, &tb); err != nil {
			return err
		}
		reportSkipped(name, tb.Stats.SkippedBytes-skipped, tb.Stats.SkippedPlaces-places, errOf(st.SkipError))
		skipped, places = tb.Stats.SkippedBytes, tb.Stats.SkippedPlaces
		if st.Done {
			stopped = true
			if st.Error != nil {
				fileErr = &inputError{file: name, err: errOf(st.Error)}
			}
			break
		}
	}
	if !stopped {
		var st schema.KPIStep
		if err := p.call(opKPIEnd, s, 0, &st); err != nil {
			return err
		}
		if err := took(&st); err != nil {
			return err
		}
	}
	var tb schema.KPITable
	if err := p.call(opKPITable, s, 0, &tb); err != nil {
		return err
	}
	switch {
	case mode.all:
		writeAll(out, append(ended, tb.Processes...))
	case mode.summary:
		if err := jl.write(&tb.Stats); err != nil {
			return err
		}
	case !asJSON && !mode.irqs:
		writeTable(out, tb.Processes, tb.Stats, pageSize)
	}
	return fileErr
}

// kpiRun carries the state of one invocation across its files.
type kpiRun struct {
	kp      *dltkpi.Session
	t       *dltkpi.Tracker // kp's
	json    bool
	irqs    bool // print the IRQ table after each IRQ group applied
	ended   []schema.KPIProcess
	out     jsonLines
	skipped int
	places  int
}

// file decodes one DLT file. A record the scanner cannot get past is an
// input error naming the file; what came before it is kept.
func (k *kpiRun) file(name string) error {
	skipped, places, err := readKPIFile(name, func(_ int, m dlt.Message) (bool, error) {
		if k.json {
			// kpi_decode's writer, printed as perfwire pdu prints AppendPDU's.
			if km, src, err := k.kp.Sel.FromDLT(m); err == nil {
				k.out.buf = render.AppendKPIMessage(k.out.buf[:0], &km, src)
				if err := k.out.raw(k.out.buf); err != nil {
					return false, err
				}
			}
		}
		k.kp.Push(m)
		return true, k.drain()
	})
	k.skipped += skipped
	k.places += places
	return err
}

// reportSkipped says on stderr, in every output mode, that a file had
// damage the reader resynchronised over: how many bytes in how many
// places, and the first failure with its offset.
func reportSkipped(name string, bytes, places int, first error) {
	if bytes == 0 {
		return
	}
	msg := fmt.Sprintf("perfwire: %s: skipped %d damaged bytes in %d places", name, bytes, places)
	if first != nil {
		msg += "; the first: " + first.Error()
	}
	fmt.Fprintln(diag, msg)
}

// drain applies the reassembler's events to the tracker, keeps the
// processes it removes and, with --irqs, prints the interrupt table
// after each IRQ group it applied, as the plugin's session reports them.
func (k *kpiRun) drain() error {
	for k.kp.Next() {
		ev := k.kp.Current()
		for _, e := range k.t.TakeEnded() {
			k.ended = append(k.ended, render.EndedRow(&e))
		}
		if k.irqs && render.IRQGroupEnd(ev) {
			for _, q := range render.AppendIRQs(nil, k.t.IRQs(), ev) {
				if err := k.out.write(&q); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// writeAll prints every process seen (--all), by PID then start.
func writeAll(w io.Writer, procs []schema.KPIProcess) {
	slices.SortStableFunc(procs, func(a, b schema.KPIProcess) int {
		return cmp.Or(cmp.Compare(a.PID, b.PID), cmp.Compare(a.FirstSeen, b.FirstSeen))
	})
	fmt.Fprintf(w, "%7s %7s %12s %12s %11s %-7s %-5s %s\n", "PID", "PPID", "START", "END", "LIFETIME", "ENDED", "FLAGS", "COMMAND")
	n := 0
	for _, p := range procs {
		ppid := "?"
		if p.PPIDKnown {
			ppid = strconv.Itoa(int(p.PPID))
		}
		end, by, last := "-", "-", p.LastSeen
		if p.EndBy != "" {
			n++
			end, by, last = tmspSeconds(int64(p.End)), p.EndBy, p.End
		}
		cmd := strconv.Quote(string(rawBytes(p.Cmd, p.CmdHex)))
		fmt.Fprintf(w, "%7d %7s %12s %12s %11s %-7s %-5s %s\n", p.PID, ppid, tmspSeconds(int64(p.FirstSeen)), end,
			tmspSeconds(int64(last)-int64(p.FirstSeen)), by, flagsOf(&p), cmd[1:len(cmd)-1])
	}
	fmt.Fprintf(w, "# %d processes, %d of them ended\n", len(procs), n)
}

// tmspSeconds writes a TMSP value (0.1 ms) as seconds, every digit kept.
func tmspSeconds(t int64) string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	frac := strconv.FormatInt(10000+t%10000, 10)
	return sign + strconv.FormatInt(t/10000, 10) + "." + frac[1:]
}

// writeTable prints the process table: one row per live process,
// command lines escaped so control bytes cannot garble the terminal. The
// rows are the schema's (schema.KPIProcess), so the native run and the
// plugin print the same table.
func writeTable(w io.Writer, procs []schema.KPIProcess, st schema.KPIStats, pageSize int64) {
	fmt.Fprintf(w, "%7s %7s %5s %10s %8s %12s %-5s %s\n", "PID", "PPID", "CPU‰", "RSS_KiB", "CTX/int", "IO/int", "FLAGS", "COMMAND")
	for _, p := range procs {
		c := processColumns(p.PPIDKnown, p.PPID, p.HasACT, p.HasDelta, p.CPU, p.RSS*pageSize/1024, p.CtxDelta, p.IODelta)
		cmd := strconv.Quote(string(rawBytes(p.Cmd, p.CmdHex)))
		fmt.Fprintf(w, "%7d %7s %5s %10s %8s %12s %-5s %s\n", p.PID, c[0], c[1], c[2], c[3], c[4], flagsOf(&p), cmd[1:len(cmd)-1])
	}
	fmt.Fprintf(w, "# %d processes; %d suspect IRQ groups, %d pid replacements, %d inferred stops\n", len(procs), st.SuspectIRQ, st.Replaced, st.InferredStops)
}

// processColumns are a process row's PPID, CPU‰, RSS_KiB, CTX/int and
// IO/int columns as perfwire kpi and kpi top print them: "?" for a PPID
// not known, "-" for figures without an ACT (and deltas without two).
func processColumns(ppidKnown bool, ppid int32, act, delta bool, cpu uint64, rssKiB, ctx int64, io uint64) [5]string {
	c := [5]string{"?", "-", "-", "-", "-"}
	if ppidKnown {
		c[0] = strconv.Itoa(int(ppid))
	}
	if act {
		c[1] = strconv.FormatUint(cpu, 10)
		c[2] = strconv.FormatInt(rssKiB, 10)
		if delta {
			c[3] = strconv.FormatInt(ctx, 10)
			c[4] = strconv.FormatUint(io, 10)
		}
	}
	return c
}

// flagsOf is a row's FLAGS column.
func flagsOf(p *schema.KPIProcess) string {
	flags := ""
	if p.StatShifted {
		flags += "S" // comm with whitespace: ppid and ACT values unreliable
	}
	if p.Partial {
		flags += "P" // command known only from a truncated fragment
	}
	if p.CmdKind == dltkpi.CmdNull.String() {
		flags += "N"
	}
	if flags == "" {
		flags = "-"
	}
	return flags
}

// rows is the tracker's process table as the schema's rows.
func rows(t *dltkpi.Tracker) []schema.KPIProcess {
	var out []schema.KPIProcess
	for _, p := range t.Processes() {
		out = append(out, render.ProcessRow(&p))
	}
	return out
}
