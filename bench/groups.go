package main

import (
	"fmt"
	"slices"
	"strings"
)

// groups puts every figure of the figures table in exactly one group, in
// the order a full run writes them. A group runs on its own (-group,
// make bench GROUP=NAME) and rewrites only its figures' sections of
// RESULTS.md. A group may name a figure this build does not have yet.
var groups = []figureGroup{
	{"cpu", "in-process decoders beside libpcp, dlt-convert, mmvdump and naive Go, and the copy ceilings",
		[]string{"result", "result-highres", "events", "events-100", "labels-parse", "labels-merge", "kpi",
			"mmv", "mmv-read", "archive", "dlt", "stream", "memcpy", "memcpy-large"}},
	{"live", "clients of the live pmcd (and of a fake one) beside libpcp and python3-pcp",
		[]string{"fetch", "fetch-client", "soak", "clients"}},
	{"wasm", "WebAssembly module sizes against their budgets", []string{"wasm"}},
	{"plugin", "the plugin modules in Node and wazero against native Go",
		[]string{"plugin-kpi", "plugin-pdu", "plugin-mmv", "plugin-feed", "plugin-stream", "plugin-mmv-large"}},
	{"viewer", "the browser viewer in headless Chromium, and as a ratio of the native CLI", []string{"viewer", "viewer-ratio"}},
	{"export", "the Parquet export read back by DuckDB", []string{"export"}},
	{"pmda", "the Go PMDA beside a C PMDA through a private pmcd", []string{"pmda"}},
	{"scaling", "each decoder's cost against its input's size", []string{"scaling"}},
}

// figureGroup is a set of figures run and rewritten together.
type figureGroup struct {
	name, about string
	figures     []string
}

// groupOf returns the group a figure belongs to ("" if none).
func groupOf(id string) string {
	for _, g := range groups {
		if slices.Contains(g.figures, id) {
			return g.name
		}
	}
	return ""
}

// groupNames lists the groups, comma-separated.
func groupNames() string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.name
	}
	return strings.Join(names, ", ")
}

// selectFigures returns the ids of the figures table to run, in its
// order: those of group (a comma-separated list of groups; all when
// empty), narrowed to only's ids (a
// comma-separated list; all when empty). A group or figure that does not
// exist, or a choice that leaves nothing to run, is an error.
func selectFigures(group, only string) ([]string, error) {
	var inGroup []string
	for name := range strings.SplitSeq(group, ",") {
		if name == "" {
			continue
		}
		i := slices.IndexFunc(groups, func(g figureGroup) bool { return g.name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown group %q; the groups are %s", name, groupNames())
		}
		inGroup = append(inGroup, groups[i].figures...)
	}
	known := make([]string, len(figures))
	for i, f := range figures {
		known[i] = f.id
	}
	want := map[string]bool{}
	for id := range strings.SplitSeq(only, ",") {
		if id == "" {
			continue
		}
		if !slices.Contains(known, id) {
			return nil, fmt.Errorf("unknown figure %q in -only; the figures are %s", id, strings.Join(known, ", "))
		}
		want[id] = true
	}
	var ids []string
	for _, id := range known {
		if (group == "" || slices.Contains(inGroup, id)) && (len(want) == 0 || want[id]) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no figure to run: group %q has %s in this build, -only names %q",
			group, strings.Join(inGroup, ", "), only)
	}
	return ids, nil
}
