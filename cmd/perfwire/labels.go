package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/perfwire/perfwire/labels"
)

const labelsUsage = `usage: perfwire labels [--keep-order] [--classic] [--skip-invalid] [--dotted] JSON|@file...
       perfwire labels --merge JSON|@file...

Prints each label set in canonical JSONB form on one line, followed by its
index (name and value offset,length and flags as a LABEL PDU carries them).
With --merge, merges the sets in the given order, lowest precedence first
(context, domain, indom, cluster, item, instance), as pmMergeLabels does,
and prints the merged JSONB. An argument @file stands for every non-empty
line of file.`

// runLabels implements "perfwire labels".
func runLabels(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("labels", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	merge := fs.Bool("merge", false, "merge the sets, lowest precedence first")
	keep := fs.Bool("keep-order", false, "keep input key order (libpcp's single-parse form)")
	classic := fs.Bool("classic", false, "apply the PCP 6.x name rule (leading letter)")
	skip := fs.Bool("skip-invalid", false, "drop keys with invalid names, as PCP 7.2 does")
	dotted := fs.Bool("dotted", false, "accept dotted names (compound mode)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return usagef("%s", labelsUsage)
		}
		return usagef("%v\n%s", err, labelsUsage)
	}
	var texts [][]byte
	var names []string
	for i, a := range fs.Args() {
		if len(a) > 0 && a[0] == '@' {
			b, err := os.ReadFile(a[1:])
			if err != nil {
				return &inputError{file: a[1:], err: err}
			}
			for n, line := range bytes.Split(b, []byte("\n")) {
				if len(bytes.TrimSpace(line)) > 0 {
					texts = append(texts, line)
					names = append(names, a[1:]+":"+strconv.Itoa(n+1))
				}
			}
			continue
		}
		texts = append(texts, []byte(a))
		names = append(names, "argument "+strconv.Itoa(i+1))
	}
	if len(texts) == 0 {
		return usagef("no label sets given\n%s", labelsUsage)
	}

	var out []byte
	if *merge {
		// Parse each text alone first so that an error names its input.
		sets := make([]*labels.Set, len(texts))
		for i, t := range texts {
			sets[i] = new(labels.Set)
			if err := labels.Parse(sets[i], t, &labels.Options{Dotted: true}); err != nil {
				return &inputError{file: names[i], err: err}
			}
		}
		var m labels.Set
		if err := labels.Merge(&m, sets, nil); err != nil {
			return &inputError{file: "merge", err: err}
		}
		out = append(append(out, m.JSON...), '\n')
		_, err := stdout.Write(out)
		return err
	}

	o := labels.Options{KeepOrder: *keep, SkipInvalidKeys: *skip, Dotted: *dotted}
	if *classic {
		o.Names = labels.Classic
	}
	var s labels.Set
	for i, t := range texts {
		if err := labels.Parse(&s, t, &o); err != nil {
			return &inputError{file: names[i], err: err}
		}
		out = append(append(out[:0], s.JSON...), '\n')
		for k, l := range s.Index {
			p := s.At(k)
			out = append(out, "  ["...)
			out = strconv.AppendInt(out, int64(k), 10)
			out = append(out, "] name("...)
			out = strconv.AppendInt(out, int64(l.NameOff), 10)
			out = append(out, ',')
			out = strconv.AppendInt(out, int64(l.NameLen), 10)
			out = append(out, "):value("...)
			out = strconv.AppendInt(out, int64(l.ValueOff), 10)
			out = append(out, ',')
			out = strconv.AppendInt(out, int64(l.ValueLen), 10)
			out = append(out, ")["...)
			out, _ = l.Flags.AppendText(out)
			out = append(out, "] "...)
			out = append(out, p.Name...)
			if !p.ClassicName() {
				out = append(out, " (name rejected before PCP 7.2)"...)
			}
			out = append(out, '\n')
		}
		if _, err := stdout.Write(out); err != nil {
			return err
		}
	}
	return nil
}
