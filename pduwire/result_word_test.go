package pduwire_test

import (
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestValueSetWord: Word gives every value's instance and word as Value
// does, for insitu values and blocks (the 1,000-value RESULT has both).
func TestValueSetWord(t *testing.T) {
	pdu := readFile(t, "testdata/bench/result-1000.bin")
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		t.Fatal(err)
	}
	fmts := map[uint8]int{}
	for vs := range r.ValueSets() {
		for i := range vs.Len() {
			inst, w := vs.Word(i)
			if v := vs.Value(i); inst != v.Inst || w != v.Word {
				t.Fatalf("%v value %d: Word gives (%d, %d), Value (%d, %d)", vs.PMID, i, inst, w, v.Inst, v.Word)
			}
			fmts[vs.ValFmt]++
		}
	}
	if fmts[pduwire.ValInsitu] == 0 || fmts[pduwire.ValDPTR] == 0 {
		t.Errorf("values by format %v: want insitu values and blocks", fmts)
	}
}
