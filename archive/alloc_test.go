package archive

import "testing"

// Reading records allocates nothing once the scanner's buffer has grown:
// the hot path of docs/api.md's allocation contract.
func TestScannerAllocs(t *testing.T) {
	a, err := load(t, "m3").open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := a.NewScanner()
	for s.Next() { // grow the buffer to the largest record
	}
	var sum int64
	allocs := testing.AllocsPerRun(20, func() {
		s.Rewind()
		for s.Next() {
			vs := s.Record().Result.Scan()
			for vs.Next() {
				v := vs.ValueSet()
				for j := range v.Len() {
					sum += int64(v.Value(j).Word)
				}
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%.0f allocations to read the archive again, want 0", allocs)
	}
	_ = sum
}
