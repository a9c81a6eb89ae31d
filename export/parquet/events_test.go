package parquet

import (
	"encoding/hex"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	dumpEvents   = regexp.MustCompile(`^    (\d+\.\d+\.\d+) \([^)\[]*(?:\[(-?\d+) or [^\]]*\])?\): (?:\d+|No)`)
	dumpEventRec = regexp.MustCompile(`^        --- event record \[(\d+)\] timestamp (\d\d:\d\d:\d\d\.\d+)(?: flags (0x[0-9a-f]+) \([^)]*\))? ---$`)
	dumpMissed   = regexp.MustCompile(`^        ==> (\d+) missed event records$`)
	dumpParam    = regexp.MustCompile(`^        (\d+\.\d+\.\d+) \([^)]*\): value (.*)$`)
)

// clockNS is the nanoseconds since midnight of a pmdumplog clock.
func clockNS(t *testing.T, s string) int64 {
	hms, frac, _ := strings.Cut(s, ".")
	tm, err := time.Parse("15:04:05", hms)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	return int64(tm.Hour()*3600+tm.Minute()*60+tm.Second())*1e9 + f
}

// TestEventsEqualPmdumplog: every event record pmdumplog -a prints (its
// array's metric and instance, its number, time, flags, missed count and
// each parameter's value) is a pcp_events row, and there is no other.
func TestEventsEqualPmdumplog(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		t.Run(base, func(t *testing.T) {
			text, err := os.ReadFile("testdata/" + base + ".pmdumplog-a.txt")
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			clock, head, rec := "", "", ""
			params := 0
			flush := func() {
				if rec != "" && params == 0 {
					want = append(want, rec+" -")
				}
				rec, params = "", 0
			}
			for _, line := range strings.Split(string(text), "\n") {
				if m := dumpRecord.FindStringSubmatch(line); m != nil {
					flush()
					clock, head = strconv.FormatInt(clockNS(t, m[1]), 10), ""
					continue
				}
				if clock == "" {
					continue
				}
				if m := dumpEvents.FindStringSubmatch(line); m != nil && strings.Contains(line, "event record") {
					flush()
					inst := m[2]
					if inst == "" {
						inst = "-"
					}
					head = clock + " " + m[1] + " " + inst
					continue
				}
				if m := dumpEventRec.FindStringSubmatch(line); m != nil && head != "" {
					flush()
					flags := m[3]
					if flags == "" {
						flags = "0x0"
					}
					rec = head + " " + m[1] + " " + strconv.FormatInt(clockNS(t, m[2]), 10) + " " + flags
					continue
				}
				if m := dumpMissed.FindStringSubmatch(line); m != nil && rec != "" {
					want = append(want, rec+" missed "+m[1])
					rec = ""
					continue
				}
				if m := dumpParam.FindStringSubmatch(line); m != nil && rec != "" {
					v := m[2]
					if i := strings.LastIndex(v, " ["); i >= 0 && strings.HasSuffix(v, "]") {
						v = v[i+1:] // an aggregate: its bytes in hex
					}
					want = append(want, rec+" "+m[1]+" "+v)
					params++
					continue
				}
				if !strings.HasPrefix(line, "        ") && !strings.HasPrefix(line, "\t") {
					flush()
					if !strings.HasPrefix(line, "    ") {
						head = ""
					}
				}
			}
			flush()
			rows := readTable[PCPEvent](t, exportArchive(t, base, Options{Tables: []string{TablePCPEvents}}), TablePCPEvents)
			var got []string
			for i := range rows {
				r := &rows[i]
				inst := "-"
				if r.Inst != nil {
					inst = strconv.Itoa(int(*r.Inst))
				}
				day := func(ns int64) string { return strconv.FormatInt((ns%(86400*1e9)+86400*1e9)%(86400*1e9), 10) }
				s := day(r.Timestamp) + " " + r.PMID + " " + inst + " " + strconv.Itoa(int(r.Record)) + " " + day(r.EventTime) +
					" 0x" + strconv.FormatUint(uint64(uint32(r.Flags)), 16)
				switch {
				case r.Missed != nil:
					s += " missed " + strconv.FormatInt(*r.Missed, 10)
				case r.ParamPMID == nil:
					s += " -"
				default:
					v := PCPValue{Int64: r.Int64, Uint64: r.Uint64, Double: r.Double, String: r.String, Type: "DOUBLE"}
					if r.Aggregate != nil {
						s += " " + *r.ParamPMID + " [" + hex.EncodeToString(r.Aggregate) + "]"
					} else {
						s += " " + *r.ParamPMID + " " + paramText(&v)
					}
				}
				got = append(got, s)
			}
			// pmdumplog's value texts, for the comparison.
			for i, w := range want {
				if f := strings.Fields(w); len(f) == 8 && strings.Contains(f[6], ".") {
					want[i] = strings.Join(f[:7], " ") + " " + normalValue(f[7])
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if len(want) < 20 {
				t.Fatalf("only %d event rows in pmdumplog's output", len(want))
			}
			if !slices.Equal(got, want) {
				for _, w := range want {
					if !slices.Contains(got, w) {
						t.Errorf("pmdumplog %q: no row", w)
					}
				}
				for _, g := range got {
					if !slices.Contains(want, g) {
						t.Errorf("row %q: not in pmdumplog", g)
					}
				}
			}
		})
	}
}

// paramText is a parameter's value as this test compares it: integers and
// quoted strings as pmdumplog prints them, doubles through normalValue.
func paramText(v *PCPValue) string {
	switch {
	case v.Int64 != nil:
		return strconv.FormatInt(*v.Int64, 10)
	case v.Uint64 != nil:
		return strconv.FormatUint(*v.Uint64, 10)
	case v.String != nil:
		return `"` + *v.String + `"`
	case v.Double != nil:
		return normalValue(strconv.FormatFloat(*v.Double, 'g', 16, 64))
	}
	return "?"
}

// normalValue rounds a number's text to 8 significant digits (pmdumplog
// prints floats with 8 and doubles with 16), leaving other texts alone.
func normalValue(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.HasPrefix(s, `"`) {
		return s
	}
	return strconv.FormatFloat(f, 'g', 8, 64)
}
