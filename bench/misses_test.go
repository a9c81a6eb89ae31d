package main

import (
	"slices"
	"testing"
)

// TestMissesNameFigures: every misses entry belongs to a figure that
// bench runs, so no text explains a figure that no longer exists.
func TestMissesNameFigures(t *testing.T) {
	order := figureOrder()
	for id, text := range misses {
		if !slices.Contains(order, id) {
			t.Errorf("misses[%q]: no such figure (figures: %v)", id, order)
		}
		if text == "" {
			t.Errorf("misses[%q]: empty", id)
		}
	}
}
