package archive

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pcp"
)

// oracleRecords returns the times of the data records pmdumplog printed
// for testdata/BASE, in order, and their metric counts.
func oracleRecords(t *testing.T, base string) (stamps []string, counts []string) {
	f, err := os.Open("testdata/" + base + ".pmdumplog-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) == 3 && !strings.HasPrefix(sc.Text(), " ") && (fl[2] == "metrics" || fl[2] == "metric") {
			stamps = append(stamps, fl[0])
			counts = append(counts, fl[1])
		}
	}
	return stamps, counts
}

func TestRecordsAsPmdumplog(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		a, err := load(t, base).open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		stamps, counts := oracleRecords(t, base)
		s := a.NewScanner()
		i := 0
		for ; s.Next(); i++ {
			r := s.Record()
			if i >= len(stamps) {
				t.Fatalf("%s: more records than pmdumplog's %d", base, len(stamps))
			}
			layout := "15:04:05.000000"
			if a.Label.Version == 3 {
				layout = "15:04:05.000000000"
			}
			if got := r.Time.Time().Format(layout); got != stamps[i] {
				t.Errorf("%s record %d: time %s, pmdumplog %s", base, i, got, stamps[i])
			}
			if got := r.Result.NumPMID; strings.TrimSpace(counts[i]) != strconv.Itoa(got) {
				t.Errorf("%s record %d: %d metrics, pmdumplog %s", base, i, got, counts[i])
			}
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		if i != len(stamps) || i < 30 {
			t.Errorf("%s: %d records, pmdumplog %d", base, i, len(stamps))
		}
		if got := a.Volumes(); len(got) != 3 {
			t.Errorf("%s: volumes %v, want 0, 1, 2", base, got)
		}
	}
}

// The label and the instance domain history agree with pmdumplog -a's.
func TestLabelAndInDoms(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		a, err := load(t, base).open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		oracle, _ := os.ReadFile("testdata/" + base + ".pmdumplog-a.txt")
		text := string(oracle)
		l := a.Label
		for _, want := range []string{
			"Log Label (Log Format Version " + strconv.Itoa(l.Version) + ")",
			"Performance metrics from host " + l.Hostname + "\n",
			"PID for pmlogger: " + strconv.Itoa(int(l.PID)) + "\n",
			"Archive timezone: " + l.TZ + "\n",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q not in pmdumplog's output", base, want)
			}
		}
		if l.Version == 3 && !strings.Contains(text, "Archive zoneinfo: "+l.Zoneinfo+"\n") {
			t.Errorf("%s: zoneinfo %q", base, l.Zoneinfo)
		}
		// sample.many.int's domain went 5 → 3 → 7 instances while
		// recording (pmstore sample.many.count; see testdata/README.md).
		var sizes []int
		for _, r := range a.Meta.InDomHistory(pcp.InDom(29<<22 | 8)) {
			sizes = append(sizes, len(r.Inst))
			if name, ok := r.Name(2); !ok || name != "i-2" {
				t.Errorf("%s: instance 2 of 29.8 at %v is %q", base, r.Time.Time(), name)
			}
		}
		if len(sizes) != 3 || sizes[0] != 5 || sizes[1] != 3 || sizes[2] != 7 {
			t.Errorf("%s: 29.8 history sizes %v, want [5 3 7]", base, sizes)
		}
		m, ok := a.Meta.Lookup("sample.many.int")
		if !ok || m.InDom != pcp.InDom(29<<22|8) || m.Type != pcp.Type32 {
			t.Errorf("%s: sample.many.int %+v", base, m)
		}
		help, _ := os.ReadFile("testdata/" + base + ".pmdumplog-h.txt")
		if h, ok := a.Meta.Text(TextPMID|TextOneLine, uint32(m.ID)); !ok || !strings.Contains(string(help), "PMID: 29.0.80 ["+h+"]\n") {
			t.Errorf("%s: one-line help of sample.many.int %q not pmdumplog's", base, h)
		}
	}
}
