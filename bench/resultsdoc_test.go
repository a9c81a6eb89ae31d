package main

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// figureOrder is the figures table's ids.
func figureOrder() []string {
	order := make([]string, len(figures))
	for i, f := range figures {
		order[i] = f.id
	}
	return order
}

// readResults is the committed RESULTS.md, which a full run wrote.
func readResults(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if _, err := rebuildTables(doc); err != nil {
		t.Fatalf("RESULTS.md: %v", err)
	}
	return doc
}

// rewritten is a section for id that no run would write: what a group
// run puts in its place.
func rewritten(id string) section {
	f := Figure{ID: id, Title: "rewritten " + id, Unit: "test", Goal: "goal of " + id, SummaryNote: "note of " + id,
		Markdown: "| a | b |\n|---|---|\n| 1 | 2 |\n", Elapsed: 3 * time.Second}
	return figureSection(&f, provenance{commit: "c0ffee1", date: "2026-12-07 00:00", command: "`perfwire-bench -group test`",
		kernel: "Linux test", cpu: "test CPU"})
}

// masked replaces in doc the sections of ids and their rows in the
// Summary and Provenance tables (every table row whose first cell is one
// of ids) by placeholders, so that what is left is what a run of ids
// must not change.
func masked(t *testing.T, doc string, ids []string) string {
	t.Helper()
	spans, err := sectionSpans(doc)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(spans) - 1; i >= 0; i-- {
		if sp := spans[i]; slices.Contains(ids, sp.id) {
			doc = doc[:sp.start] + "<<section " + sp.id + ">>\n" + doc[sp.end:]
		}
	}
	lines := strings.SplitAfter(doc, "\n")
	for i, l := range lines {
		for _, id := range ids {
			if strings.HasPrefix(l, "| "+id+" |") {
				lines[i] = "<<row " + id + ">>\n"
			}
		}
	}
	return strings.Join(lines, "")
}

// tableRows returns the rows of the table between the lines start and
// end, header and rule left out.
func tableRows(t *testing.T, doc, start, end string) []string {
	t.Helper()
	_, body, ok := strings.Cut(doc, "\n"+start+"\n")
	if !ok {
		t.Fatalf("no %s line", start)
	}
	body, _, ok = strings.Cut(body, end+"\n")
	if !ok {
		t.Fatalf("no %s line", end)
	}
	rows := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(rows) < 2 {
		t.Fatalf("table between %s and %s has no header: %q", start, end, body)
	}
	return rows[2:]
}

// checkTables: the Summary and Provenance tables hold one row per
// section, in the sections' order, each the section's hidden row.
func checkTables(t *testing.T, doc string) {
	t.Helper()
	spans, err := sectionSpans(doc)
	if err != nil {
		t.Fatal(err)
	}
	summary := tableRows(t, doc, "<!-- summary -->", "<!-- /summary -->")
	prov := tableRows(t, doc, "<!-- provenance -->", "<!-- /provenance -->")
	if len(summary) != len(spans) || len(prov) != len(spans) {
		t.Fatalf("%d sections, %d Summary rows, %d provenance rows", len(spans), len(summary), len(prov))
	}
	for i, sp := range spans {
		rows, err := hiddenRows(sp.id, doc[sp.start:sp.end])
		if err != nil {
			t.Fatal(err)
		}
		if summary[i] != rows[0] || prov[i] != rows[1] {
			t.Errorf("figure %s: table rows\n%s\n%s\nwant its section's\n%s\n%s", sp.id, summary[i], prov[i], rows[0], rows[1])
		}
		if !strings.HasPrefix(rows[0], "| "+sp.id+" |") || !strings.HasPrefix(rows[1], "| "+sp.id+" | "+groupOf(sp.id)+" |") {
			t.Errorf("figure %s: rows %q, %q do not start with its id and group", sp.id, rows[0], rows[1])
		}
	}
}

// TestResultsFile: the committed RESULTS.md is in the generated format:
// every section marked once, with its two rows, and the tables follow.
func TestResultsFile(t *testing.T) {
	doc := readResults(t)
	checkTables(t, doc)
	spans, _ := sectionSpans(doc)
	for _, sp := range spans {
		if groupOf(sp.id) == "" {
			t.Errorf("figure %s: in RESULTS.md but in no group", sp.id)
		}
	}
	again, err := rebuildTables(doc)
	if err != nil || again != doc {
		t.Errorf("rebuilding the tables of RESULTS.md changes it (err %v)", err)
	}
}

// TestGroupRunKeepsOtherBytes: rewriting one group's sections of the
// real RESULTS.md changes those sections and their table rows, and not
// one other byte; the tables follow the new sections.
func TestGroupRunKeepsOtherBytes(t *testing.T) {
	doc := readResults(t)
	spans, _ := sectionSpans(doc)
	tried := 0
	for _, g := range groups {
		var ids []string
		var secs []section
		for _, sp := range spans {
			if groupOf(sp.id) == g.name {
				ids = append(ids, sp.id)
				secs = append(secs, rewritten(sp.id))
			}
		}
		if len(ids) == 0 {
			continue
		}
		tried++
		t.Run(g.name, func(t *testing.T) {
			out, err := splice(doc, secs, figureOrder())
			if err != nil {
				t.Fatal(err)
			}
			if a, b := masked(t, doc, ids), masked(t, out, ids); a != b {
				t.Errorf("bytes outside group %s's sections and rows changed:\n%s", g.name, firstDiff(a, b))
			}
			newSpans, err := sectionSpans(out)
			if err != nil {
				t.Fatal(err)
			}
			for i, sp := range newSpans {
				if sp.id != spans[i].id {
					t.Fatalf("section %d is %s, was %s", i, sp.id, spans[i].id)
				}
				if k := slices.Index(ids, sp.id); k >= 0 && out[sp.start:sp.end] != secs[k].text {
					t.Errorf("figure %s: section not the one the run wrote", sp.id)
				}
			}
			checkTables(t, out)
			if !strings.Contains(out, "| "+ids[0]+" | goal of "+ids[0]+" | note of "+ids[0]+" |") {
				t.Errorf("Summary has no row of the rewritten %s", ids[0])
			}
		})
	}
	if tried < 2 {
		t.Fatalf("RESULTS.md holds figures of %d groups; a full run writes all", tried)
	}
}

// TestNewFigureInserted: a figure the file has no section of goes after
// the section of the figure before it in the figures table, and gets
// its table rows.
func TestNewFigureInserted(t *testing.T) {
	doc := readResults(t)
	spans, _ := sectionSpans(doc)
	if len(spans) < 3 {
		t.Fatalf("RESULTS.md has %d sections", len(spans))
	}
	gone := spans[1]
	without := doc[:gone.start] + doc[gone.end+1:] // and the blank line after it
	without, err := rebuildTables(without)
	if err != nil {
		t.Fatal(err)
	}
	back, err := splice(without, []section{{id: gone.id, text: doc[gone.start:gone.end]}}, figureOrder())
	if err != nil {
		t.Fatal(err)
	}
	if back != doc {
		t.Errorf("removing %s's section and splicing it back does not give RESULTS.md again:\n%s", gone.id, firstDiff(doc, back))
	}
}

// TestFullRunFresh: a full run's file is the head and every section;
// splicing the same sections into it changes nothing.
func TestFullRunFresh(t *testing.T) {
	secs := []section{rewritten("result"), rewritten("wasm"), rewritten("fetch")}
	doc, err := splice(docHead(Config{Rounds: 1, Target: time.Millisecond}, true, time.Second), secs, figureOrder())
	if err != nil {
		t.Fatal(err)
	}
	spans, err := sectionSpans(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sp := range spans {
		got = append(got, sp.id)
	}
	if want := []string{"result", "fetch", "wasm"}; !slices.Equal(got, want) {
		t.Errorf("sections %v, want the figures table's order %v", got, want)
	}
	checkTables(t, doc)
	again, err := splice(doc, secs, figureOrder())
	if err != nil || again != doc {
		t.Errorf("splicing the same sections again changed the file (err %v):\n%s", err, firstDiff(doc, again))
	}
}

// TestBrokenFileFails: a missing marker, a section twice, a section
// without its rows: splice fails naming the figure, and writes nothing.
func TestBrokenFileFails(t *testing.T) {
	doc := readResults(t)
	spans, _ := sectionSpans(doc)
	sp := spans[len(spans)/2]
	id := sp.id
	text := doc[sp.start:sp.end]
	dropLine := func(line string) string { return strings.Replace(doc, line+"\n", "", 1) }
	cases := map[string]string{
		"no end marker":   dropLine(endMarker(id)),
		"no start marker": dropLine(startMarker(id)),
		"section twice":   doc + "\n" + text,
		"no summary row":  strings.Replace(doc, text, removeLines(text, summaryRowTag), 1),
		"two provenance rows": strings.Replace(doc, text,
			strings.Replace(text, provenanceRowTag, provenanceRowTag+"| x |"+rowEnd+"\n"+provenanceRowTag, 1), 1),
	}
	other := spans[0].id
	if other == id {
		other = spans[1].id
	}
	for name, broken := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := splice(broken, []section{rewritten(other)}, figureOrder())
			if err == nil {
				t.Fatalf("no error; wrote %d bytes", len(out))
			}
			if !strings.Contains(err.Error(), "figure "+id+":") {
				t.Errorf("error %q does not name figure %s", err, id)
			}
		})
	}
	t.Run("no summary table", func(t *testing.T) {
		if _, err := splice(strings.Replace(doc, "<!-- /summary -->\n", "", 1), []section{rewritten(other)}, figureOrder()); err == nil ||
			!strings.Contains(err.Error(), "<!-- /summary -->") {
			t.Errorf("error %v, want one naming the missing <!-- /summary --> line", err)
		}
	})
}

// removeLines drops the lines of text that start with prefix.
func removeLines(text, prefix string) string {
	var b strings.Builder
	for l := range strings.SplitAfterSeq(text, "\n") {
		if !strings.HasPrefix(l, prefix) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestGroups: every figure of the table is in exactly one group, and a
// group or figure that does not exist fails with the list to choose from.
func TestGroups(t *testing.T) {
	in := map[string][]string{}
	for _, g := range groups {
		for _, id := range g.figures {
			in[id] = append(in[id], g.name)
		}
	}
	for _, f := range figures {
		if len(in[f.id]) != 1 {
			t.Errorf("figure %s is in groups %v, want exactly one", f.id, in[f.id])
		}
	}
	for id, gs := range in {
		if len(gs) != 1 {
			t.Errorf("figure %s is in groups %v", id, gs)
		}
	}
	_, err := selectFigures("nosuch", "")
	if err == nil {
		t.Fatal("-group nosuch: no error")
	}
	for _, g := range groups {
		if !strings.Contains(err.Error(), g.name) {
			t.Errorf("-group nosuch: %q does not list group %s", err, g.name)
		}
	}
	if _, err := selectFigures("", "result,nosuch"); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("-only result,nosuch: error %v", err)
	}
	if _, err := selectFigures("wasm", "result"); err == nil {
		t.Error("-group wasm -only result: no error, but result is not in wasm")
	}
	ids, err := selectFigures("plugin", "")
	if err != nil || len(ids) != 6 || ids[0] != "plugin-kpi" {
		t.Errorf("-group plugin: %v, %v", ids, err)
	}
	ids, err = selectFigures("plugin,wasm", "")
	if err != nil || len(ids) != 7 || ids[0] != "wasm" || ids[1] != "plugin-kpi" {
		t.Errorf("-group plugin,wasm: %v, %v; want wasm and the six plugin figures in the table's order", ids, err)
	}
	if _, err := selectFigures("plugin,nosuch", ""); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("-group plugin,nosuch: error %v", err)
	}
	all, err := selectFigures("", "")
	if err != nil || !slices.Equal(all, figureOrder()) {
		t.Errorf("no -group, no -only: %v, %v", all, err)
	}
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return "at byte " + strconv.Itoa(i) + ":\n--- " + a[lo:min(len(a), i+80)] + "\n+++ " + b[lo:min(len(b), i+80)]
}
