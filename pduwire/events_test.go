package pduwire_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// Value.Events decodes the event arrays of conv05's HIGHRES_RESULT in
// place; the record counts are those pminfo printed for the same bytes.
func TestValueEventsMatchPminfo(t *testing.T) {
	stream, err := os.ReadFile("testdata/captures/conv05.server.bin")
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := os.ReadFile("testdata/captures/conv05.out.txt")
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, m := range regexp.MustCompile(`value \[(\d+) event records?`).FindAllSubmatch(oracle, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		want = append(want, n)
	}
	var got []int
	s := pduwire.NewScanner(stream, pduwire.Options{})
	for s.Next() {
		if s.PDU().Header.Type != pduwire.TypeHighResResult {
			continue
		}
		r, err := pduwire.ParseResult(s.PDU().Bytes)
		if err != nil {
			t.Fatal(err)
		}
		for vs := range r.ValueSets() {
			for v := range vs.Values() {
				a, err := v.Events()
				if err != nil {
					t.Fatalf("%s inst %d: %v", vs.PMID, v.Inst, err)
				}
				got = append(got, a.Len())
				if n := testing.AllocsPerRun(10, func() { v.Events() }); n != 0 {
					t.Errorf("Events allocates %v times", n)
				}
			}
			if _, err := vs.Value(0).Events(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(got) != 4 || len(want) != 4 {
		t.Fatalf("decoded %v arrays, pminfo shows %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("array %d: %d records, pminfo %d", i, got[i], want[i])
		}
	}
	insitu := pduwire.Value{Word: 7}
	if _, err := insitu.Events(); err == nil {
		t.Error("Events on an insitu value succeeded")
	}
}
