package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

const archiveValUsage = `usage: perfwire archive val [-t INTERVAL] [-s SAMPLES] [-S START] [-T END] [-Z TZ]
                            [-i INSTANCES] [-r] [-f N] [-w N] [--json] BASE METRIC[INSTANCES]

One metric of an archive as pmval -a prints it: values interpolated at
fixed steps from START (the archive's start) to END (its end), as libpcp's
interpolation mode gives them (a counter linearly between the values
around each step, other metrics the value before it), counters as rates
unless -r. -S is an offset from the archive's start (+30s, 2min, as for
-t) and -T one from -S's time, or either an RFC 3339 time; -Z as for perfwire archive (UTC by default).
The other flags are pm val's (perfwire pm val --help).`

// archiveVal is what archive val adds to a pm val run: the archive's
// name, the window and the time zone of the header and the timestamps.
type archiveVal struct {
	name       string
	start, end time.Time
	loc        *time.Location
}

// header prints pmval's archive lines after metric:.
func (a *archiveVal) header(w io.Writer, host string) {
	ctime := func(t time.Time) string { return t.In(a.loc).Format("Mon Jan _2 15:04:05 2006") }
	fmt.Fprintf(w, "archive:   %s\n", a.name)
	fmt.Fprintf(w, "host:      %s\n", host)
	fmt.Fprintf(w, "start:     %s\n", ctime(a.start))
	fmt.Fprintf(w, "end:       %s\n", ctime(a.end))
}

func runArchiveVal(args []string, stdout io.Writer) error {
	// -S, -T and -Z are archive val's own; the rest are pm val's.
	fs := quietFlags("archive val")
	startArg := fs.String("S", "", "")
	endArg := fs.String("T", "", "")
	tz := fs.String("Z", "UTC", "")
	var rest []string
	fs.Func("t", "", func(s string) error { rest = append(rest, "-t", s); return nil })
	fs.Func("s", "", func(s string) error { rest = append(rest, "-s", s); return nil })
	fs.Func("i", "", func(s string) error { rest = append(rest, "-i", s); return nil })
	fs.Func("f", "", func(s string) error { rest = append(rest, "-f", s); return nil })
	fs.Func("w", "", func(s string) error { rest = append(rest, "-w", s); return nil })
	fs.BoolFunc("r", "", func(string) error { rest = append(rest, "-r"); return nil })
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, archiveValUsage)
	}
	if fs.NArg() != 2 {
		return usagef("give BASE and one METRIC\n%s", archiveValUsage)
	}
	o, err := parsePMValArgs(append(rest, fs.Arg(1)), *asJSON)
	if err != nil {
		return usagef("%v\n%s", strings.Replace(err.Error(), "pm val", "archive val", 1), archiveValUsage)
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return usagef("-Z %q: %v", *tz, err)
	}
	a, err := openArchive(fs.Arg(0))
	if err != nil {
		return err
	}
	defer a.Close()
	end, err := a.End()
	if err != nil {
		return &inputError{file: fs.Arg(0), err: err}
	}
	av := &archiveVal{name: fs.Arg(0), start: a.Label.Start.Time(), end: end.Time(), loc: loc}
	if av.start, err = windowTime(*startArg, av.start, av.start); err != nil {
		return usagef("-S %q: %v", *startArg, err)
	}
	// pmval reads -T +OFFSET from the window's start, -S's.
	if av.end, err = windowTime(*endArg, av.start, av.end); err != nil {
		return usagef("-T %q: %v", *endArg, err)
	}
	if av.end.After(end.Time()) {
		av.end = end.Time() // pmval's window ends with the archive
	}
	if o.samples < 0 {
		// pmval: as many whole steps as fit in the window, and the start,
		// counted in doubles as pmval counts them.
		secs := func(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }
		o.samples = max(0, int((secs(av.end)-secs(av.start))/o.interval.Seconds())+1)
	}
	// As pmval converts both (seconds + nanoseconds/1e9), so that a sample
	// stamped at the end compares equal.
	o.finish = float64(av.end.Unix()) + float64(av.end.Nanosecond())/1e9
	c := a.NewContext()
	// pmval hands libpcp its origin and step as microseconds (timevals).
	c.SetMode(archive.Interp, archive.TimestampOf(av.start.Truncate(time.Microsecond)), o.interval.Truncate(time.Microsecond))
	p := &pmPrinter{w: stdout, json: *asJSON, out: jsonLines{w: stdout}}
	r := &pmvalRun{p: p, o: o, style: -1, errOut: os.Stderr, src: archiveSource{a, c}, arch: av}
	err = r.run(a.Label.Hostname)
	if p.err != nil {
		return p.err
	}
	return err
}

// windowTime reads -S or -T: empty is def, else an offset from base or
// an RFC 3339 time.
func windowTime(s string, base, def time.Time) (time.Time, error) {
	if s == "" {
		return def, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	d, err := parseInterval(strings.TrimPrefix(s, "+"))
	if err != nil {
		return time.Time{}, errors.New("want an offset such as +30s, or an RFC 3339 time")
	}
	return base.Add(d), nil
}

// archiveSource is an archive as pm val's source: names, descriptors and
// instances from its metadata, values from an interpolating context.
type archiveSource struct {
	a *archive.Archive
	c *archive.Context
}

func (s archiveSource) lookupMetric(name string) (pcp.ID, pcp.Desc, error) {
	m, ok := s.a.Meta.Lookup(name)
	if !ok {
		return 0, pcp.Desc{}, pcp.ErrName
	}
	return m.ID, m.Desc, nil
}

// instances are every instance the domain had in the window, by number.
func (s archiveSource) getInDom(indom pcp.InDom) ([]pmapi.Instance, error) {
	seen := map[int32]bool{}
	var out []pmapi.Instance
	for _, in := range s.a.Meta.InDomHistory(indom) {
		for i, inst := range in.Inst {
			if !seen[inst] {
				seen[inst] = true
				out = append(out, pmapi.Instance{Inst: inst, Name: in.Names[i]})
			}
		}
	}
	if len(out) == 0 {
		return nil, pcp.ErrInDomLog
	}
	return out, nil
}

func (s archiveSource) lookupInDom(indom pcp.InDom, name string) (int32, error) {
	all, err := s.getInDom(indom)
	if err != nil {
		return 0, err
	}
	for _, in := range all {
		if in.Name == name {
			return in.Inst, nil
		}
	}
	return 0, pcp.ErrInstLog
}

func (s archiveSource) fetch(id pcp.ID) (pduwire.Result, error) {
	return s.c.Fetch(context.Background(), id)
}
