package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/wasm/abi"
	"github.com/tinylib/msgp/msgp"
)

const labelsUsage = `usage: perfwire labels [--json] [--keep-order] [--classic] [--skip-invalid] [--dotted] JSON|@file...
       perfwire labels [--json] --merge JSON|@file...

Prints each label set in canonical JSONB form on one line, followed by its
index (name and value offset,length and flags as a LABEL PDU carries them);
with --json, one JSON object per set: json and labels (name, value, flags
and the offsets and lengths of the index).
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
	asJSON := fs.Bool("json", false, "one JSON object per set")
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

	if plugin != nil && (*keep || *classic || *skip || *dotted) {
		return usagef("--keep-order, --classic, --skip-invalid and --dotted are not calls of the plugin")
	}
	show := func(ls *abi.LabelSet) error {
		if *asJSON {
			return (&jsonLines{w: stdout}).write(ls)
		}
		_, err := stdout.Write(appendLabelsText(nil, ls))
		return err
	}
	if *merge {
		var m abi.LabelSet
		var err error
		if plugin != nil {
			m, err = mergeInPlugin(texts, names)
		} else {
			m, err = mergeNative(texts, names)
		}
		if err != nil {
			return err
		}
		if !*asJSON {
			_, err := stdout.Write(append([]byte(m.JSON), '\n'))
			return err
		}
		return show(&m)
	}

	o := labels.Options{KeepOrder: *keep, SkipInvalidKeys: *skip, Dotted: *dotted}
	if *classic {
		o.Names = labels.Classic
	}
	var s labels.Set
	for i, t := range texts {
		var ls abi.LabelSet
		if plugin != nil {
			if err := plugin.callIn(abi.OpLabelsCanon, t, 0, &ls); err != nil {
				return err
			}
			if ls.Error != nil {
				return &inputError{file: names[i], err: errOf(ls.Error)}
			}
		} else {
			if err := labels.Parse(&s, t, o); err != nil {
				return &inputError{file: names[i], err: err}
			}
			ls = abi.NewLabelSet(&s)
		}
		if err := show(&ls); err != nil {
			return err
		}
	}
	return nil
}

// mergeNative parses each text alone first, so that an error names its
// input, then merges them.
func mergeNative(texts [][]byte, names []string) (abi.LabelSet, error) {
	sets := make([]*labels.Set, len(texts))
	for i, t := range texts {
		sets[i] = new(labels.Set)
		if err := labels.Parse(sets[i], t, labels.Options{Dotted: true}); err != nil {
			return abi.LabelSet{}, &inputError{file: names[i], err: err}
		}
	}
	var m labels.Set
	if err := labels.Merge(&m, sets, nil); err != nil {
		return abi.LabelSet{}, &inputError{file: "merge", err: err}
	}
	return abi.NewLabelSet(&m), nil
}

// mergeInPlugin is mergeNative inside the module: labels_merge of one
// text (compound mode, as natively) names the input that fails; an empty
// text, which a merge skips, is refused by labels_canon as natively by
// Parse. Then labels_merge of them all.
func mergeInPlugin(texts [][]byte, names []string) (abi.LabelSet, error) {
	var m abi.LabelSet
	for i, t := range texts {
		op, arg := abi.OpLabelsMerge, msgp.AppendBytes(msgp.AppendArrayHeader(nil, 1), t)
		if len(t) == 0 {
			op, arg = abi.OpLabelsCanon, t
		}
		if err := plugin.callIn(op, arg, 0, &m); err != nil {
			return m, err
		}
		if m.Error != nil {
			return m, &inputError{file: names[i], err: errOf(m.Error)}
		}
	}
	arg := msgp.AppendArrayHeader(nil, uint32(len(texts)))
	for _, t := range texts {
		arg = msgp.AppendBytes(arg, t)
	}
	if err := plugin.callIn(abi.OpLabelsMerge, arg, 0, &m); err != nil {
		return m, err
	}
	if m.Error != nil {
		return m, &inputError{file: "merge", err: errOf(m.Error)}
	}
	return m, nil
}

// appendLabelsText appends a set's text form: its JSON on one line, then
// one line per index entry.
func appendLabelsText(out []byte, ls *abi.LabelSet) []byte {
	out = append(append(out, ls.JSON...), '\n')
	for k, l := range ls.Labels {
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
		out, _ = labels.Flags(l.Flags).AppendText(out)
		out = append(out, "] "...)
		out = append(out, l.Name...)
		if !(labels.Pair{Name: []byte(l.Name)}).ClassicName() {
			out = append(out, " (name rejected before PCP 7.2)"...)
		}
		out = append(out, '\n')
	}
	return out
}
