package main

import (
	"fmt"
	"strings"
)

// RESULTS.md is generated in pieces that a run of some figures can
// replace without touching the rest. Each figure's section lies between
// the lines <!-- figure:ID --> and <!-- /figure:ID --> and carries two
// hidden rows, its Summary row and its provenance row; the Summary and
// Provenance tables (between <!-- summary --> / <!-- /summary --> and
// <!-- provenance --> / <!-- /provenance -->) are rebuilt from the
// sections the file holds, in their order, so they are always derivable
// from the file itself.
const (
	summaryRowTag    = "<!-- summary-row: "
	provenanceRowTag = "<!-- provenance-row: "
	rowEnd           = " -->"
)

// section is one figure's part of the file, from its start marker line
// to its end marker line's newline.
type section struct{ id, text string }

func startMarker(id string) string { return "<!-- figure:" + id + " -->" }
func endMarker(id string) string   { return "<!-- /figure:" + id + " -->" }

// span is where a section lies in a document: doc[start:end].
type span struct {
	id         string
	start, end int
}

// sectionSpans finds every figure section of doc in order. A start
// marker without its end, an end without its start, a section inside
// another or a figure with two sections is an error naming the figure.
func sectionSpans(doc string) ([]span, error) {
	var spans []span
	seen := map[string]bool{}
	open := -1 // index in spans of the section being read
	for off := 0; off < len(doc); {
		line, next := lineAt(doc, off)
		if id, ok := markerID(line, "<!-- figure:"); ok {
			if open >= 0 {
				return nil, fmt.Errorf("figure %s: no end marker %s before figure %s's section starts",
					spans[open].id, endMarker(spans[open].id), id)
			}
			if seen[id] {
				return nil, fmt.Errorf("figure %s: two sections in the file", id)
			}
			seen[id] = true
			spans = append(spans, span{id: id, start: off})
			open = len(spans) - 1
		} else if id, ok := markerID(line, "<!-- /figure:"); ok {
			if open < 0 || spans[open].id != id {
				return nil, fmt.Errorf("figure %s: end marker %s without its start marker %s", id, endMarker(id), startMarker(id))
			}
			spans[open].end = next
			open = -1
		}
		off = next
	}
	if open >= 0 {
		return nil, fmt.Errorf("figure %s: no end marker %s", spans[open].id, endMarker(spans[open].id))
	}
	return spans, nil
}

// lineAt returns the line at off (without its newline) and the offset
// of the next line.
func lineAt(doc string, off int) (string, int) {
	n := strings.IndexByte(doc[off:], '\n')
	if n < 0 {
		return doc[off:], len(doc)
	}
	return doc[off : off+n], off + n + 1
}

// markerID returns ID when line is exactly prefix + ID + " -->".
func markerID(line, prefix string) (string, bool) {
	id, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, " -->")
	return id, ok && id != "" && !strings.ContainsAny(id, " <>")
}

// splice puts secs into doc: each replaces the section of its figure
// byte for byte, or, when doc has none, goes after the nearest section
// of a figure before it in order (the figures table's ids), else before
// the first section, else at the end. Then the Summary and Provenance
// tables are rebuilt.
func splice(doc string, secs []section, order []string) (string, error) {
	for _, s := range secs {
		spans, err := sectionSpans(doc)
		if err != nil {
			return "", err
		}
		if err := checkSection(s); err != nil {
			return "", err
		}
		if i := indexSpan(spans, s.id); i >= 0 {
			doc = doc[:spans[i].start] + s.text + doc[spans[i].end:]
			continue
		}
		doc = insertSection(doc, spans, s, order)
	}
	return rebuildTables(doc)
}

func indexSpan(spans []span, id string) int {
	for i, sp := range spans {
		if sp.id == id {
			return i
		}
	}
	return -1
}

// insertSection places a section its document does not have yet.
func insertSection(doc string, spans []span, s section, order []string) string {
	rank := func(id string) int {
		for i, o := range order {
			if o == id {
				return i
			}
		}
		return len(order)
	}
	after := -1
	for i, sp := range spans {
		if rank(sp.id) < rank(s.id) {
			after = i
		}
	}
	switch {
	case after >= 0:
		at := spans[after].end
		return doc[:at] + "\n" + s.text + doc[at:]
	case len(spans) > 0:
		at := spans[0].start
		return doc[:at] + s.text + "\n" + doc[at:]
	}
	if !strings.HasSuffix(doc, "\n\n") {
		doc += "\n"
	}
	return doc + s.text
}

// checkSection makes sure a section the harness wrote is one the file
// can hold: its markers first and last, nothing that reads as a marker
// inside.
func checkSection(s section) error {
	spans, err := sectionSpans(s.text)
	if err != nil {
		return err
	}
	if len(spans) != 1 || spans[0].id != s.id || spans[0].start != 0 || spans[0].end != len(s.text) {
		return fmt.Errorf("figure %s: its section is not one marked section", s.id)
	}
	_, err = hiddenRows(s.id, s.text)
	return err
}

// hiddenRows returns a section's Summary row and provenance row.
func hiddenRows(id, text string) ([2]string, error) {
	var rows [2]string
	for i, tag := range []string{summaryRowTag, provenanceRowTag} {
		n := 0
		for off := 0; off < len(text); {
			line, next := lineAt(text, off)
			if row, ok := strings.CutPrefix(line, tag); ok {
				row, ok = strings.CutSuffix(row, rowEnd)
				if !ok {
					return rows, fmt.Errorf("figure %s: %s...%s row not closed on its line", id, tag, rowEnd)
				}
				rows[i] = row
				n++
			}
			off = next
		}
		if n != 1 {
			return rows, fmt.Errorf("figure %s: %d %s...%s rows in its section, want 1", id, n, tag, rowEnd)
		}
	}
	return rows, nil
}

// rebuildTables rewrites the Summary and Provenance tables from the
// hidden rows of the sections doc holds, in their order.
func rebuildTables(doc string) (string, error) {
	spans, err := sectionSpans(doc)
	if err != nil {
		return "", err
	}
	var summary, prov strings.Builder
	summary.WriteString(summaryHeader)
	prov.WriteString(provenanceHeader)
	for _, sp := range spans {
		rows, err := hiddenRows(sp.id, doc[sp.start:sp.end])
		if err != nil {
			return "", err
		}
		summary.WriteString(rows[0] + "\n")
		prov.WriteString(rows[1] + "\n")
	}
	doc, err = replaceBetween(doc, "<!-- summary -->", "<!-- /summary -->", summary.String())
	if err != nil {
		return "", err
	}
	return replaceBetween(doc, "<!-- provenance -->", "<!-- /provenance -->", prov.String())
}

const (
	summaryHeader    = "| figure | goal | perfwire vs peer (median ratio) | met |\n|---|---|---|---|\n"
	provenanceHeader = "| figure | group | commit | date (UTC) | took | command | host kernel | CPU |\n|---|---|---|---|---|---|---|---|\n"
)

// replaceBetween replaces what lies between the lines start and end,
// each of which must be in doc exactly once, outside every section.
func replaceBetween(doc, start, end, body string) (string, error) {
	var at [2]int
	for i, m := range []string{start, end} {
		n := 0
		for off := 0; off < len(doc); {
			line, next := lineAt(doc, off)
			if line == m {
				at[i] = off
				if i == 0 {
					at[i] = next
				}
				n++
			}
			off = next
		}
		if n != 1 {
			return "", fmt.Errorf("%d %s lines in the file, want 1", n, m)
		}
	}
	if at[1] < at[0] {
		return "", fmt.Errorf("%s comes after %s", end, start)
	}
	return doc[:at[0]] + body + doc[at[1]:], nil
}

// tableRow is a Markdown table row of cells, one line, with no | or
// marker end inside a cell.
func tableRow(cells ...string) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cells {
		c = strings.NewReplacer("\n", " ", "|", "\\|", "-->", "->").Replace(c)
		b.WriteString(" " + c + " |")
	}
	return b.String()
}
