package labels

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestQA561MergeTexts replays qa/561: pmMergeLabels over JSON texts.
func TestQA561MergeTexts(t *testing.T) {
	inputs := readLines(t, "qa/561-mergelabels.input.tsv")
	want := readLines(t, "qa/561-mergelabels.expected.txt")
	out := string(readFile(t, "qa/561.out"))
	if len(inputs) != len(want) {
		t.Fatalf("%d inputs, %d expected lines", len(inputs), len(want))
	}
	for i, line := range inputs {
		if !strings.Contains(out, want[i]) {
			t.Fatalf("case %d: expected line %q not in 561.out", i, want[i])
		}
		var texts [][]byte
		for _, f := range strings.Split(line, "\t") {
			texts = append(texts, []byte(f))
		}
		var s Set
		if err := MergeTexts(&s, texts, nil); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got := string(s.JSON); got != want[i] {
			t.Errorf("case %d: merge\n got %s\nwant %s", i, got, want[i])
		}
		// qa/561 re-merges every result with {} and expects it back.
		var again Set
		if err := MergeTexts(&again, [][]byte{s.JSON, []byte("{}")}, nil); err != nil || string(again.JSON) != want[i] {
			t.Errorf("case %d: re-merge with {} = %s, %v", i, again.JSON, err)
		}
	}
}

// TestSpecMergeVectors covers the two [6.0.3] merge rows of docs/pcp-labels.md §8.1
// that qa/561 lacks.
func TestSpecMergeVectors(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{`{"a":1,"b":1}`, `{"b":2,"c":2}`, `{"c":3,"d":3}`}, `{"a":1,"b":2,"c":3,"d":3}`},
		{[]string{`{"hostname":"a","x":1}`, `{"hostname":"b"}`}, `{"hostname":"b","x":1}`},
	} {
		var texts [][]byte
		for _, s := range tc.in {
			texts = append(texts, []byte(s))
		}
		var s Set
		if err := MergeTexts(&s, texts, nil); err != nil || string(s.JSON) != tc.want {
			t.Errorf("MergeTexts(%q) = %s, %v; want %s", tc.in, s.JSON, err, tc.want)
		}
	}
}

// qa567Sets builds the label sets of qa/567 from their transcribed
// indexes, trusting them as pmMergeLabelSets does.
func qa567Sets(t *testing.T) map[string]*Set {
	sets := map[string]*Set{}
	for _, line := range readLines(t, "qa/567-mergelabelsets.sets.tsv") {
		f := strings.Split(line, "\t")
		name, json := f[0], f[1]
		jsonlen, _ := strconv.Atoi(f[2])
		n, _ := strconv.Atoi(f[3])
		if jsonlen != len(json)+1 || len(f) != 4+n {
			t.Fatalf("set %s: bad transcription", name)
		}
		var index []byte
		for _, e := range f[4:] {
			var v [5]uint64
			nums := strings.Split(strings.Split(e, "=")[0], ",")
			for k := range v {
				v[k], _ = strconv.ParseUint(nums[k], 0, 16)
			}
			index = AppendLabel(index, Label{NameOff: uint16(v[0]), NameLen: uint8(v[1]), ValueOff: uint16(v[2]), ValueLen: uint16(v[3]), Flags: Flags(v[4])})
		}
		s := new(Set)
		if err := s.DecodeWire([]byte(json), index, VerifyBounds); err != nil {
			t.Fatalf("set %s: %v", name, err)
		}
		sets[name] = s
	}
	return sets
}

// TestQA567MergeSets replays qa/567: pmMergeLabelSets with filters.
func TestQA567MergeSets(t *testing.T) {
	sets := qa567Sets(t)
	filters := map[string]Filter{
		"none":          nil,
		"cull_optional": func(p Pair) bool { return p.Flags&Optional == 0 },
		"cull_none":     func(p Pair) bool { return len(p.Value) == 4 && string(p.Value) != "none" },
	}
	want := readLines(t, "qa/567-mergelabelsets.expected.txt")
	out := string(readFile(t, "qa/567.out"))
	for i, line := range readLines(t, "qa/567-mergelabelsets.input.tsv") {
		f := strings.Split(line, "\t")
		var in []*Set
		for _, name := range strings.Split(f[1], ",") {
			in = append(in, sets[name]) // "NULL" maps to nil
		}
		if !strings.Contains(out, want[i]) {
			t.Fatalf("%s: expected %q not in 567.out", f[0], want[i])
		}
		var s Set
		if err := Merge(&s, in, filters[f[2]]); err != nil {
			t.Fatalf("%s: %v", f[0], err)
		}
		if string(s.JSON) != want[i] {
			t.Errorf("%s:\n got %s\nwant %s", f[0], s.JSON, want[i])
		}
	}
	// The testing set is not JSONB libpcp could have produced: a strict
	// decode rejects it, the default index checks do not look at values.
	var s Set
	tst := sets["testing"]
	if err := s.DecodeWire(tst.JSON, tst.AppendIndex(nil), VerifyIndex); err != nil {
		t.Errorf("VerifyIndex on testing: %v", err)
	}
	if err := s.DecodeWire(tst.JSON, tst.AppendIndex(nil), VerifyStrict); err == nil {
		t.Errorf("VerifyStrict accepted the testing set")
	}
}

// TestQA1660AddLabels replays qa/1660: labels added one text at a time to
// the same set, each with its flags, checking JSON and every index entry.
func TestQA1660AddLabels(t *testing.T) {
	inputs := readLines(t, "qa/1660-addlabels.input.tsv")
	want := readLines(t, "qa/1660-addlabels.expected.tsv")
	flagName := strings.NewReplacer("pmid", "item")
	var acc, add Set
	for i, line := range inputs {
		f := strings.Split(line, "\t")
		fl, _ := strconv.ParseUint(strings.Split(f[1], "=")[0], 0, 8)
		if err := Parse(&add, []byte(f[0]), Options{Flags: Flags(fl)}); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if err := Merge(&acc, []*Set{&acc, &add}, nil); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		w := strings.Split(want[i], "\t")
		if string(acc.JSON) != w[0] || strconv.Itoa(acc.Len()) != w[1] {
			t.Errorf("step %d: %s (%d labels), want %s (%s)", i, acc.JSON, acc.Len(), w[0], w[1])
		}
		for k, l := range acc.Index {
			got := "name(" + strconv.Itoa(int(l.NameOff)) + "," + strconv.Itoa(int(l.NameLen)) + "):value(" +
				strconv.Itoa(int(l.ValueOff)) + "," + strconv.Itoa(int(l.ValueLen)) + ")[" + l.Flags.String() + "]"
			if k+2 >= len(w) || got != flagName.Replace(w[k+2]) {
				t.Errorf("step %d entry %d: %s, want %v", i, k, got, w[2:])
			}
		}
	}
}

// TestQA563ContextLabels rebuilds pmcd's context labels from the label
// files of qa/563 and compares with what pminfo printed there.
func TestQA563ContextLabels(t *testing.T) {
	want := readLines(t, "qa/563-context-labels.expected.tsv")
	for i, line := range readLines(t, "qa/563-context-labels.input.tsv") {
		f := strings.Split(line, "\t")
		var plain, optional []string // file contents by directory, then name
		var names []string
		files := map[string]string{}
		for _, file := range f[1:] {
			path, content, _ := strings.Cut(file, "=")
			files[path] = content + "\n"
			names = append(names, path)
		}
		// pmcd reads labels/ and then labels/optional/, each sorted.
		sortStrings(names)
		for _, n := range names {
			if strings.HasPrefix(n, "optional/") {
				optional = append(optional, files[n])
			} else {
				plain = append(plain, files[n])
			}
		}
		var fromFiles []*Set
		for k, group := range [][]string{plain, optional} {
			fl := Context | Compound
			if k == 1 {
				fl |= Optional
			}
			for _, content := range group {
				s := new(Set)
				if err := Parse(s, []byte(content), Options{Dotted: true, Flags: fl}); err != nil {
					continue // pmcd ignores a file it cannot parse
				}
				fromFiles = append(fromFiles, s)
			}
		}
		var value Set
		if err := Merge(&value, fromFiles, nil); err != nil {
			t.Fatal(err)
		}
		host := []*Set{
			mustParse(t, `{"hostname":"HOSTNAME"}`, Options{Flags: Context}),
			mustParse(t, `{"domainname":"DOMAIN"}`, Options{Flags: Context}),
			mustParse(t, `{"machineid":"MACHINE"}`, Options{Flags: Context}),
			mustParse(t, `{"groupid":1234567}`, Options{Flags: Context | Optional}),
			mustParse(t, `{"userid":7654321}`, Options{Flags: Context | Optional}),
			mustParse(t, `{"agent":"pmcd"}`, Options{Flags: Domain}),
		}
		var all Set
		if err := Merge(&all, append(fromFiles, host...), nil); err != nil {
			t.Fatal(err)
		}
		got := strings.NewReplacer("1234567", "GID", "7654321", "UID").Replace(string(all.JSON))
		w := strings.Split(want[i], "\t")
		if got != w[1] {
			t.Errorf("%s: labels\n got %s\nwant %s", f[0], got, w[1])
		}
		gotValue := `""`
		if value.Len() > 0 {
			gotValue = `"` + string(value.JSON) + `"`
		}
		if gotValue != w[2] {
			t.Errorf("%s: value %s, want %s", f[0], gotValue, w[2])
		}
	}
}

// TestSpec2008RelaxedNames checks the PCP 7.2 name-rule vectors (docs/pcp-labels.md
// §8.3): with Relaxed names and SkipInvalidKeys the same labels survive.
func TestSpec2008RelaxedNames(t *testing.T) {
	for _, tc := range []struct{ in, names string }{
		{`{"_private":"yes","public":"no"}`, "_private public"},
		{`{"___":"triple","_":"single"}`, "_ ___"},
		{`{"abc123":"ok","x_y_z":"ok","A":"ok"}`, "A abc123 x_y_z"},
		{`{"good":"yes","bad-key":"no","also_good":"yes"}`, "also_good good"},
		{`{"":"empty","ok":"fine"}`, "ok"},
		{`{"bad-key":{"nested":"x","deep":{"y":1}},"ok":"yes"}`, "ok"},
		{`{"bad-1":{"x":1},"good":"yes","bad-2":[1,2],"also":"ok"}`, "also good"},
	} {
		s := mustParse(t, tc.in, Options{SkipInvalidKeys: true})
		var names []string
		for p := range s.All() {
			names = append(names, string(p.Name))
		}
		if got := strings.Join(names, " "); got != tc.names {
			t.Errorf("%s: names %q, want %q", tc.in, got, tc.names)
		}
		// PCP 6.x rejects the sets with a leading '_' or an invalid key.
		err := Parse(new(Set), []byte(tc.in), Options{Names: Classic})
		if (err != nil) != (tc.in[2] == '_' || strings.Contains(tc.in, "bad") || strings.Contains(tc.in, `""`)) {
			t.Errorf("%s: Classic parse error %v", tc.in, err)
		}
		if err != nil && !errors.Is(err, ErrName) {
			t.Errorf("%s: Classic parse error kind %v", tc.in, err)
		}
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
