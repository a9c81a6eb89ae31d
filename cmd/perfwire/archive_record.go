package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

const archiveRecordUsage = `usage: perfwire archive record -o BASE [-h HOST] [--interval D] [--samples N] [-V 2|3] [-v VOLSAMPLES] METRIC...

Records the metrics (leaf names or subtrees) from a running pmcd into the
archive BASE (BASE.meta, BASE.index, BASE.0 ...) as pmlogger does: the
descriptors, help texts and labels, each instance domain whenever it
changes, and one record per sample. The files are written under
temporary names and renamed into place at the end, so BASE exists whole
or not at all.

  -o BASE        the archive to write (its files must not exist)
  -h HOST        pmcd host[:port] (127.0.0.1:44321)
  -t, --interval D   time between samples (1s), a Go duration
  -s, --samples N    number of samples (10)
  -V 2|3         archive format version (3)
  -v VOLSAMPLES  start a new data volume every VOLSAMPLES samples (0: never)`

func runArchiveRecord(args []string, stdout io.Writer) error {
	fs := quietFlags("archive record")
	out := fs.String("o", "", "")
	host := fs.String("h", "127.0.0.1:44321", "")
	interval := fs.Duration("t", time.Second, "")
	fs.DurationVar(interval, "interval", time.Second, "")
	samples := fs.Int("s", 10, "")
	fs.IntVar(samples, "samples", 10, "")
	version := fs.Int("V", 3, "")
	volSamples := fs.Int("v", 0, "")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, archiveRecordUsage)
	}
	switch {
	case *out == "" || fs.NArg() == 0:
		return usagef("give -o BASE and at least one metric\n%s", archiveRecordUsage)
	case *version != 2 && *version != 3:
		return usagef("-V %d: want 2 or 3", *version)
	case *samples < 1 || *interval <= 0 || *volSamples < 0:
		return usagef("-s, -t and -v must be positive")
	}
	if existing, _ := filepath.Glob(*out + ".*"); slices.ContainsFunc(existing, isArchiveFile(*out)) {
		return usagef("%s: an archive of that name exists", *out)
	}
	addr := *host
	if !strings.Contains(addr, ":") && !strings.HasPrefix(addr, "/") {
		addr += ":44321"
	}
	ctx := context.Background()
	c, err := pmapi.Dial(ctx, addr, pmapi.Options{})
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", addr, err)
	}
	defer c.Close()
	r := &recorder{c: c, ctx: ctx, version: *version}
	if err := r.resolve(fs.Args()); err != nil {
		return err
	}
	return r.record(*out, *interval, *samples, *volSamples)
}

// isArchiveFile reports whether a path is one of base's archive files.
func isArchiveFile(base string) func(string) bool {
	return func(p string) bool {
		s := strings.TrimPrefix(p, base+".")
		return s == "meta" || s == "index" || allDigits(s)
	}
}

// recorder is one recording: the metrics, their descriptors, and what
// has been written of the metadata.
type recorder struct {
	c       *pmapi.Client
	ctx     context.Context
	version int
	names   []string
	ids     []pcp.ID
	descs   []pcp.Desc
	indoms  map[pcp.InDom][]int32 // the instances last written
}

// resolve expands subtrees to leaf names and looks up their descriptors.
func (r *recorder) resolve(args []string) error {
	seen := map[string]bool{}
	for _, a := range args {
		leaves, err := r.c.Traverse(r.ctx, a)
		if err != nil {
			return fmt.Errorf("%s: %w", a, err)
		}
		for _, n := range leaves {
			if !seen[n] {
				seen[n] = true
				r.names = append(r.names, n)
			}
		}
	}
	ids, err := r.c.LookupName(r.ctx, r.names...)
	if err != nil {
		return err
	}
	for i, id := range ids {
		d, err := r.c.LookupDesc(r.ctx, id)
		if err != nil {
			fmt.Fprintf(diag, "perfwire archive record: %s: %v (not recorded)\n", r.names[i], err)
			continue
		}
		r.ids = append(r.ids, id)
		r.descs = append(r.descs, d)
	}
	if len(r.ids) == 0 {
		return errors.New("no metric to record")
	}
	r.names = nil
	for _, id := range r.ids {
		ns, _ := r.c.NameID(r.ctx, id)
		r.names = append(r.names, strings.Join(ns, "\x00"))
	}
	return nil
}

// hostLabel fills the label's host and time zone from pmcd's own metrics
// (pmcd.hostname, pmcd.timezone, pmcd.zoneinfo), as pmlogger does.
func (r *recorder) hostLabel(l *archive.Label, fallback string) {
	l.Hostname, l.TZ = fallback, "UTC"
	ids, err := r.c.LookupName(r.ctx, "pmcd.hostname", "pmcd.timezone", "pmcd.zoneinfo")
	if err != nil {
		return
	}
	res, err := r.c.Fetch(r.ctx, ids...)
	if err != nil {
		return
	}
	i := 0
	for vs := range res.ValueSets() {
		if vs.Len() == 1 {
			if v := vs.Value(0); v.BlockType() == pcp.TypeString {
				s := strings.TrimRight(string(v.Payload()), "\x00")
				switch i {
				case 0:
					l.Hostname = s
				case 1:
					l.TZ = s
				case 2:
					l.Zoneinfo = s
				}
			}
		}
		i++
	}
}

// record writes the archive under temporary names, then renames it.
func (r *recorder) record(base string, interval time.Duration, samples, volSamples int) (err error) {
	dir, stem := filepath.Split(base)
	tmp, err := os.MkdirTemp(dir+".", "."+stem+".rec-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	create := func(suffix string) (*os.File, error) { return os.Create(filepath.Join(tmp, "a."+suffix)) }
	meta, err := create("meta")
	if err != nil {
		return err
	}
	index, err := create("index")
	if err != nil {
		return err
	}
	vol, err := create("0")
	if err != nil {
		return err
	}
	files := []*os.File{meta, index, vol}
	defer func() {
		for _, f := range files {
			if cerr := f.Close(); err == nil && cerr != nil {
				err = cerr
			}
		}
	}()
	l := archive.Label{Version: r.version, PID: int32(os.Getpid()), Start: archive.TimestampOf(time.Now())}
	r.hostLabel(&l, "localhost")
	w, err := archive.NewWriter(l, meta, index, vol)
	if err != nil {
		return err
	}
	if err := r.writeMeta(w, l.Start); err != nil {
		return err
	}
	r.indoms = map[pcp.InDom][]int32{}
	next := time.Now()
	var rd pduwire.ResultPDU
	for n := 0; n < samples; n++ {
		time.Sleep(time.Until(next))
		next = next.Add(interval)
		if volSamples > 0 && n > 0 && n%volSamples == 0 {
			v, err := create(fmt.Sprint(w.Volume() + 1))
			if err != nil {
				return err
			}
			files = append(files, v)
			if err := w.NewVolume(v); err != nil {
				return err
			}
		}
		res, err := r.c.Fetch(r.ctx, r.ids...)
		if err != nil {
			return err
		}
		t := archive.Timestamp{Sec: res.Sec, Nsec: int32(res.Nsec)}
		if err := r.writeInDoms(w, t, &res); err != nil {
			return err
		}
		res.AppendTo(&rd)
		if err := w.Result(t, &rd); err != nil {
			return err
		}
	}
	if err := w.Finish(); err != nil {
		return err
	}
	for _, f := range files {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	// Volumes first, the .meta last: a reader looks for the .meta.
	for i := 2; i < len(files); i++ {
		if err := os.Rename(files[i].Name(), base+"."+fmt.Sprint(i-2)); err != nil {
			return err
		}
	}
	if err := os.Rename(index.Name(), base+".index"); err != nil {
		return err
	}
	return os.Rename(meta.Name(), base+".meta")
}

// writeMeta writes the descriptors, help texts and labels of every
// metric, as of t.
func (r *recorder) writeMeta(w *archive.Writer, t archive.Timestamp) error {
	labelled := map[[2]uint32]bool{}
	labels := func(kind int32, ident uint32) error {
		key := [2]uint32{uint32(kind), ident}
		if labelled[key] {
			return nil
		}
		labelled[key] = true
		sets, err := r.c.LookupLabelSets(r.ctx, kind, ident)
		if err != nil || len(sets) == 0 {
			return nil // a level without labels, or a pmcd without them
		}
		return w.Labels(archive.LabelSets{Time: t, Type: uint32(kind), Ident: ident, Sets: sets})
	}
	labels(pduwire.LabelContext, uint32(pcp.IDNull))
	for i, d := range r.descs {
		if err := w.Metric(archive.Metric{Desc: d, Names: strings.Split(r.names[i], "\x00")}); err != nil {
			return err
		}
		for _, help := range []bool{false, true} {
			if txt, err := r.c.LookupText(r.ctx, d.ID, help); err == nil && txt != "" {
				kind := uint32(archive.TextPMID | archive.TextOneLine)
				if help {
					kind = archive.TextPMID | archive.TextHelp
				}
				if err := w.Text(archive.Text{Type: kind, Ident: uint32(d.ID), Text: txt}); err != nil {
					return err
				}
			}
		}
		labels(pduwire.LabelDomain, d.ID.Domain())
		labels(pduwire.LabelCluster, uint32(d.ID)&^0x3ff)
		labels(pduwire.LabelItem, uint32(d.ID))
		if d.InDom != pcp.InDomNull {
			labels(pduwire.LabelInDom, uint32(d.InDom))
			labels(pduwire.LabelInstances, uint32(d.InDom))
		}
	}
	return nil
}

// writeInDoms writes the instance domain of each metric in res whose
// instances differ from those last written.
func (r *recorder) writeInDoms(w *archive.Writer, t archive.Timestamp, res *pduwire.Result) error {
	i := 0
	for vs := range res.ValueSets() {
		d := r.descs[i]
		i++
		if d.InDom == pcp.InDomNull || vs.Len() == 0 {
			continue
		}
		var got []int32
		for v := range vs.Values() {
			got = append(got, v.Inst)
		}
		slices.Sort(got)
		if old, ok := r.indoms[d.InDom]; ok && isSubset(got, old) {
			continue
		}
		insts, err := r.c.GetInDom(r.ctx, d.InDom)
		if err != nil {
			return err
		}
		in := archive.Instances{Time: t, InDom: d.InDom}
		for _, x := range insts {
			in.Inst = append(in.Inst, x.Inst)
			in.Names = append(in.Names, x.Name)
		}
		if err := w.InDom(in); err != nil {
			return err
		}
		all := slices.Clone(in.Inst)
		slices.Sort(all)
		r.indoms[d.InDom] = all
	}
	return nil
}

// isSubset reports whether every element of a (sorted) is in b (sorted).
func isSubset(a, b []int32) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}
