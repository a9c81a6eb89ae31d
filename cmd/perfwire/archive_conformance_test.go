//go:build conformance

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

// pmdumplogOut runs pmdumplog -Z UTC with args and returns its stdout
// without its first two lines (the time zone note and a blank line) and
// its exit status.
func pmdumplogOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("pmdumplog", append([]string{"-Z", "UTC"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("pmdumplog %v: %v", args, err)
	}
	s := out.String()
	if strings.HasPrefix(s, "Note: timezone set to") {
		_, s, _ = strings.Cut(s, "\n")
		s = strings.TrimPrefix(s, "\n")
	}
	return s, code
}

// perfwireOut runs perfwire archive with args: stdout and exit status.
func perfwireOut(args ...string) (string, int) {
	var out, errb bytes.Buffer
	code := run(append([]string{"archive"}, args...), &out, &errb)
	return out.String(), code
}

// record runs the real pmlogger (format version v) against the running
// pmcd for the sample, simple, trivial and mmv agents, three volumes of
// ten samples, while pmstore changes sample.many.int's instance domain
// and an MMV file written by mmvfile changes its values.
func record(t *testing.T, v int) string {
	t.Helper()
	dir := t.TempDir()
	name := "perfwire_archive_" + strconv.Itoa(os.Getpid()) + "_v" + strconv.Itoa(v)
	w, err := mmvfile.Create(name, &mmv.Registry{
		Cluster: 321 + uint32(v),
		Indoms:  []mmv.IndomDef{{Serial: 1, Instances: []mmv.InstanceDef{{ID: 0, Name: "GET"}, {ID: 1, Name: "POST"}}}},
		Metrics: []mmv.MetricDef{
			{Name: "requests", Item: 1, Type: mmv.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), Indom: 1},
			{Name: "status", Item: 2, Type: mmv.TypeString, Sem: pcp.SemDiscrete},
		},
	})
	if err != nil {
		t.Fatalf("mmv file in %s: %v", mmvfile.Dir(), err)
	}
	t.Cleanup(func() { w.Close(); os.Remove(w.Path()) })
	get, _ := w.Slot("requests", "GET")
	status, _ := w.Slot("status", "")
	status.SetString("warming up")
	metric := "mmv." + name + ".requests"
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if out, _ := exec.Command("pminfo", "-h", "127.0.0.1", metric).CombinedOutput(); strings.Contains(string(out), metric) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pmcd never served %s", metric)
		}
	}
	cfg := filepath.Join(dir, "config")
	os.WriteFile(cfg, []byte(`log mandatory on 50 msec {
  sample.many.int sample.long.one sample.string.hullo sample.aggregate.hullo sample.event.records
  sample.event.highres_records sample.float.hundred sample.double.million sample.ulonglong.bin sample.colour
  simple trivial mmv.`+name+` kernel.all.load hinv.ncpu
}
`), 0o644)
	base := filepath.Join(dir, "rec")
	cmd := exec.Command("pmlogger", "-V", strconv.Itoa(v), "-c", cfg, "-s", "30", "-v", "10", "-l", filepath.Join(dir, "log"), base)
	if err := cmd.Start(); err != nil {
		t.Fatalf("pmlogger: %v", err)
	}
	store := func(n string) {
		if out, err := exec.Command("pmstore", "-h", "127.0.0.1", "sample.many.count", n).CombinedOutput(); err != nil {
			t.Errorf("pmstore: %v: %s", err, out)
		}
	}
	time.Sleep(400 * time.Millisecond)
	store("3")
	get.Add(7)
	status.SetString("serving")
	time.Sleep(400 * time.Millisecond)
	store("7")
	get.Add(100)
	if err := cmd.Wait(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Fatalf("pmlogger: %v\n%s", err, log)
	}
	store("5")
	if out, err := exec.Command("pmlogcheck", base).CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("pmlogcheck on pmlogger's own archive: %v: %s", err, out)
	}
	return base
}

// Archives recorded now by the real pmlogger, both versions: perfwire
// archive prints exactly what pmdumplog prints for every section.
func TestConformanceArchiveRecorded(t *testing.T) {
	for _, v := range []int{2, 3} {
		base := record(t, v)
		vols, _ := filepath.Glob(base + ".[0-9]*")
		if len(vols) < 3 {
			t.Errorf("v%d: %d volumes, want 3 (pmlogger -v 10)", v, len(vols))
		}
		for _, flag := range []string{"-a", "-e", "-h", "-l", "-L", "-t", "-d", "-i", "-m"} {
			want, wcode := pmdumplogOut(t, flag, base)
			got, code := perfwireOut(flag, base)
			if code != wcode || got != want {
				t.Errorf("v%d %s: exit %d (pmdumplog %d)\n%s", v, flag, code, wcode, firstDiff(got, want))
			}
		}
		all, _ := pmdumplogOut(t, "-a", base)
		for _, want := range []string{"mmv.perfwire_archive_", `value "serving"`, "inst [1 or \"POST\"]", "trivial.time", "simple.numfetch", "highres event record", "3 instances", "7 instances"} {
			if !strings.Contains(all, want) {
				t.Errorf("v%d: the recording lacks %q: the test no longer covers it", v, want)
			}
		}
	}
}

// The QA archives of PCP's own test suite (Debian package pcp-testsuite):
// perfwire archive -a prints what pmdumplog -a prints, byte for byte, for
// every one but the old archives whose 64-bit value blocks carry no type,
// which libpcp does not byte-swap: there pmdumplog prints each such value
// byte-reversed, and the test checks exactly that.
func TestConformanceArchiveQA(t *testing.T) {
	const dir = "/var/lib/pcp/testsuite/archives"
	metas, _ := filepath.Glob(dir + "/*.meta*")
	seen := map[string]bool{}
	var bases []string
	for _, m := range metas {
		b := strings.TrimSuffix(strings.TrimSuffix(m, ".xz"), ".meta")
		if !seen[b] && !strings.Contains(filepath.Base(b), ".meta") {
			seen[b] = true
			bases = append(bases, b)
		}
	}
	if len(bases) < 150 {
		t.Fatalf("%d QA archives in %s: is pcp-testsuite installed (scripts/pcp-up.sh)?", len(bases), dir)
	}
	swapped := map[string]bool{"960624.08.17_v2": true, "babylon.pmview_v2": true, "bozo.client_v2": true}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, base := range bases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			want, wcode := pmdumplogOut(t, "-a", base)
			got, code := perfwireOut("-a", base)
			if got == want && code == wcode {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			name := filepath.Base(base)
			if !swapped[name] {
				t.Errorf("%s: exit %d (pmdumplog %d)\n%s", name, code, wcode, firstDiff(got, want))
				return
			}
			checkSwapped(t, name, got, want)
		}()
	}
	wg.Wait()
}

// TestConformanceArchiveJSONThroughPlugin: for every PCP QA archive and
// the archives pmlogger records here, archive --json through the
// all-formats wasip1 module prints exactly what the native run prints,
// stderr and exit status included (the text sections are the host's, and
// TestConformanceArchiveQA holds them to pmdumplog).
func TestConformanceArchiveJSONThroughPlugin(t *testing.T) {
	metas, _ := filepath.Glob("/var/lib/pcp/testsuite/archives/*.meta*")
	seen := map[string]bool{}
	var cases [][]string
	for _, m := range metas {
		b := strings.TrimSuffix(strings.TrimSuffix(m, ".xz"), ".meta")
		if !seen[b] && !strings.Contains(filepath.Base(b), ".meta") {
			seen[b] = true
			cases = append(cases, []string{"archive", "--json", b})
		}
	}
	if len(cases) < 150 {
		t.Fatalf("%d QA archives: is pcp-testsuite installed (scripts/pcp-up.sh)?", len(cases))
	}
	for _, v := range []int{2, 3} {
		cases = append(cases, []string{"archive", "--json", record(t, v)})
	}
	// Some outputs are gigabytes (pcp-pidstat-process-states prints 173 MB
	// of JSON): compare digests, not buffers. The two QA archives whose
	// JSON is 2.6 GB each take 190 s each in wazero and 30-50 s natively,
	// over 6 minutes of make test: they are left to
	// TestConformanceArchiveQA (their whole pmdumplog -a output), as they
	// exercise the archive calls no differently from
	// pcp-pidstat-process-states, the same pidstat metrics.
	huge := map[string]bool{"pcp-pidstat-process-args": true, "20180416.10.00": true}
	shared, err := loadPlugin(pluginWasm)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.close()
	ok, compared := 0, 0
	for _, args := range cases {
		if huge[filepath.Base(args[2])] {
			continue
		}
		compared++
		nout, nerr := sha256.New(), new(bytes.Buffer)
		ncode := run(args, nout, nerr)
		pout, perr := sha256.New(), new(bytes.Buffer)
		plugin = shared
		pcode := run(args, pout, perr)
		plugin = nil
		if ncode == 0 {
			ok++
		}
		if ncode != pcode || !bytes.Equal(nout.Sum(nil), pout.Sum(nil)) || nerr.String() != perr.String() {
			t.Errorf("%q: native exit %d, %q; plugin exit %d, %q, stdout the same: %v",
				args, ncode, nerr.String(), pcode, perr.String(), bytes.Equal(nout.Sum(nil), pout.Sum(nil)))
		}
	}
	if ok < 150 || compared != len(cases)-len(huge) {
		t.Errorf("%d of %d archives read whole, %d compared through the module", ok, len(cases), compared)
	}
}

// checkSwapped checks that got and want differ only in values that are
// byte-reversed 64-bit numbers of each other.
func checkSwapped(t *testing.T, name, got, want string) {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(g) != len(w) {
		t.Errorf("%s: %d lines, pmdumplog %d", name, len(g), len(w))
		return
	}
	n := 0
	for i := range g {
		if g[i] == w[i] {
			continue
		}
		gp, gv, ok1 := strings.Cut(g[i], " value ")
		wp, wv, ok2 := strings.Cut(w[i], " value ")
		a, err1 := strconv.ParseUint(gv, 10, 64)
		b, err2 := strconv.ParseUint(wv, 10, 64)
		var buf [8]byte
		binary.BigEndian.PutUint64(buf[:], a)
		if !ok1 || !ok2 || gp != wp || err1 != nil || err2 != nil || binary.LittleEndian.Uint64(buf[:]) != b {
			t.Errorf("%s line %d:\n  perfwire:  %s\n  pmdumplog: %s", name, i+1, g[i], w[i])
			return
		}
		n++
	}
	if n == 0 {
		t.Errorf("%s: listed as byte-swapped by libpcp, but equal", name)
	}
}

// PCP's damaged QA archives: where pmdumplog cannot open one, perfwire
// fails too, with a typed error naming the file; where pmdumplog reads it,
// perfwire prints the same. The listed ones differ on purpose, each for
// the reason given.
func TestConformanceArchiveBad(t *testing.T) {
	const dir = "/var/lib/pcp/testsuite/badarchives"
	metas, _ := filepath.Glob(dir + "/*.meta")
	if len(metas) < 30 {
		t.Fatalf("%d damaged QA archives in %s: is pcp-testsuite installed?", len(metas), dir)
	}
	better := map[string]string{
		"archive-20150417.131733": "libpcp cannot find the end behind the damaged last record; perfwire finds the last sound record",
		"badti-4":                 "libpcp reads the data through a damaged index and fails; perfwire reads the volumes without it",
		"logsummary-bug":          "value blocks without a type, which libpcp does not byte-swap",
	}
	for _, m := range metas {
		base := strings.TrimSuffix(m, ".meta")
		name := filepath.Base(base)
		want, wcode := pmdumplogOut(t, "-a", base)
		var out, errb bytes.Buffer
		code := run([]string{"archive", "-a", base}, &out, &errb)
		got := out.String()
		if name == "badlen-11" {
			// A volume cut inside a record header: pmdumplog stops there
			// without a word and exits 0; pmlogcheck reports the damage
			// and fails, and so does perfwire, after the same output.
			if err := exec.Command("pmlogcheck", base).Run(); err == nil || code == 0 || got != want {
				t.Errorf("%s: exit %d, pmlogcheck %v; output equal to pmdumplog's: %v", name, code, err, got == want)
			}
			continue
		}
		if reason, ok := better[name]; ok {
			if got == want && code == wcode {
				t.Errorf("%s: listed as different (%s), but equal now", name, reason)
			}
			continue
		}
		if got != want || code != wcode {
			t.Errorf("%s: exit %d (pmdumplog %d), stderr %q\n%s", name, code, wcode, errb.String(), firstDiff(got, want))
		}
		if code != 0 && !strings.Contains(errb.String(), name) {
			t.Errorf("%s: the error does not name the file: %q", name, errb.String())
		}
	}
}

// perfwire archive record writes archives from the running pmcd that
// pmlogcheck accepts without a word, that pmdumplog prints as perfwire
// reads them, and that pmval reads, in both versions and across volumes.
func TestConformanceArchiveRecord(t *testing.T) {
	for _, v := range []string{"2", "3"} {
		base := filepath.Join(t.TempDir(), "rec")
		var out, errb bytes.Buffer
		code := run([]string{"archive", "record", "-o", base, "-V", v, "--interval", "60ms", "--samples", "12", "-v", "5",
			"sample.many", "sample.long.one", "sample.string.hullo", "sample.aggregate.hullo", "sample.event.records",
			"sample.colour", "simple", "trivial", "kernel.all.load"}, &out, &errb)
		if code != 0 {
			t.Fatalf("v%s: record: exit %d: %s", v, code, errb.String())
		}
		if vols, _ := filepath.Glob(base + ".[0-9]*"); len(vols) != 3 {
			t.Errorf("v%s: %d volumes, want 3 (-s 12 -v 5)", v, len(vols))
		}
		if o, err := exec.Command("pmlogcheck", base).CombinedOutput(); err != nil || len(o) != 0 {
			t.Errorf("v%s: pmlogcheck: %v: %s", v, err, o)
		}
		for _, flag := range []string{"-a", "-e", "-h"} {
			want, wcode := pmdumplogOut(t, flag, base)
			got, code := perfwireOut(flag, base)
			if code != 0 || wcode != 0 || got != want {
				t.Errorf("v%s %s: exit %d (pmdumplog %d)\n%s", v, flag, code, wcode, firstDiff(got, want))
			}
		}
		all, _ := pmdumplogOut(t, "-a", base)
		if n := strings.Count(all, " metrics\n"); n != 12 || !strings.Contains(all, `inst [1 or "green"]`) || !strings.Contains(all, "event record") {
			t.Errorf("v%s: pmdumplog sees %d records", v, n)
		}
		o, err := exec.Command("pmval", "-a", base, "-t", "0.06", "-z", "sample.colour").CombinedOutput()
		if err != nil || !strings.Contains(string(o), "green") || strings.Count(string(o), "\n") < 10 {
			t.Errorf("v%s: pmval -a: %v\n%s", v, err, o)
		}
	}
}

// archive val prints what pmval -a prints: every metric (but event
// records, which pmval reads raw) of an archive recorded now (with an
// MMV counter, so rates), of PCP's QA archives with mark records and
// counters, and of a sample of the others, at several steps, as rates
// and raw, and in a -S/-T window.
func TestConformanceArchiveVal(t *testing.T) {
	qa := "/var/lib/pcp/testsuite/archives/"
	bases := []string{record(t, 3), qa + "count-mark", qa + "interpmark", qa + "20041125", qa + "bozo-disk",
		qa + "sample-labels", qa + "pcp-vmstat", qa + "naslog", qa + "rattle", qa + "mirage"}
	checked := 0
	for _, base := range bases {
		if _, err := os.Stat(base + ".meta"); err != nil {
			if _, err := os.Stat(base + ".meta.xz"); err != nil {
				t.Fatalf("%s: %v (is pcp-testsuite installed?)", base, err)
			}
		}
		names, err := exec.Command("pminfo", "-a", base).Output()
		if err != nil {
			t.Fatalf("pminfo -a %s: %v", base, err)
		}
		// Steps that give a few hundred samples whatever the archive's
		// length (some QA archives last days).
		a, err := openArchive(base)
		if err != nil {
			t.Fatal(err)
		}
		end, _ := a.End()
		a.Close()
		dur := end.Time().Sub(a.Label.Start.Time()).Seconds()
		step := func(n float64) string { return strconv.FormatFloat(max(dur/n, 0.01), 'f', 3, 64) }
		n := 0
		for _, m := range strings.Fields(string(names)) {
			if strings.Contains(m, "event") || n >= 12 {
				continue
			}
			for _, args := range [][]string{{"-t", step(300)}, {"-t", step(37)}, {"-r", "-t", step(90)},
				{"-t", step(200), "-S", "+" + step(10) + "sec", "-T", "+" + step(3) + "sec"}} {
				cmd := exec.Command("pmval", append(append([]string{"-Z", "UTC", "-a", base}, args...), m)...)
				o, _ := cmd.CombinedOutput()
				want := string(o)
				if strings.Contains(want, "pmval:") {
					continue // derived metrics and the like: not in the archive
				}
				_, want, _ = strings.Cut(want, "\n") // the time zone note
				want = strings.TrimPrefix(want, "\n")
				var out, errb bytes.Buffer
				code := run(append(append([]string{"archive", "val"}, args...), base, m), &out, &errb)
				if code != 0 || out.String() != want {
					t.Errorf("val %v %s %s: exit %d %s\n%s", args, filepath.Base(base), m, code, errb.String(), firstDiff(out.String(), want))
				}
				checked++
			}
			n++
		}
	}
	if checked < 150 {
		t.Errorf("only %d comparisons", checked)
	}
}

// One consumer of pmapi.Source gets the same names, descriptors,
// instances, help texts and label sets from the live pmcd and from an
// archive pmlogger recorded from it, and values from both.
func TestConformanceArchiveSource(t *testing.T) {
	base := record(t, 3)
	a, err := openArchive(base)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	live, err := pmapi.Dial(ctx, "127.0.0.1:44321", pmapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	ac := a.NewContext()
	end, _ := a.End()
	describe := func(s pmapi.Source, name string) string {
		ids, err := s.LookupName(ctx, name)
		if err != nil {
			return err.Error()
		}
		d, _ := s.LookupDesc(ctx, ids[0])
		one, _ := s.LookupText(ctx, ids[0], false)
		help, _ := s.LookupText(ctx, ids[0], true)
		out := fmt.Sprintf("%v %s\n[%s]\n%s\n", ids[0], d, one, help)
		if d.InDom != pcp.InDomNull {
			insts, err := s.GetInDom(ctx, d.InDom)
			out += fmt.Sprintf("%v %v\n", insts, err)
		}
		sets, _ := s.LookupLabelSets(ctx, pduwire.LabelItem, uint32(ids[0]))
		for _, ls := range sets {
			out += fmt.Sprintf("item labels %d %s\n", ls.Inst, ls.JSON)
		}
		res, err := s.Fetch(ctx, ids[0])
		if err != nil || res.NumPMID != 1 {
			out += fmt.Sprintf("fetch: %v %d\n", err, res.NumPMID)
		}
		return out
	}
	for _, name := range []string{"sample.colour", "sample.long.one", "sample.string.hullo", "simple.numfetch", "trivial.time", "kernel.all.load"} {
		ac.SetMode(archive.Interp, end, time.Second) // each Fetch moves the time on
		if l, r := describe(live, name), describe(ac, name); l != r {
			t.Errorf("%s:\nlive:\n%s\narchive:\n%s", name, l, r)
		}
	}
}
