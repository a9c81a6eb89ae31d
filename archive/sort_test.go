package archive

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortStable orders indexes as slices.SortStableFunc does, equal keys
// included, for every length up to 70 and random keys with many ties.
func TestSortStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		for range 20 {
			keys := make([]int, n)
			for i := range keys {
				keys[i] = r.IntN(max(n/3, 1))
			}
			by := func(a, b int) int { return cmp.Compare(keys[a], keys[b]) }
			got, want := r.Perm(n), []int(nil)
			want = append(want, got...)
			sortStable(got, by)
			slices.SortStableFunc(want, by)
			if !slices.Equal(got, want) {
				t.Fatalf("keys %v: got %v, want %v", keys, got, want)
			}
		}
	}
}
