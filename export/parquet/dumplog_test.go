package parquet

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dumpValue is one value as pmdumplog -a prints it: the record's clock,
// the metric's pmID, the instance (-1 for a singular metric) and the
// value's text.
type dumpValue struct {
	clock string
	pmid  string
	inst  int32
	name  string // the instance's name, "" for ??? or none
	value string
}

var (
	dumpRecord = regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+) \d+ metrics?$`)
	dumpOne    = regexp.MustCompile(`^    (\d+\.\d+\.\d+) \([^)]*\): (?:inst \[(-?\d+) or (?:"(.*)"|\?\?\?)\] )?value (.*)$`)
	dumpMany   = regexp.MustCompile(`^    (\d+\.\d+\.\d+) \([^)]*\):$`)
	dumpInst   = regexp.MustCompile(`^        inst \[(-?\d+) or (?:"(.*)"|\?\?\?)\] value (.*)$`)
	dumpDesc   = regexp.MustCompile(`^PMID: (\d+\.\d+\.\d+) `)
	dumpType   = regexp.MustCompile(`^    Data Type: (.*?)  InDom`)
)

// parseDumplog returns the values of pmdumplog -a's output and each
// metric's type as its descriptor section names it.
func parseDumplog(t *testing.T, text string) ([]dumpValue, map[string]string) {
	t.Helper()
	var out []dumpValue
	types := map[string]string{}
	clock, many, desc := "", "", ""
	for _, line := range strings.Split(text, "\n") {
		if m := dumpDesc.FindStringSubmatch(line); m != nil {
			desc = m[1]
			continue
		}
		if m := dumpType.FindStringSubmatch(line); m != nil && desc != "" {
			types[desc] = m[1]
			desc = ""
			continue
		}
		if m := dumpRecord.FindStringSubmatch(line); m != nil {
			clock, many = m[1], ""
			continue
		}
		if clock == "" {
			continue
		}
		if m := dumpOne.FindStringSubmatch(line); m != nil {
			v := dumpValue{clock: clock, pmid: m[1], inst: -1, name: m[3], value: m[4]}
			if m[2] != "" {
				v.inst = atoi32(t, m[2])
			}
			out = append(out, v)
			many = ""
			continue
		}
		if m := dumpMany.FindStringSubmatch(line); m != nil {
			many = m[1]
			continue
		}
		if m := dumpInst.FindStringSubmatch(line); m != nil && many != "" {
			out = append(out, dumpValue{clock: clock, pmid: many, inst: atoi32(t, m[1]), name: m[2], value: m[3]})
			continue
		}
		if !strings.HasPrefix(line, "        ") {
			many = ""
		}
	}
	return out, types
}

func atoi32(t *testing.T, s string) int32 {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		t.Fatalf("pmdumplog instance %q: %v", s, err)
	}
	return int32(n)
}

// exported reports whether the export writes values of a metric of the
// type pmdumplog names: event records go elsewhere, aggregates nowhere.
func exported(typ string) bool {
	return !strings.Contains(typ, "aggregate") && !strings.Contains(typ, "event")
}

// sameDumpValue reports whether a pcp_values row holds the value
// pmdumplog printed as text: integers and strings exactly, floats to the
// digits pmdumplog prints (%.8g for float, %.16g for double).
func sameDumpValue(r *PCPValue, text string) bool {
	switch {
	case r.Int64 != nil:
		return strconv.FormatInt(*r.Int64, 10) == text
	case r.Uint64 != nil:
		return strconv.FormatUint(*r.Uint64, 10) == text
	case r.String != nil:
		return strconv.Quote(*r.String) == text || `"`+*r.String+`"` == text
	case r.Double != nil:
		want, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return false
		}
		prec := 16
		if r.Type == "FLOAT" {
			prec = 8
		}
		got, _ := strconv.ParseFloat(strconv.FormatFloat(*r.Double, 'g', prec, 64), 64)
		return got == want
	}
	return false
}
