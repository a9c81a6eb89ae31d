package main

import (
	"bufio"
	"errors"
	"flag"
	"io"

	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// runPDU decodes files holding raw PCP PDU byte streams (such as one
// direction of a captured pmcd conversation) and prints one JSON object
// per PDU: offset, len, type, from and the decoded body. On malformed
// input it prints what decoded and fails with the file and byte offset.
func runPDU(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pdu", flag.ContinueOnError)
	fs.SetOutput(stdout)
	limit := fs.Int("limit", pduwire.DefaultMaxPDULen, "largest PDU accepted, in bytes")
	fs.Usage = func() {
		io.WriteString(stdout, "usage: perfwire pdu [-limit N] FILE...\n\n"+
			"Decodes raw streams of PCP PDUs and prints one JSON object per PDU.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usagef("%v", err)
	}
	if fs.NArg() == 0 {
		return usagef("usage: perfwire pdu [-limit N] FILE...")
	}
	if *limit <= 0 || *limit > pduwire.MaxPDULen {
		return usagef("-limit must be between 1 and %d", pduwire.MaxPDULen)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for _, file := range fs.Args() {
		// A large capture shows how far its read has got (progress.go).
		r, done, err := openWithProgress(file)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(r)
		done()
		if err != nil {
			return err
		}
		name := ""
		if fs.NArg() > 1 {
			name = file
		}
		dump := dumpPDUs
		if plugin != nil {
			dump = pdusInPlugin
		}
		if err := dump(w, name, data, *limit); err != nil {
			return &inputError{file, err}
		}
	}
	return nil
}

// dumpPDUs frames and decodes one stream, writing a JSON line per PDU
// (the plugin's PDU schema). Decode errors are returned with their
// offset made absolute.
func dumpPDUs(w *bufio.Writer, file string, data []byte, limit int) error {
	out := jsonLines{w: w}
	var buf []byte
	s := pduwire.NewScanner(data, pduwire.Options{MaxPDULen: limit})
	for s.Next() {
		var err error
		if buf, err = render.AppendPDU(buf[:0], file, s.PDU()); err != nil {
			return err
		}
		if err := out.raw(buf); err != nil {
			return err
		}
	}
	return s.Err()
}

// pdusInPlugin is dumpPDUs with the decode inside the wasip1 module
// (pdu_decode); the file key, when there is one, goes first as natively.
func pdusInPlugin(w *bufio.Writer, file string, data []byte, limit int) error {
	out := jsonLines{w: w}
	var res schema.PDUStream
	if err := plugin.callIn(opPDUDecode, data, uint32(limit), &res); err != nil {
		return err
	}
	var buf []byte
	for _, m := range res.PDUs {
		b := []byte(m)
		if file != "" {
			n, rest, err := msgp.ReadMapHeaderBytes(m)
			if err != nil {
				return err
			}
			buf = msgp.AppendMapHeader(buf[:0], n+1)
			buf = msgp.AppendString(msgp.AppendString(buf, "file"), file)
			b = append(buf, rest...)
		}
		if err := out.raw(b); err != nil {
			return err
		}
	}
	return errOf(res.Error)
}
