package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// dumper prints an archive as pmdumplog does, section by section, with
// times in loc.
type dumper struct {
	w   *bufio.Writer
	a   *archive.Archive
	loc *time.Location
	v3  bool

	pmns map[pcp.ID][]string // each metric's names in pmNameAll's order
}

// clock prints HH:MM:SS with microseconds (v2) or nanoseconds (v3), as
// pmdumplog prints record times.
func (d *dumper) clock(t archive.Timestamp) string {
	// The seconds alone give the clock, and the fraction is printed as
	// recorded, unnormalised, as pmdumplog prints a damaged one.
	tm := time.Unix(t.Sec, 0).In(d.loc)
	if d.v3 {
		return fmt.Sprintf("%02d:%02d:%02d.%09d", tm.Hour(), tm.Minute(), tm.Second(), t.Nsec)
	}
	return fmt.Sprintf("%02d:%02d:%02d.%06d", tm.Hour(), tm.Minute(), tm.Second(), t.Nsec/1000)
}

// label prints the label section (pmdumplog -l; verbose is -L).
func (d *dumper) label(verbose bool) {
	l := d.a.Label
	day := func(t archive.Timestamp) string {
		tm := t.Time().In(d.loc)
		return tm.Format("Mon Jan _2") + " " + d.clock(t) + " " + tm.Format("2006")
	}
	fmt.Fprintf(d.w, "Log Label (Log Format Version %d)\n", l.Version)
	fmt.Fprintf(d.w, "Performance metrics from host %s\n", l.Hostname)
	fmt.Fprintf(d.w, "    commencing %s\n", day(l.Start))
	end, err := d.a.End()
	if err != nil {
		// As pmdumplog: say so, and go on to what can be read.
		fmt.Fprintf(diag, "perfwire archive: cannot find the end of the archive: %v\n", err)
		fmt.Fprintf(d.w, "    ending     UNKNOWN\n")
	} else {
		fmt.Fprintf(d.w, "    ending     %s\n", day(end))
	}
	if verbose {
		if l.TZ != "" {
			fmt.Fprintf(d.w, "Archive timezone: %s\n", l.TZ)
		}
		if l.Zoneinfo != "" {
			fmt.Fprintf(d.w, "Archive zoneinfo: %s\n", l.Zoneinfo)
		}
		if l.Features != 0 {
			fmt.Fprintf(d.w, "Archive features: 0x%x\n", l.Features)
		}
		fmt.Fprintf(d.w, "PID for pmlogger: %d\n", l.PID)
	}
}

// names is how pmdumplog names a metric: every name, joined by " or ".
func (d *dumper) names(id pcp.ID) string {
	if d.pmns == nil {
		d.pmns = pmnsOrder(d.a.Meta.Metrics)
	}
	if names := d.pmns[id]; len(names) > 0 {
		return strings.Join(names, " or ")
	}
	return "<nonames>"
}

// record prints one data record (pmdumplog -m; sizes is -s).
func (d *dumper) record(r *archive.Record, sizes bool) {
	if sizes {
		fmt.Fprintf(d.w, "[%d bytes]\n", recordSize(r, d.v3))
	}
	d.w.WriteString(d.clock(r.Time))
	if r.Mark {
		d.w.WriteString("  <mark>\n")
		return
	}
	if r.Result.NumPMID == 1 {
		d.w.WriteString(" 1 metric\n")
	} else {
		fmt.Fprintf(d.w, " %d metrics\n", r.Result.NumPMID)
	}
	s := r.Result.Scan()
	for s.Next() {
		vs := s.ValueSet()
		head := "    " + vs.PMID.String() + " (" + d.names(vs.PMID) + ")"
		switch {
		case vs.NumVal == 0:
			d.w.WriteString(head + ": No values returned!\n")
			continue
		case vs.NumVal < 0:
			d.w.WriteString(head + ": " + pcp.Code(vs.NumVal).Message() + "\n")
			continue
		}
		desc := pcp.Desc{ID: vs.PMID, InDom: pcp.InDomNull, Type: pcp.Type32}
		if m, ok := d.a.Meta.Metric(vs.PMID); ok {
			desc = m.Desc
		} else if vs.ValFmt != pduwire.ValInsitu {
			desc.Type = pcp.TypeAggregate
		}
		var in *archive.Instances
		if desc.InDom != pcp.InDomNull {
			in, _ = d.a.Meta.InDomAt(desc.InDom, r.Time)
		}
		for j := range vs.Len() {
			v := vs.Value(j)
			if desc.Type == pcp.TypeEvent || desc.Type == pcp.TypeHighResEvent {
				d.event(vs, v, desc, in)
				continue
			}
			if j == 0 {
				d.w.WriteString(head + ":")
				if vs.NumVal > 1 {
					d.w.WriteString("\n       ")
				}
			} else {
				d.w.WriteString("       ")
			}
			if desc.InDom != pcp.InDomNull {
				d.w.WriteString(" inst [" + instText(in, v.Inst) + "]")
			}
			d.w.WriteString(" value " + dumpValue(v.Raw(), desc.Type) + "\n")
		}
	}
}

// instText is an instance as pmdumplog names it: number and name, or
// ??? when the domain as of the record's time lacks it.
func instText(in *archive.Instances, inst int32) string {
	if in != nil {
		if name, ok := in.Name(inst); ok {
			return fmt.Sprintf("%d or \"%s\"", inst, name)
		}
	}
	return fmt.Sprintf("%d or ???", inst)
}

// dumpValue is pmPrintValue at width 1.
func dumpValue(raw pcp.Raw, t pcp.Type) string {
	a, err := pcp.Extract(raw, t, t)
	if err != nil {
		return aggregateText(raw, 1)
	}
	switch t {
	case pcp.TypeFloat:
		return cReal(float64(a.Float32()), 8)
	case pcp.TypeDouble:
		return cReal(a.Float64(), 16)
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeString:
		return printValue(raw, t, 1)
	}
	return aggregateText(raw, 1)
}

// cReal is C's %.Ng, with glibc's names for NaN (signed) and infinity.
func cReal(v float64, prec int) string {
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		return "-nan"
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return cFloat(v, prec)
}

// event prints one event-record array value as pmdumplog does: the count
// (and the missed records), then each record's time, flags and
// parameters.
func (d *dumper) event(vs pduwire.ValueSet, v pduwire.Value, desc pcp.Desc, in *archive.Instances) {
	d.w.WriteString("    " + vs.PMID.String() + " (" + d.names(vs.PMID))
	if desc.InDom != pcp.InDomNull {
		d.w.WriteString("[" + instText(in, v.Inst) + "])")
	} else {
		d.w.WriteString(")")
	}
	d.w.WriteString(": ")
	arr, err := v.Events()
	if err != nil {
		return // pmdumplog prints nothing more when unpacking fails
	}
	if arr.Len() == 0 {
		d.w.WriteString("No event records\n")
		return
	}
	missed := 0
	for r := range arr.Records() {
		if n, ok := r.Missed(); ok {
			missed += int(n)
		}
	}
	fmt.Fprintf(d.w, "%d", arr.Len())
	if missed > 0 {
		fmt.Fprintf(d.w, " (and %d missed)", missed)
	}
	if arr.Len()+missed == 1 {
		d.w.WriteString(" event record\n")
	} else {
		d.w.WriteString(" event records\n")
	}
	i := 0
	for r := range arr.Records() {
		fmt.Fprintf(d.w, "        --- event record [%d] timestamp ", i)
		i++
		tm := time.Unix(r.Seconds(), r.Nanoseconds()).In(d.loc)
		if arr.HighRes() {
			fmt.Fprintf(d.w, "%02d:%02d:%02d.%09d", tm.Hour(), tm.Minute(), tm.Second(), r.Nanoseconds())
		} else {
			fmt.Fprintf(d.w, "%02d:%02d:%02d.%06d", tm.Hour(), tm.Minute(), tm.Second(), r.Nanoseconds()/1000)
		}
		flags := r.Flags()
		if flags != 0 {
			fmt.Fprintf(d.w, " flags 0x%x (%s) ---\n", uint32(flags), flags)
			if n, ok := r.Missed(); ok {
				fmt.Fprintf(d.w, "        ==> %d missed event records\n", n)
				continue
			}
		} else if r.NumParams() == 0 {
			d.w.WriteString(" ---\n\t          No parameters\n")
			continue
		} else {
			d.w.WriteString(" ---\n")
		}
		for p := range r.Params() {
			m, ok := d.a.Meta.Metric(p.ID)
			if !ok {
				fmt.Fprintf(d.w, "        PMID: %s: pmLookupDesc: %s\n", p.ID, pcp.ErrPMIDLog.Message())
				continue
			}
			fmt.Fprintf(d.w, "        %s (%s): value %s\n", p.ID, d.names(p.ID), dumpValue(paramRaw(p), m.Type))
		}
	}
}

// paramRaw is an event parameter in the form pcp.Extract takes, as
// libpcp unpacks it: 32-bit integers in the value word, the rest as a
// value block.
func paramRaw(p eventrec.Param) pcp.Raw {
	if (p.Type == pcp.Type32 || p.Type == pcp.TypeU32) && len(p.Value) == 4 {
		return pcp.Raw{Insitu: true, Word: binary.BigEndian.Uint32(p.Value)}
	}
	return pcp.Raw{Block: p.Value}
}

// recordSize is pmdumplog -s's size of a record: framing, timestamp and
// numpmid, then each value set with its value blocks rounded up to words.
func recordSize(r *archive.Record, v3 bool) int {
	n := 4 + 8 + 4 + 4
	if v3 {
		n += 4
	}
	s := r.Result.Scan()
	for s.Next() {
		vs := s.ValueSet()
		n += 8
		if vs.NumVal > 0 {
			n += 4
			for j := range vs.Len() {
				n += 8
				if v := vs.Value(j); v.Block() {
					n += (len(v.Payload()) + 4 + 3) &^ 3
				}
			}
		}
	}
	return n
}
