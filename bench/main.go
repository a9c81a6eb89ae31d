// Command bench times perfwire against libpcp, python3-pcp, speed,
// dlt-convert and naive Go on the same inputs in the same run, and
// writes the figures as Markdown (bench/RESULTS.md in full mode).
//
//	go run . -quick                      # every comparison runs once, briefly
//	go run . -out RESULTS.md             # the full measurement, the whole file
//	go run . -out RESULTS.md -group cpu  # one group (or a list: cpu,plugin): only its sections
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	quick := flag.Bool("quick", false, "check that every comparison runs (few short rounds)")
	out := flag.String("out", "", "write the Markdown report here (default: stdout only)")
	only := flag.String("only", "", "comma-separated figure ids to run (default: all); with -out, only their sections are rewritten")
	group := flag.String("group", "", "run only this group's figures, or those of a comma-separated list of groups ("+groupNames()+"); with -out, only their sections are rewritten")
	rounds := flag.Int("rounds", 11, "rounds per side in full mode")
	target := flag.Duration("target", 100*time.Millisecond, "time per round per side in full mode")
	mmvChildMode := flag.Bool("mmv-child", false, "internal: run the MMV figure (in a child with its own PCP_CONF)")
	fakeMode := flag.String("fakepmcd", "", "internal: serve as a fake pmcd from this recording (the fetch-client figure)")
	pmdaGo := flag.Bool("pmda-go", false, "internal: serve as the pmda figure's Go PMDA on stdin and stdout (pmcd starts it)")
	pgo := flag.String("pgo", "", "write to this file a CPU profile of native Go on the throughput plugin figures' calls, for a wasm build's -pgo")
	record := flag.Bool("record-pmcd", false, "record the fake pmcd's conversation ("+fakeConv+") from the pmcd on "+pmcdAddr)
	flag.Parse()

	cfg := Config{Rounds: *rounds, Target: *target}
	profileTime := 2 * time.Second
	if *quick {
		cfg = Config{Rounds: 3, Target: 5 * time.Millisecond}
		profileTime = 200 * time.Millisecond
	}
	if *fakeMode != "" {
		if err := runFakePmcd(*fakeMode); err != nil {
			fmt.Fprintln(os.Stderr, "fake pmcd:", err)
			os.Exit(1)
		}
		return
	}
	if *pmdaGo {
		if err := pmdaGoChild(); err != nil {
			fmt.Fprintln(os.Stderr, "pmda-go:", err)
			os.Exit(1)
		}
		return
	}
	if *pgo != "" {
		if err := writePGO(*pgo, 3*time.Second); err != nil {
			fmt.Fprintln(os.Stderr, "pgo:", err)
			os.Exit(1)
		}
		return
	}
	if *record {
		names, err := readNames("testdata/fetch-metrics.txt")
		if err == nil {
			err = recordPmcd(pmcdAddr, names)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "record:", err)
			os.Exit(1)
		}
		return
	}
	if *mmvChildMode {
		if err := mmvChild(cfg); err != nil {
			fmt.Fprintln(os.Stderr, "mmv child:", err)
			os.Exit(1)
		}
		return
	}
	ids, err := selectFigures(*group, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var figs []Figure
	var secs []section
	prov := runProvenance()
	start := time.Now()
	for _, fig := range figures {
		if !slices.Contains(ids, fig.id) {
			continue
		}
		t0 := time.Now()
		var f Figure
		if fig.quick != nil {
			f = fig.quick(cfg, *quick)
		} else {
			f = fig.run(cfg)
		}
		f.Profile = profileFigure(&f, profileTime)
		f.Elapsed = time.Since(t0)
		// A figure whose ratio is met and only a second goal missed says
		// that goal's miss in its SubMiss; the text kept for its ratio's
		// miss would be wrong there, unless the figure says it explains both.
		if m := f.met(); m == "no" || m == "floor" || m == "partly" && (f.Verdict != "" || f.SubMissProfiled) {
			f.Miss = misses[f.ID]
		}
		if f.cleanup != nil {
			f.cleanup()
		}
		figs = append(figs, f)
		prov.date = time.Now().UTC().Format("2006-01-02 15:04")
		secs = append(secs, figureSection(&f, prov))
		fmt.Fprint(os.Stderr, textFigure(&f))
	}
	if *out != "" {
		full := *group == "" && *only == ""
		if err := writeResults(*out, full, secs, cfg, *quick, time.Since(start)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Fprintf(os.Stderr, "whole run %s\n", time.Since(start).Round(time.Second))
	failed := false
	for _, f := range figs {
		for _, st := range f.Stats {
			if st.Err != "" || len(st.NsPerOp) == 0 {
				fmt.Fprintf(os.Stderr, "FAIL %s / %s: %s\n", f.ID, st.Name, st.Err)
				failed = true
			}
		}
		for _, n := range f.Notes {
			if strings.HasPrefix(n, "checksum differs") {
				fmt.Fprintf(os.Stderr, "FAIL %s: %s\n", f.ID, n)
				failed = true
			}
		}
	}
	if failed {
		os.Exit(1)
	}
}

// figures are the comparisons in the priority order. A figure
// whose workload shrinks in -quick mode has quick in place of run.
var figures = []struct {
	id    string
	run   func(Config) Figure
	quick func(cfg Config, quick bool) Figure
}{
	{"result", figResult, nil},
	{"result-highres", figResultHighRes, nil},
	{"events", figEvents, nil},
	{"events-100", figEvents100, nil},
	{"labels-parse", figLabelParse, nil},
	{"labels-merge", figLabelMerge, nil},
	{"fetch", figFetch, nil},
	{"fetch-client", figFetchClient, nil},
	{"clients", nil, figClients},
	{"soak", figSoak, nil},
	{"kpi", figKPI, nil},
	{"mmv", figMMV, nil},
	{"mmv-read", figMMVRead, nil},
	{"archive", nil, figArchive},
	{"dlt", nil, figDLT},
	{"stream", nil, figStream},
	{"memcpy", figMemcpy, nil},
	{"memcpy-large", nil, figMemcpyLarge},
	{"wasm", figWasm, nil},
	{"plugin-kpi", figPlugin(pluginWorkloads[0]), nil},
	{"plugin-pdu", figPlugin(pluginWorkloads[1]), nil},
	{"plugin-mmv", figPlugin(pluginWorkloads[2]), nil},
	{"plugin-feed", figPlugin(pluginWorkloads[3]), nil},
	{"plugin-stream", figPlugin(pluginWorkloads[4]), nil},
	{"plugin-mmv-large", figPlugin(pluginWorkloads[5]), nil},
	{"viewer", nil, figViewer},
	{"viewer-ratio", figViewerRatio, nil},
	{"export", nil, figExport},
	{"pmda", nil, figPMDA},
	{"scaling", figScaling, nil},
}
