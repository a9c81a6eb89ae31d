package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/tracedir"
	"github.com/perfwire/perfwire/schema"
)

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
	fl := quietFlags("ltt")
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
	// A large trace shows how far the walk has got, block by block.
	var total, read int64
	for _, f := range files {
		total += f.Size
	}
	p := newProgress(dir, total)
	defer p.finish()
	walk := func(f tracedir.Tracefile, fn func(block int, ev *ltt.Event) error) error {
		return walkLTT(f, func(n int64) { read += n; p.set(read) }, fn)
	}
	if *events {
		w := bufio.NewWriter(stdout)
		out := jsonLines{w: w}
		printed := 0
		if *merged {
			for cpu, ev := range tr.Merge() {
				if ev == nil || *limit > 0 && printed >= *limit {
					break
				}
				printed++
				e := newLTTEvent("cpu/"+strconv.Itoa(cpu), -1, ev)
				if err := out.write(&e); err != nil {
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
			err := walk(f, func(blk int, ev *ltt.Event) error {
				if *limit > 0 && printed >= *limit {
					return errEnough
				}
				printed++
				e := newLTTEvent(f.Name, blk, ev)
				return out.write(&e)
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
	sum := schema.LTTSummary{Arch: tr.System.ArchSize, Endian: tr.System.Endian, BlockSize: tr.System.BlockSize,
		Facilities: []schema.LTTFacility{}, Tracefiles: []schema.LTTTracefile{}}
	for _, f := range tr.Facilities {
		sum.Facilities = append(sum.Facilities, schema.LTTFacility{
			Name: f.Name, Checksum: fmt.Sprintf("0x%08x", f.Checksum()), Base: int(f.Base), Events: len(f.Events),
		})
	}
	for _, f := range files {
		st := schema.LTTTracefile{Name: f.Name, Bytes: int(f.Size), Blocks: f.NumBlocks(), Versions: []string{}}
		counts := map[string]int{}
		seen := map[string]bool{}
		err := walk(f, func(_ int, ev *ltt.Event) error {
			st.Events++
			counts[ev.Type.Name()]++
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
		st.Counts = appendLTTCounts(nil, counts)
		sum.Tracefiles = append(sum.Tracefiles, st)
	}
	// One JSON line, as every command's JSON output is.
	out := jsonLines{w: stdout}
	return out.write(&sum)
}

// walkLTT calls fn for every event of every block of f, and done with
// each block's share of the file's bytes once the block is read.
func walkLTT(f tracedir.Tracefile, done func(int64), fn func(block int, ev *ltt.Event) error) error {
	per := f.Size / int64(max(f.NumBlocks(), 1))
	for i := range f.NumBlocks() {
		blk, err := f.Block(i)
		if err != nil {
			return err
		}
		done(per)
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
