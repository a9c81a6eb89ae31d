package mmv_test

import (
	"errors"
	"os"
	"testing"

	"github.com/perfwire/perfwire/mmv"
)

// PCP's QA file large-parfait has one metric pmdammv refuses (item 1024).
// Strictly read, the file is an error that names the entry, the value and
// the limit; read as pmdammv serves it, that one metric and its values
// are left out with the same error as the reason, and the other 421 stay.
func TestSkipRefusedLargeParfait(t *testing.T) {
	b, err := os.ReadFile("testdata/qa/large-parfait")
	if err != nil {
		t.Fatal(err)
	}
	_, err = mmv.Parse(b, mmv.Options{})
	if !errors.Is(err, mmv.ErrRange) || err.Error() != "mmv: metrics[253].item: value out of range (value 1024, limit 1023) at offset 61248" {
		t.Fatalf("strict: %v", err)
	}
	r, err := mmv.Parse(b, mmv.Options{SkipRefused: true})
	if err != nil {
		t.Fatal(err)
	}
	sk := r.Skips()
	if len(sk) != 1 || sk[0].Metric != 253 || !errors.Is(sk[0].Err, mmv.ErrRange) ||
		string(r.Metric(253).Name) != "spacex.packages.request.circuitbreaker.fallback" || !r.Refused(253) {
		t.Fatalf("skips %+v", sk)
	}
	n := 0
	for m := range r.Metrics() {
		if m.Index == 253 {
			t.Error("Metrics yields the refused metric")
		}
		n++
	}
	if n != r.NumMetrics()-1 || n != 422 {
		t.Errorf("%d metrics of %d", n, r.NumMetrics())
	}
	// pmdammv also drops ...entity_changes.doc.content: ...entity_changes.doc,
	// earlier in the file, is a leaf. Assign says so; 421 metrics remain.
	_, warnings := mmv.Assign([]mmv.Source{{Name: "large-parfait", File: &r}})
	var drops []string
	for _, w := range warnings {
		if w.Kind.Drops() {
			drops = append(drops, string(r.Metric(w.Metric).Name))
		}
	}
	if len(drops) != 1 || drops[0] != "spacex.indexer.entity_changes.doc.content" {
		t.Errorf("Assign drops %q", drops)
	}
	for v := range r.Values() {
		if v.Metric == 253 {
			t.Error("Values yields a value of the refused metric")
		}
	}
}
