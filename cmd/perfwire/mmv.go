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
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// runMMV prints MMV files as JSON (one object per line) or, with --dump,
// as PCP's mmvdump text. A directory argument is read like pmdammv reads
// $PCP_TMP_DIR/mmv (little-endian files, --order applies to file
// arguments).
func runMMV(args []string, stdout io.Writer) error {
	fs := quietFlags("mmv")
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
	if *dump && plugin != nil {
		return usagef("--dump is mmvdump's text, which the plugin leaves to the host: run it without --plugin")
	}
	// Each argument is a file, or a directory scanned the way pmdammv
	// scans $PCP_TMP_DIR/mmv (the files' discovery, and whether their
	// writers live, are the host's); unusable files found in a
	// directory are reported, not fatal. The images are validated and
	// served by mmv_serve (render.AppendMMVServe), natively or in the plugin.
	in := schema.MMVServeInput{Strict: *strict, Now: mmvNow()}
	big := bo.Uint16([]byte{0, 1}) == 1
	var skipped []schema.MMVSkipped
	var pending error // the argument that could not be read
	for _, arg := range fs.Args() {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			found, err := mmvfile.Scan(arg, render.MMVOptions(&schema.MMVImage{BigEndian: big}, *strict))
			if err != nil {
				pending = err
				break
			}
			for _, f := range found {
				path := filepath.Join(arg, f.Name)
				if f.Err != nil {
					skipped = append(skipped, schema.MMVSkipped{File: path, Error: schema.ErrorOf(f.Err)})
					continue
				}
				in.Files = append(in.Files, schema.MMVImage{Path: path, Name: f.Name, BigEndian: big, Image: f.File.Bytes()})
			}
			continue
		}
		b, err := os.ReadFile(arg)
		if err != nil {
			pending = err
			break
		}
		in.Files = append(in.Files, schema.MMVImage{Path: arg, Name: filepath.Base(arg), BigEndian: big, Image: b})
	}
	if *dump {
		return dumpMMV(stdout, &in, pending)
	}
	in.ValidateOnly = pending != nil
	// mmv_serve's MessagePack, natively from its writer or from the
	// plugin; its files are printed from those bytes, as perfwire pdu
	// prints AppendPDU's.
	var res schema.Raw
	if plugin != nil {
		req, err := in.MarshalMsg(nil)
		if err != nil {
			return err
		}
		if err := plugin.callIn(opMMVServe, req, 0, &res); err != nil {
			return err
		}
	} else {
		res = render.AppendMMVServe(nil, &in)
	}
	resErr, files, notes, err := mmvServeParts(res)
	if err != nil {
		return err
	}
	if resErr != nil && pending != nil {
		return errOf(resErr)
	}
	if pending != nil {
		return pending
	}
	// The JSON view is pmdammv's (--dump, as mmvdump, prints every
	// entry): say what it leaves out.
	for _, n := range notes {
		fmt.Fprintf(diag, "perfwire mmv: %s\n", n)
	}
	if resErr != nil {
		return errOf(resErr)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	out := jsonLines{w: w}
	for i := range skipped {
		if err := out.write(&skipped[i]); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := out.raw(f); err != nil {
			return err
		}
	}
	return w.Flush()
}

// mmvServeParts reads an MMVServe's MessagePack (mmv_serve's result)
// without decoding its files: its error, each file's bytes as written
// (an MMVServed's map) and its notes.
func mmvServeParts(b []byte) (resErr *schema.Error, files [][]byte, notes []string, err error) {
	n, b, err := msgp.ReadMapHeaderBytes(b)
	for ; err == nil && n > 0; n-- {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			break
		}
		var k uint32
		switch string(key) {
		case "error":
			if msgp.IsNil(b) {
				b, err = msgp.ReadNilBytes(b)
				break
			}
			resErr = new(schema.Error)
			b, err = resErr.UnmarshalMsg(b)
		case "files":
			k, b, err = msgp.ReadArrayHeaderBytes(b)
			for ; err == nil && k > 0; k-- {
				var rest []byte
				if rest, err = msgp.Skip(b); err == nil {
					files, b = append(files, b[:len(b)-len(rest)]), rest
				}
			}
		case "notes":
			k, b, err = msgp.ReadArrayHeaderBytes(b)
			for ; err == nil && k > 0; k-- {
				var note string
				note, b, err = msgp.ReadStringBytes(b)
				notes = append(notes, note)
			}
		default:
			b, err = msgp.Skip(b)
		}
	}
	return resErr, files, notes, err
}

// mmvNow is the time elapsed values are read at, in microseconds since
// the Unix epoch (the tests fix it).
var mmvNow = func() int64 { return time.Now().UnixMicro() }

// dumpMMV prints in's files as mmvdump does, each validated as the JSON
// view validates it; pending, the argument that could not be read, is
// reported after the files before it.
func dumpMMV(stdout io.Writer, in *schema.MMVServeInput, pending error) error {
	readers := make([]mmv.File, len(in.Files))
	for i, f := range in.Files {
		r, err := mmv.Parse(f.Image, render.MMVOptions(&f, in.Strict))
		if err != nil {
			return &inputError{file: f.Path, err: err}
		}
		readers[i] = r
	}
	if pending != nil {
		return pending
	}
	for i, f := range in.Files {
		if i > 0 {
			stdout.Write([]byte("\n"))
		}
		if _, err := stdout.Write(mmv.AppendDump(nil, &readers[i], f.Path, in.Now)); err != nil {
			return err
		}
	}
	return nil
}
