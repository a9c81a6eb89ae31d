package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archiveCases are perfwire archive --json runs on the bundled archives
// named each way pmdumplog accepts, a gzip-compressed copy, and damaged,
// partial and missing ones, for the byte-identical plugin tests.
func archiveCases(t *testing.T) [][]string {
	dir := t.TempDir()
	read := func(name string) []byte { return readTestFile(t, archiveData+name) }
	// put writes an archive's files under dir/sub with base name base:
	// each of m3's files, through edit when it has one for that suffix.
	put := func(sub string, edit map[string]func([]byte) []byte) string {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, suf := range []string{"meta", "index", "0", "1", "2"} {
			b, name := read("m3."+suf), "m3."+suf
			if f, ok := edit[suf]; ok {
				if b = f(b); b == nil {
					continue
				}
			}
			if f, ok := edit["name"]; ok {
				name = string(f([]byte(name)))
			}
			if err := os.WriteFile(filepath.Join(dir, sub, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.Join(dir, sub, "m3")
	}
	gz := func(b []byte) []byte {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	cut := func(n int) func([]byte) []byte { return func(b []byte) []byte { return b[:len(b)-n] } }
	flip := func(at int) func([]byte) []byte {
		return func(b []byte) []byte { b = bytes.Clone(b); b[at] ^= 0xff; return b }
	}
	drop := func([]byte) []byte { return nil }
	bases := []string{
		archiveData + "m2", archiveData + "m3", archiveData + "m3.meta", archiveData + "m2.1", archiveData + "m3.index",
		put("gz", map[string]func([]byte) []byte{"meta": gz, "0": gz, "1": gz, "2": gz, "index": gz,
			"name": func(n []byte) []byte { return append(n, ".gz"...) }}),
		put("cut", map[string]func([]byte) []byte{"1": cut(37)}),
		put("cutmeta", map[string]func([]byte) []byte{"meta": cut(11)}),
		put("badlabel", map[string]func([]byte) []byte{"0": flip(9)}),
		put("badrec", map[string]func([]byte) []byte{"1": flip(200)}),
		put("badmeta", map[string]func([]byte) []byte{"meta": flip(150)}),
		put("nometa", map[string]func([]byte) []byte{"meta": drop}),
		put("noindex", map[string]func([]byte) []byte{"index": drop}),
		put("novol", map[string]func([]byte) []byte{"0": drop, "1": drop, "2": drop}),
		filepath.Join(dir, "missing"),
	}
	var cases [][]string
	for _, b := range bases {
		cases = append(cases, []string{"archive", "--json", b})
	}
	return cases
}

// TestArchivePluginByteIdentical: perfwire --plugin FILE archive --json
// prints exactly what the native run prints, on stdout and stderr, with
// the same exit status, through the archive module and the all-formats
// module.
func TestArchivePluginByteIdentical(t *testing.T) {
	file, err := oneFormatModule("archive")
	if err != nil {
		t.Fatal(err)
	}
	cases := archiveCases(t)
	for _, module := range []string{file, pluginWasm} {
		codes := sameThroughPlugin(t, module, cases)
		if codes[0] < 7 || codes[1] < 5 {
			t.Errorf("%s: exit codes %v", filepath.Base(module), codes)
		}
	}
}

// TestArchivePluginRefuses: the text sections are the host's formatter,
// not a call of the plugin; a module built without archive_open says so.
func TestArchivePluginRefuses(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--plugin", pluginWasm, "archive", "-a", archiveData + "m3"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "--json") {
		t.Errorf("text through the plugin: exit %d, %q", code, errb.String())
	}
	kpi, err := oneFormatModule("kpi")
	if err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"--plugin", kpi, "archive", "--json", archiveData + "m3"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "archive_open opened no session") {
		t.Errorf("the kpi module: exit %d, %q", code, errb.String())
	}
}
