package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
)

const archiveUsage = `usage: perfwire archive [-a] [-l|-L] [-d] [-e] [-h] [-i] [-t] [-m] [-s] [-M] [--json] [-Z TZ] BASE

Reads a PCP archive (BASE.meta, BASE.index, BASE.0 ...; BASE may also be
any one of those files) and prints it as pmdumplog does:

  -a       everything below but -e and -h: -d -i -L -m -s -t
  -l       the label; -L adds the time zone and pmlogger's PID
  -d       the metric descriptors
  -e       the label sets, by time, level and identifier
  -h       the help texts
  -i       the instance domains, each as it changed over time
  -t       the temporal index, with pmdumplog's checks of each entry
  -m       the values of every record (the default)
  -s       each record's size before it
  -M       (accepted for pmdumplog's sake: mark records are always shown)
  -Z TZ    print times in the zone TZ (an IANA name such as Europe/Berlin,
           or UTC, the default)
  --json   one JSON object per record instead: {"timestamp": RFC 3339 UTC
           with nanoseconds, "values": [{"pmid", "name", "inst", "value"}]};
           a mark record is {"timestamp": ..., "mark": true}

Files compressed by pmlogger_daily (.xz, .zst, .gz, .bz2) are read too;
one that decompresses past 4 MiB is held in a temporary file in $TMPDIR,
removed as it is created, as perfwire export and archive val do.

       perfwire archive record -o BASE ... METRIC...   records one from pmcd
       perfwire archive val [-t D] [-S T] [-T T] ... BASE METRIC   as pmval -a
       (--help after record or val says how)`

func runArchive(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "record" {
		return runArchiveRecord(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "val" {
		return runArchiveVal(args[1:], stdout)
	}
	fs := quietFlags("archive")
	all := fs.Bool("a", false, "")
	lab := fs.Bool("l", false, "")
	labV := fs.Bool("L", false, "")
	desc := fs.Bool("d", false, "")
	indom := fs.Bool("i", false, "")
	vals := fs.Bool("m", false, "")
	sizes := fs.Bool("s", false, "")
	ti := fs.Bool("t", false, "")
	labels := fs.Bool("e", false, "")
	help := fs.Bool("h", false, "")
	fs.Bool("M", false, "")
	tz := fs.String("Z", "UTC", "")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, archiveUsage)
	}
	if fs.NArg() != 1 {
		return usagef("give one archive\n%s", archiveUsage)
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return usagef("-Z %q: %v", *tz, err)
	}
	if *all {
		*desc, *indom, *labV, *vals, *sizes, *ti = true, true, true, true, true, true
	}
	*lab = *lab || *labV
	if !*lab && !*desc && !*indom && !*ti && !*labels && !*help && !*vals {
		*vals = true
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if plugin != nil {
		if !*asJSON {
			return usagef("archive's sections are pmdumplog's text, which the plugin leaves to the host: add --json, or run it without --plugin")
		}
		return archiveJSONPlugin(w, fs.Arg(0))
	}
	a, err := openArchive(fs.Arg(0))
	if err != nil {
		return err
	}
	defer a.Close()
	if *asJSON {
		return archiveJSON(w, a, fs.Arg(0))
	}
	d := &dumper{w: w, a: a, loc: loc, v3: a.Label.Version == 3}
	if *lab {
		d.label(*labV)
	}
	if *desc {
		d.descs()
	}
	if *labels {
		d.labelSets()
	}
	if *help {
		d.helpTexts()
	}
	if *indom {
		d.indoms()
	}
	if *ti {
		if err := d.index(); err != nil {
			w.Flush()
			return &inputError{file: fs.Arg(0), err: err}
		}
	}
	if *vals {
		s := a.NewScanner()
		p := archiveProgress(fs.Arg(0), a)
		for s.Next() {
			w.WriteByte('\n')
			d.record(s.Record(), *sizes)
			p.at(s.Record())
		}
		p.finish()
		warnSkipped(fs.Arg(0), s.Skipped())
		if err := s.Err(); err != nil {
			w.Flush()
			return &inputError{file: fs.Arg(0), err: err}
		}
	}
	return nil
}

// volumeProgress draws a progress line over an archive's data volumes,
// by the offset of each record read.
type volumeProgress struct {
	*progress
	before map[int]int64 // the bytes of the volumes before each
}

func archiveProgress(name string, a *archive.Archive) volumeProgress {
	vp := volumeProgress{before: map[int]int64{}}
	var total int64
	for _, v := range a.Volumes() {
		vp.before[v] = total
		size, _ := a.VolumeSize(int32(v))
		total += size
	}
	vp.progress = newProgress(name, total)
	return vp
}

func (vp volumeProgress) at(r *archive.Record) { vp.set(vp.before[r.Vol] + r.Offset) }

// descs prints the descriptors (pmdumplog -d), in libpcp's hash order.
func (d *dumper) descs() {
	d.w.WriteString("\nDescriptions for Metrics in the Log ...\n")
	var keys []uint32
	for _, m := range d.a.Meta.Metrics {
		keys = append(keys, uint32(m.ID))
	}
	for _, k := range hashOrder(keys) {
		m, _ := d.a.Meta.Metric(pcp.ID(k))
		d.w.WriteString("PMID: " + m.ID.String() + " (" + strings.Replace(d.names(m.ID), "<nonames>", "<noname>", 1) + ")\n")
		b, _ := m.Desc.AppendText(nil)
		d.w.Write(b)
	}
}

// indoms prints every instance domain with its history (pmdumplog -i),
// in libpcp's hash order.
func (d *dumper) indoms() {
	d.w.WriteString("\nInstance Domains in the Log ...\n")
	var keys []uint32
	seen := map[pcp.InDom]bool{}
	for _, in := range d.a.Meta.InDoms {
		if !seen[in.InDom] {
			seen[in.InDom] = true
			keys = append(keys, uint32(in.InDom))
		}
	}
	for _, k := range hashOrder(keys) {
		d.w.WriteString("InDom: " + pcp.InDom(k).String() + "\n")
		for _, r := range d.a.Meta.InDomHistory(pcp.InDom(k)) {
			d.w.WriteString(d.clock(r.Time) + " " + strconv.Itoa(len(r.Inst)) + " instances\n")
			for i, inst := range r.Inst {
				d.w.WriteString("   " + strconv.Itoa(int(inst)) + " or \"" + r.Names[i] + "\"\n")
			}
		}
	}
}

// index prints the temporal index (pmdumplog -t) with pmdumplog's
// integrity checks of each entry.
func (d *dumper) index() error {
	d.w.WriteString("\nTemporal Index\n")
	if d.v3 {
		d.w.WriteByte('\t')
	}
	d.w.WriteString("\t\tLog Vol    end(meta)     end(log)\n")
	ti, err := d.a.Index()
	switch {
	case errors.Is(err, archive.ErrRange):
		err = nil // pmdumplog's checks below print each entry's problem
	case errors.Is(err, archive.ErrTruncated):
		// The index is optional: warn, print the whole entries, go on.
		fmt.Fprintf(diag, "perfwire archive: %v\n", err)
		err = nil
	}
	var last *archive.IndexEntry
	logSize := int64(-1)
	for i := range ti {
		e := &ti[i]
		fmt.Fprintf(d.w, "%s\t  %5d  %11d  %11d\n", d.clock(e.Time), e.Vol, e.MetaOffset, e.DataOffset)
		if last == nil || e.Vol != last.Vol {
			var ok bool
			if logSize, ok = d.a.VolumeSize(e.Vol); !ok {
				logSize = -1
				fmt.Fprintf(d.w, "\t\tWarning: file missing for log volume %d\n", e.Vol)
			}
		}
		if e.Time.Sec < 0 || e.Time.Nsec < 0 || e.Time.Nsec > 999999999 {
			fmt.Fprintf(d.w, "\t\tError: illegal timestamp value (%d sec, %d nsec)\n", e.Time.Sec, e.Time.Nsec)
		}
		if e.MetaOffset > d.a.MetaSize() {
			fmt.Fprintf(d.w, "\t\tError: offset to meta file past end of file (%d)\n", d.a.MetaSize())
		}
		if logSize != -1 && e.DataOffset > logSize {
			fmt.Fprintf(d.w, "\t\tError: offset to log file past end of file (%d)\n", logSize)
		}
		if last != nil {
			if e.Time.Before(last.Time) {
				fmt.Fprintf(d.w, "\t\tError: timestamp went backwards in time %s -> %s\n", d.clock(last.Time), d.clock(e.Time))
			}
			if e.Vol < last.Vol {
				d.w.WriteString("\t\tError: volume number decreased\n")
			}
			if e.Vol == last.Vol && e.MetaOffset < last.MetaOffset {
				d.w.WriteString("\t\tError: offset to meta file decreased\n")
			}
			if e.Vol == last.Vol && e.DataOffset < last.DataOffset {
				d.w.WriteString("\t\tError: offset to log file decreased\n")
			}
		}
		last = e
	}
	return err
}
