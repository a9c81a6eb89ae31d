package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
	"github.com/perfwire/perfwire/wasm/abi"
)

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
	lim := mmv.Options{SkipRefused: !*strict}
	// Each argument is a file, or a directory scanned the way pmdammv
	// scans $PCP_TMP_DIR/mmv; unusable files found in a directory are
	// reported, not fatal.
	var paths []string
	var readers []mmv.Reader
	var skipped []abi.MMVSkipped
	for _, arg := range fs.Args() {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			found, err := mmvfile.Scan(arg, lim)
			if err != nil {
				return err
			}
			for _, f := range found {
				if f.Err != nil {
					skipped = append(skipped, abi.MMVSkipped{File: filepath.Join(arg, f.Name), Error: abi.ErrorOf(f.Err)})
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
		r, err := mmv.NewReader(b, mmv.Options{Order: bo, SkipRefused: lim.SkipRefused})
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
	// The JSON view is pmdammv's (--dump, as mmvdump, prints every
	// entry): say what it leaves out.
	res := abi.ServeMMV(srcs, paths, *strict, now)
	for _, n := range res.Notes {
		fmt.Fprintf(diag, "perfwire mmv: %s\n", n)
	}
	if res.Error != nil {
		return errOf(res.Error)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	out := jsonLines{w: w}
	for i := range skipped {
		if err := out.write(&skipped[i]); err != nil {
			return err
		}
	}
	for i := range res.Files {
		if err := out.write(&res.Files[i]); err != nil {
			return err
		}
	}
	return w.Flush()
}
