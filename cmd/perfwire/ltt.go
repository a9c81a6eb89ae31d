package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/tracedir"
)

// lttSummary is the JSON document `perfwire ltt DIR` prints.
type lttSummary struct {
	Arch       string             `json:"arch"`
	Endian     string             `json:"endian"`
	BlockSize  int                `json:"block_size"`
	Facilities []lttFacility      `json:"facilities"`
	Tracefiles []lttTracefileStat `json:"tracefiles"`
}

type lttFacility struct {
	Name     string `json:"name"`
	Checksum string `json:"checksum"`
	Base     int    `json:"base"`
	Events   int    `json:"events"`
}

type lttTracefileStat struct {
	Name      string         `json:"name"`
	Bytes     int            `json:"bytes"`
	Blocks    int            `json:"blocks"`
	Versions  []string       `json:"versions"`
	Events    int            `json:"events"`
	FirstTime *int64         `json:"first_time"` // ns since the epoch; null when empty
	LastTime  *int64         `json:"last_time"`
	Wraps     uint64         `json:"wraps"`
	Counts    map[string]int `json:"counts"`
}

// lttEvent is one line of `perfwire ltt --events`.
type lttEvent struct {
	File   string `json:"file"`
	Block  int    `json:"block"` // -1 in merged output
	Offset int    `json:"offset"`
	ID     uint16 `json:"id"`
	Event  string `json:"event"`
	TSC    uint32 `json:"tsc"`
	Cycles uint64 `json:"cycles"`
	Time   int64  `json:"time"`
	Fields any    `json:"fields"`
}

// errEnough stops an event walk once -n events were printed.
var errEnough = errors.New("enough events")

// versionHint adds to an error about block framing, when the user forced
// a trailer rule, that the rule may be what is wrong.
func versionHint(err error, version string) error {
	if version == "auto" || !(errors.Is(err, ltt.ErrBlockEnd) || errors.Is(err, ltt.ErrBlockStart)) {
		return err
	}
	return fmt.Errorf("%w (the trace may not be --version %s: try --version auto)", err, version)
}

// runLTT implements `perfwire ltt [flags] DIR`.
func runLTT(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("ltt", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	events := fl.Bool("events", false, "print one JSON object per event instead of the summary")
	version := fl.String("version", "auto", "block trailer rule: auto, v1 or v2")
	merged := fl.Bool("merged", false, "with --events, print the CPUs' events merged in time order (control files left out)")
	limit := fl.Int("n", 0, "with --events, stop after this many events (0: all)")
	micro := fl.Bool("v1-micro", true, "v1 block records hold microseconds (2004 converter output)")
	if err := fl.Parse(args); err != nil || fl.NArg() != 1 {
		return usagef("usage: perfwire ltt [--events [--merged] [-n N]] [--version auto|v1|v2] [--v1-micro=false] DIR")
	}
	o := tracedir.Options{MicroTime: *micro}
	switch *version {
	case "auto":
	case "v1":
		o.Version = ltt.Version1
	case "v2":
		o.Version = ltt.Version2
	default:
		return usagef("--version must be auto, v1 or v2")
	}
	dir := fl.Arg(0)
	tr, err := tracedir.Open(os.DirFS(dir), o)
	if err != nil {
		return &inputError{file: dir, err: versionHint(err, *version)}
	}
	defer tr.Close()
	for _, d := range tr.Damage {
		fmt.Fprintf(diag, "perfwire ltt: %s/%s\n", dir, d)
	}
	files := append(append([]tracedir.Tracefile{}, tr.Control...), tr.CPUs...)
	if *events {
		w := bufio.NewWriter(stdout)
		enc := json.NewEncoder(w)
		printed := 0
		if *merged {
			for cpu, ev := range tr.Merge() {
				if ev == nil || *limit > 0 && printed >= *limit {
					break
				}
				printed++
				if err := enc.Encode(lttEventOf("cpu/"+strconv.Itoa(cpu), -1, ev)); err != nil {
					return err
				}
			}
			if err := tr.MergeErr(); err != nil {
				w.Flush()
				return &inputError{file: dir, err: versionHint(err, *version)}
			}
			return w.Flush()
		}
		for _, f := range files {
			err := walkLTT(f, func(blk int, ev *ltt.Event) error {
				if *limit > 0 && printed >= *limit {
					return errEnough
				}
				printed++
				return enc.Encode(lttEventOf(f.Name, blk, ev))
			})
			if err == errEnough {
				break
			}
			if err != nil {
				w.Flush()
				return &inputError{file: dir + "/" + f.Name, err: versionHint(err, *version)}
			}
		}
		return w.Flush()
	}
	sum := lttSummary{Arch: tr.System.ArchSize, Endian: tr.System.Endian, BlockSize: tr.System.BlockSize}
	for _, f := range tr.Facilities {
		sum.Facilities = append(sum.Facilities, lttFacility{
			Name: f.Name, Checksum: fmt.Sprintf("0x%08x", f.Checksum()), Base: int(f.Base), Events: len(f.Events),
		})
	}
	for _, f := range files {
		st := lttTracefileStat{Name: f.Name, Bytes: int(f.Size), Blocks: f.NumBlocks(), Versions: []string{}, Counts: map[string]int{}}
		seen := map[string]bool{}
		err := walkLTT(f, func(_ int, ev *ltt.Event) error {
			st.Events++
			st.Counts[ev.Type.Name()]++
			t := ev.Time
			if st.FirstTime == nil {
				st.FirstTime = &t
			}
			st.LastTime = &t
			return nil
		})
		if err != nil {
			return &inputError{file: dir + "/" + f.Name, err: versionHint(err, *version)}
		}
		for i := range f.NumBlocks() {
			blk, _ := f.Block(i)
			if v := blk.Version.String(); !seen[v] {
				seen[v] = true
				st.Versions = append(st.Versions, v)
			}
			s := blk.Scanner()
			for s.Next() {
			}
			st.Wraps += s.Wraps()
		}
		sum.Tracefiles = append(sum.Tracefiles, st)
	}
	// One JSON line, as every command's JSON output is.
	return json.NewEncoder(stdout).Encode(sum)
}

// lttEventOf builds the JSON line of one event; block is -1 when unknown
// (merged output).
func lttEventOf(file string, block int, ev *ltt.Event) lttEvent {
	return lttEvent{
		File: file, Block: block, Offset: ev.Offset, ID: ev.ID, Event: ev.Type.Name(),
		TSC: ev.TSC, Cycles: ev.Cycles, Time: ev.Time, Fields: lttValue(ev.Payload()),
	}
}

// walkLTT calls fn for every event of every block of f.
func walkLTT(f tracedir.Tracefile, fn func(block int, ev *ltt.Event) error) error {
	for i := range f.NumBlocks() {
		blk, err := f.Block(i)
		if err != nil {
			return err
		}
		for ev, err := range blk.Events() {
			if err != nil {
				return err
			}
			if err := fn(i, ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// lttValue converts a decoded value into JSON-ready Go values: structs
// become objects (field order is lost to encoding/json's sorted keys),
// arrays and sequences lists, enums {"value", "label"}, unions
// {"tag", "<field>": value}.
func lttValue(v ltt.Value) any {
	switch v.Kind() {
	case ltt.KindInt:
		return v.Int()
	case ltt.KindUint:
		return v.Uint()
	case ltt.KindFloat:
		return v.Float()
	case ltt.KindString:
		return string(v.Text())
	case ltt.KindEnum:
		m := map[string]any{"value": v.Uint()}
		if l, ok := v.Label(false); ok {
			m["label"] = l
		}
		return m
	case ltt.KindArray, ltt.KindSequence:
		out := []any{}
		it := v.Iter()
		for it.Next() {
			out = append(out, lttValue(it.Value()))
		}
		return out
	}
	m := map[string]any{}
	if v.Kind() == ltt.KindUnion {
		m["tag"] = v.Uint()
	}
	it := v.Iter()
	for it.Next() {
		m[it.Name()] = lttValue(it.Value())
	}
	return m
}
