package main

import (
	"strings"
	"testing"
)

// TestSizeBudgets builds every module `make wasm` ships and fails when
// one breaks its budget over the runtime+msgp baseline.
func TestSizeBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ten modules")
	}
	var out strings.Builder
	broken, err := run("../..", t.TempDir(), &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, b := range broken {
		t.Error(b)
	}
}
