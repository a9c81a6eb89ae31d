package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
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
	fs := quietFlags("labels")
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
	// A set is printed from the MessagePack LabelSet labels_canon and
	// labels_merge write (render.AppendLabelSet natively), as perfwire pdu
	// prints AppendPDU's; the text form reads the set's JSON and index.
	show := func(res []byte, json []byte, index []labels.Label) error {
		if *asJSON {
			return (&jsonLines{w: stdout}).raw(res)
		}
		_, err := stdout.Write(appendLabelsText(nil, json, index))
		return err
	}
	if *merge {
		var res schema.Raw
		var m labels.Set
		var err error
		if plugin != nil {
			res, m, err = mergeInPlugin(texts, names)
		} else {
			m, err = mergeNative(texts, names)
			res = render.AppendLabelSet(nil, &m, nil)
		}
		if err != nil {
			return err
		}
		if !*asJSON {
			_, err := stdout.Write(append(m.JSON, '\n'))
			return err
		}
		return show(res, m.JSON, m.Index)
	}

	o := labels.Options{KeepOrder: *keep, SkipInvalidKeys: *skip, Dotted: *dotted}
	if *classic {
		o.Names = labels.Classic
	}
	var s labels.Set
	var res schema.Raw
	for i, t := range texts {
		if plugin != nil {
			var err error
			if res, s, err = labelsInPlugin(opLabelsCanon, t, names[i]); err != nil {
				return err
			}
		} else {
			if err := labels.Parse(&s, t, o); err != nil {
				return &inputError{file: names[i], err: err}
			}
			res = render.AppendLabelSet(res[:0], &s, nil)
		}
		if err := show(res, s.JSON, s.Index); err != nil {
			return err
		}
	}
	return nil
}

// mergeNative parses each text alone first, so that an error names its
// input, then merges them.
func mergeNative(texts [][]byte, names []string) (labels.Set, error) {
	sets := make([]*labels.Set, len(texts))
	for i, t := range texts {
		sets[i] = new(labels.Set)
		if err := labels.Parse(sets[i], t, labels.Options{Dotted: true}); err != nil {
			return labels.Set{}, &inputError{file: names[i], err: err}
		}
	}
	var m labels.Set
	if err := labels.Merge(&m, sets, nil); err != nil {
		return labels.Set{}, &inputError{file: "merge", err: err}
	}
	return m, nil
}

// labelsInPlugin runs labels_canon or labels_merge on arg: its result's
// bytes, and the set they describe (its JSON and index), or the call's
// error; the result's error is an input error of name.
func labelsInPlugin(o op, arg []byte, name string) (schema.Raw, labels.Set, error) {
	var res schema.Raw
	var ls schema.LabelSet
	if err := plugin.callIn(o, arg, 0, &res); err != nil {
		return nil, labels.Set{}, err
	}
	if _, err := ls.UnmarshalMsg(res); err != nil {
		return nil, labels.Set{}, err
	}
	if ls.Error != nil {
		return nil, labels.Set{}, &inputError{file: name, err: errOf(ls.Error)}
	}
	s := labels.Set{JSON: []byte(ls.JSON), Index: make([]labels.Label, len(ls.Labels))}
	for i, l := range ls.Labels {
		s.Index[i] = labels.Label{NameOff: l.NameOff, NameLen: l.NameLen, Flags: labels.Flags(l.Flags), ValueOff: l.ValueOff, ValueLen: l.ValueLen}
	}
	return res, s, nil
}

// mergeInPlugin is mergeNative inside the module: labels_merge of one
// text (compound mode, as natively) names the input that fails; an empty
// text, which a merge skips, is refused by labels_canon as natively by
// Parse. Then labels_merge of them all.
func mergeInPlugin(texts [][]byte, names []string) (schema.Raw, labels.Set, error) {
	for i, t := range texts {
		op, arg := opLabelsMerge, msgp.AppendBytes(msgp.AppendArrayHeader(nil, 1), t)
		if len(t) == 0 {
			op, arg = opLabelsCanon, t
		}
		if _, _, err := labelsInPlugin(op, arg, names[i]); err != nil {
			return nil, labels.Set{}, err
		}
	}
	arg := msgp.AppendArrayHeader(nil, uint32(len(texts)))
	for _, t := range texts {
		arg = msgp.AppendBytes(arg, t)
	}
	return labelsInPlugin(opLabelsMerge, arg, "merge")
}

// appendLabelsText appends a set's text form: its JSON on one line, then
// one line per entry of its index.
func appendLabelsText(out, json []byte, index []labels.Label) []byte {
	out = append(append(out, json...), '\n')
	for k, l := range index {
		name := json[l.NameOff : int(l.NameOff)+int(l.NameLen)]
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
		out = append(out, name...)
		if !(labels.Pair{Name: name}).ClassicName() {
			out = append(out, " (name rejected before PCP 7.2)"...)
		}
		out = append(out, '\n')
	}
	return out
}
