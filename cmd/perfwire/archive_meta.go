package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// helpTexts prints the help texts (pmdumplog -h): metrics, then instance
// domains, each by increasing identifier, the one-line text before the
// long one.
func (d *dumper) helpTexts() {
	d.w.WriteString("\nMetric Help Text in the Log ...\n")
	for _, kind := range []uint32{archive.TextPMID, archive.TextInDom} {
		var ids []uint32
		for _, t := range d.a.Meta.Texts {
			if t.Type&kind != 0 {
				ids = append(ids, t.Ident)
			}
		}
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			name := "PMID: " + pcp.ID(id).String()
			if kind == archive.TextInDom {
				name = "InDom: " + pcp.InDom(id).String()
			}
			if t, ok := d.a.Meta.Text(kind|archive.TextOneLine, id); ok {
				d.w.WriteString(name + " [" + t + "]\n")
			}
			if t, ok := d.a.Meta.Text(kind|archive.TextHelp, id); ok {
				d.w.WriteString(name + "\n" + t + "\n")
			}
		}
	}
}

// labelOrder is the order pmdumplog -e prints label types in.
var labelOrder = []uint32{pduwire.LabelContext, pduwire.LabelDomain, pduwire.LabelCluster,
	pduwire.LabelItem, pduwire.LabelInDom, pduwire.LabelInstances}

// labelSets prints the label sets (pmdumplog -e): by time, then type,
// then increasing identifier, each set with its label index.
func (d *dumper) labelSets() {
	d.w.WriteString("\nMetric Labels in the Log ...\n")
	recs := d.a.Meta.Labels
	var times []archive.Timestamp
	for _, r := range recs {
		times = append(times, r.Time)
	}
	slices.SortFunc(times, func(a, b archive.Timestamp) int { return int(max(-1, min(1, a.Sub(b)))) })
	times = slices.Compact(times)
	for _, t := range times {
		d.w.WriteString(d.clock(t) + "\n")
		for _, typ := range labelOrder {
			var ids []uint32
			for _, r := range recs {
				if r.Type == typ && r.Time == t {
					ids = append(ids, r.Ident)
				}
			}
			if typ != pduwire.LabelContext {
				slices.Sort(ids)
				ids = slices.Compact(ids)
			} else if len(ids) > 0 {
				ids = ids[:1]
			}
			for _, id := range ids {
				// libpcp keeps each object's records newest first.
				for i := len(recs) - 1; i >= 0; i-- {
					if r := &recs[i]; r.Type == typ && r.Ident == id && r.Time == t {
						d.printLabelSets(r)
					}
				}
			}
		}
	}
}

// printLabelSets prints one record's sets as pmPrintLabelSets does.
func (d *dumper) printLabelSets(r *archive.LabelSets) {
	var who string
	switch r.Type {
	case pduwire.LabelDomain:
		who = fmt.Sprintf("Domain %d", r.Ident)
	case pduwire.LabelInDom, pduwire.LabelInstances:
		who = "InDom " + pcp.InDom(r.Ident).String()
	case pduwire.LabelCluster:
		id := pcp.ID(r.Ident).String()
		who = "Cluster " + id[:strings.LastIndexByte(id, '.')]
	case pduwire.LabelItem:
		who = "PMID " + pcp.ID(r.Ident).String()
	case pduwire.LabelContext:
		who = "Context"
	}
	for _, s := range r.Sets {
		if r.Type&pduwire.LabelInstances != 0 {
			fmt.Fprintf(d.w, "    %s[%d] labels (%d bytes): %s\n", who, uint32(s.Inst), len(s.JSON), s.JSON)
		} else {
			fmt.Fprintf(d.w, "    %s labels (%d bytes): %s\n", who, len(s.JSON), s.JSON)
		}
		for i, l := range s.Labels {
			fmt.Fprintf(d.w, "        [%d] name(%d,%d) : value(%d,%d) [%s]\n", i, l.Name, l.NameLen,
				l.Value, l.ValueLen, labelFlagText(l.Flags))
		}
	}
}

// labelFlagText is libpcp's name of a label's flags: its level, then
// ",compound" and ",optional".
func labelFlagText(f uint8) string {
	var s string
	switch f &^ 0xc0 {
	case pduwire.LabelContext:
		s = "context"
	case pduwire.LabelDomain:
		s = "domain"
	case pduwire.LabelInDom:
		s = "indom"
	case pduwire.LabelCluster:
		s = "cluster"
	case pduwire.LabelItem:
		s = "pmid"
	case pduwire.LabelInstances:
		s = "instances"
	default:
		s = "?"
	}
	if f&0x40 != 0 {
		s += ",compound"
	}
	if f&0x80 != 0 {
		s += ",optional"
	}
	return s
}
