package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
	"github.com/perfwire/perfwire/pcp"
)

// mmvFile is the JSON printed for one MMV file.
type mmvFile struct {
	File       string      `json:"file"`
	Version    int32       `json:"version"`
	Flags      string      `json:"flags"`
	Cluster    int32       `json:"cluster"`
	Process    int32       `json:"process"`
	Generation uint64      `json:"generation"`
	Metrics    []mmvMetric `json:"metrics"`
	Warnings   []string    `json:"warnings,omitempty"`
}

// mmvSkipped is a file found in a directory that pmdammv (or our
// stricter reader) would skip, and why.
type mmvSkipped struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// mmvMetric is one metric as pmdammv exports it.
type mmvMetric struct {
	Name      string     `json:"name"`
	PMID      string     `json:"pmid"`
	Item      uint32     `json:"item"`
	Type      string     `json:"type"`
	Sem       string     `json:"sem"`
	Units     string     `json:"units"`
	Indom     string     `json:"indom"`
	ShortText string     `json:"shorttext"`
	HelpText  string     `json:"helptext"`
	Labels    []mmvLabel `json:"labels"`
	Values    []mmvValue `json:"values"`
}

// mmvLabel is one label entry that applies to a metric or an instance.
type mmvLabel struct {
	Level    string          `json:"level"`
	Optional bool            `json:"optional,omitempty"`
	Label    json.RawMessage `json:"label"`
}

// mmvValue is one value; Value is null when a SENTINEL file says
// "no value".
type mmvValue struct {
	Inst     *int32     `json:"inst"`
	InstName *string    `json:"instname"`
	Value    any        `json:"value"`
	Labels   []mmvLabel `json:"labels,omitempty"`
}

var semText = map[pcp.Sem]string{0: "counter", pcp.SemCounter: "counter", pcp.SemInstant: "instant", pcp.SemDiscrete: "discrete"}

var levelText = map[mmv.LabelFlags]string{mmv.LabelCluster: "cluster", mmv.LabelItem: "item", mmv.LabelInDom: "indom", mmv.LabelInstances: "instance"}

// runMMV prints MMV files as JSON (one object per line) or, with --dump,
// as PCP's mmvdump text. A directory argument is read like pmdammv reads
// $PCP_TMP_DIR/mmv (little-endian files, --order applies to file
// arguments).
func runMMV(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mmv", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dump := fs.Bool("dump", false, "print mmvdump-style text instead of JSON")
	order := fs.String("order", "le", "byte order of the files: le, be or native")
	strict := fs.Bool("strict", false, "refuse a file with a metric pmdammv would leave out, instead of leaving it out")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usagef("usage: perfwire mmv [--dump] [--strict] [--order le|be|native] FILE|DIR...")
		}
		return usagef("%v\nusage: perfwire mmv [--dump] [--strict] [--order le|be|native] FILE|DIR...", err)
	}
	if fs.NArg() == 0 {
		return usagef("usage: perfwire mmv [--dump] [--strict] [--order le|be|native] FILE|DIR...")
	}
	var bo binary.ByteOrder
	switch *order {
	case "le":
		bo = binary.LittleEndian
	case "be":
		bo = binary.BigEndian
	case "native":
		bo = binary.NativeEndian
	default:
		return usagef("--order must be le, be or native, not %q", *order)
	}
	now := time.Now().UnixMicro()
	// As pmdammv serves a file: a metric it leaves out is left out here
	// too, with a diagnostic; --strict refuses the file instead.
	lim := mmv.Limits{SkipRefused: !*strict}
	// Each argument is a file, or a directory scanned the way pmdammv
	// scans $PCP_TMP_DIR/mmv; unusable files found in a directory are
	// reported, not fatal.
	var paths []string
	var readers []mmv.Reader
	var skipped []mmvSkipped
	for _, arg := range fs.Args() {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			found, err := mmvfile.Scan(arg, lim)
			if err != nil {
				return err
			}
			for _, f := range found {
				if f.Err != nil {
					skipped = append(skipped, mmvSkipped{File: filepath.Join(arg, f.Name), Error: f.Err.Error()})
					continue
				}
				paths = append(paths, filepath.Join(arg, f.Name))
				readers = append(readers, f.Reader)
			}
			continue
		}
		b, err := os.ReadFile(arg)
		if err != nil {
			return err
		}
		r, err := mmv.NewReaderLimits(b, bo, lim)
		if err != nil {
			return &inputError{file: arg, err: err}
		}
		paths = append(paths, arg)
		readers = append(readers, r)
	}

	srcs := make([]mmv.Source, len(readers))
	for i := range readers {
		srcs[i] = mmv.Source{Name: filepath.Base(paths[i]), Reader: &readers[i]}
	}
	if *dump {
		for i, path := range paths {
			if i > 0 {
				stdout.Write([]byte("\n"))
			}
			if _, err := stdout.Write(mmv.AppendDump(nil, &readers[i], path, now)); err != nil {
				return err
			}
		}
		return nil
	}
	// The JSON view is pmdammv's: say what it leaves out (--dump, as
	// mmvdump, prints every entry).
	for i := range readers {
		for _, sk := range readers[i].Skips() {
			fmt.Fprintf(diag, "perfwire mmv: %s: %s\n", paths[i], skipText(&readers[i], sk))
		}
	}
	clusters, warnings := mmv.Assign(srcs)
	dropped := make([]map[int]bool, len(readers))
	for _, w := range warnings {
		if !w.Kind.Drops() {
			continue
		}
		if *strict {
			return &inputError{file: paths[w.File], err: errors.New(strings.TrimSpace(warningText(w, srcs, &readers[w.File])))}
		}
		if dropped[w.File] == nil {
			dropped[w.File] = map[int]bool{}
		}
		dropped[w.File][w.Metric] = true
		fmt.Fprintf(diag, "perfwire mmv: %s:%s\n", paths[w.File], warningText(w, srcs, &readers[w.File]))
	}
	enc := json.NewEncoder(stdout)
	for _, f := range skipped {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	for i, path := range paths {
		f := describeMMV(&readers[i], path, srcs[i].Name, clusters[i], now, dropped[i])
		for _, w := range warnings {
			if w.File == i {
				f.Warnings = append(f.Warnings, warningText(w, srcs, &readers[i]))
			}
		}
		for _, sk := range readers[i].Skips() {
			f.Warnings = append(f.Warnings, skipText(&readers[i], sk))
		}
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

// skipText says which metric a reader left out and by which rule.
func skipText(r *mmv.Reader, sk mmv.Skip) string {
	return fmt.Sprintf("metric %q left out, as pmdammv leaves it out (--strict refuses the file): %v", r.Metric(sk.Metric).Name, sk.Err)
}

// describeMMV builds the JSON view of one file.
// Metrics in drop (by entry index) are left out, as pmdammv leaves them.
func describeMMV(r *mmv.Reader, path, name string, cluster uint32, now int64, drop map[int]bool) mmvFile {
	h := r.Header()
	out := mmvFile{File: path, Version: h.Version, Flags: flagsText(h.Flags), Cluster: h.Cluster,
		Process: h.Process, Generation: h.Gen1, Metrics: []mmvMetric{}}
	// A metric's place in out.Metrics: entries left out under
	// SkipRefused (and their values, which Values skips) have none.
	pos := make([]int, r.NumMetrics())
	for m := range r.Metrics() {
		if drop[m.Index] {
			pos[m.Index] = -1
			continue
		}
		typ, sem, units := m.Type.PCP(), semText[m.Sem], m.Units.String()
		if m.Type == mmv.TypeElapsed {
			sem, units = "counter", "microsec"
		}
		jm := mmvMetric{
			Name: string(r.AppendMetricName(nil, mmv.PrefixMMV, name, m)), PMID: mmv.PMID(cluster, m.Item).String(),
			Item: m.Item, Type: mmv.Type(typ).String(), Sem: sem, Units: units, Indom: "PM_INDOM_NULL",
			ShortText: string(m.ShortText), HelpText: string(m.HelpText), Labels: []mmvLabel{}, Values: []mmvValue{},
		}
		if m.Type == mmv.TypeNoSupport {
			jm.Type = "nosupport"
		}
		if !m.Singular() {
			jm.Indom = mmv.InDomID(cluster, m.Indom).String()
		}
		for l := range r.Labels() {
			switch l.Flags.Level() {
			case mmv.LabelCluster:
				if l.Identity != uint32(h.Cluster) {
					continue
				}
			case mmv.LabelItem:
				if l.Identity != m.Item {
					continue
				}
			case mmv.LabelInDom:
				if m.Singular() || l.Identity != m.Indom {
					continue
				}
			default:
				continue
			}
			jm.Labels = append(jm.Labels, labelJSON(l))
		}
		pos[m.Index] = len(out.Metrics)
		out.Metrics = append(out.Metrics, jm)
	}
	for v := range r.Values() {
		if v.Metric < 0 || pos[v.Metric] < 0 {
			continue // rewritten after validation, or left out
		}
		m := r.Metric(v.Metric)
		jv := mmvValue{Value: valueJSON(v, now)}
		if v.Instance >= 0 {
			in := r.Instance(v.Instance)
			id, name := in.ID, string(in.Name)
			jv.Inst, jv.InstName = &id, &name
			for l := range r.Labels() {
				if l.Flags.Level() == mmv.LabelInstances && l.Identity == m.Indom && l.Internal == id {
					jv.Labels = append(jv.Labels, labelJSON(l))
				}
			}
		}
		out.Metrics[pos[v.Metric]].Values = append(out.Metrics[pos[v.Metric]].Values, jv)
	}
	return out
}

// labelJSON converts a label entry; the reader has checked its payload.
func labelJSON(l mmv.Label) mmvLabel {
	return mmvLabel{Level: levelText[l.Flags.Level()], Optional: l.Flags&mmv.LabelOptional != 0,
		Label: json.RawMessage(append([]byte(nil), l.Payload...))}
}

// valueJSON returns a value as pmdammv would export it now.
func valueJSON(v mmv.Value, now int64) any {
	if v.Missing() {
		return nil
	}
	switch v.Type {
	case mmv.TypeU32, mmv.TypeU64:
		return v.Uint()
	case mmv.TypeFloat, mmv.TypeDouble:
		f := v.Float()
		if f != f || f > 1e308 || f < -1e308 {
			return nil // NaN and infinities have no JSON form
		}
		return f
	case mmv.TypeString:
		return string(v.Text())
	case mmv.TypeElapsed:
		return v.Elapsed(now)
	case mmv.TypeNoSupport:
		return nil
	}
	return v.Int()
}

// flagsText names the header flags as mmvdump does.
func flagsText(f mmv.Flags) string {
	s := ""
	for _, n := range []struct {
		f    mmv.Flags
		name string
	}{{mmv.FlagNoPrefix, "noprefix"}, {mmv.FlagProcess, "process"}, {mmv.FlagSentinel, "sentinel"}} {
		if f&n.f != 0 {
			if s != "" {
				s += ","
			}
			s += n.name
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// warningText explains one pmdammv collision.
func warningText(w mmv.Warning, srcs []mmv.Source, r *mmv.Reader) string {
	metric := ""
	if w.Metric >= 0 {
		metric = " metric " + string(r.Metric(w.Metric).Name) + ":"
	}
	other := ""
	if w.Other >= 0 {
		other = " (" + srcs[w.Other].Name + ")"
	}
	switch w.Kind {
	case mmv.WarnBadName:
		return metric + " exported name is invalid, pmdammv drops it"
	case mmv.WarnDuplicateName:
		return metric + " name already exported by another file" + other + ", pmdammv skips it"
	case mmv.WarnSharedCluster:
		return "cluster shared with another file" + other + "; their pmIDs shadow each other unless intended"
	case mmv.WarnInDomCollision:
		return "an instance domain maps onto another file's" + other + " 22-bit pmInDom"
	case mmv.WarnRepeatedItem:
		return metric + " repeats an earlier item of the file, pmdammv drops it"
	case mmv.WarnNameConflict:
		return metric + " name is a leaf where an earlier name needs an inner node, or the reverse; pmdammv drops it"
	case mmv.WarnClusterLabelsLost:
		return "cluster 0 lets pmdammv choose, so cluster labels never match"
	}
	return "unknown warning"
}
