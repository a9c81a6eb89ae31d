package eventrec

import (
	"regexp"
	"strconv"
	"testing"
)

// TestFlagsStringOracle checks Flags.String against every "flags 0x…
// (…)" that pminfo -x (pmEventFlagsStr) printed in the recorded runs and
// that PCP QA 1560 printed.
func TestFlagsStringOracle(t *testing.T) {
	re := regexp.MustCompile(`flags 0x([0-9a-f]+) \(([^)]*)\)`)
	seen := map[string]bool{}
	files := []string{"1560-result-event.out"}
	for i := range 6 {
		files = append(files, "live"+strconv.Itoa(i)+".pminfo-x.txt")
	}
	for _, f := range files {
		for _, m := range re.FindAllStringSubmatch(string(readTestdata(t, f)), -1) {
			v, err := strconv.ParseUint(m[1], 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			if got := Flags(v).String(); got != m[2] {
				t.Errorf("Flags(%#x) = %q, pmEventFlagsStr %q", v, got, m[2])
			}
			seen[m[2]] = true
		}
	}
	for _, want := range []string{"point", "start,id,parent", "end", "missed", "start,end"} {
		if !seen[want] {
			t.Errorf("oracle no longer shows %q", want)
		}
	}
}

// TestFlagsStringRules covers combinations the live PMDA never sends,
// following pmEventFlagsStr's rules: MISSED wins over everything, names
// in bit order, undefined bits silent, nothing set gives "".
func TestFlagsStringRules(t *testing.T) {
	for f, want := range map[Flags]string{
		0:                           "",
		FlagMissed | FlagPoint:      "missed",
		FlagPoint | FlagParent:      "point,parent",
		0x1f:                        "point,start,end,id,parent",
		0x100:                       "",
		FlagEnd | 0x40000000:        "end",
		FlagID | FlagStart | 0x1000: "start,id",
	} {
		if got := f.String(); got != want {
			t.Errorf("Flags(%#x) = %q, want %q", uint32(f), got, want)
		}
	}
}
