package labels

import (
	"strconv"
	"testing"
)

// TestMergeEmptyValueIsNull: a trusted index may give a label an empty
// value span; the merged text writes it as null (docs/pcp-labels.md §4.1) so that the
// output stays JSON.
func TestMergeEmptyValueIsNull(t *testing.T) {
	var s, m Set
	json := []byte(`{"a":,"b":1}`)
	index := AppendLabel(nil, Label{NameOff: 2, NameLen: 1, ValueOff: 5, ValueLen: 0, Flags: Item})
	index = AppendLabel(index, Label{NameOff: 7, NameLen: 1, ValueOff: 10, ValueLen: 1, Flags: Item})
	if err := s.DecodeWire(json, index, VerifyBounds); err != nil {
		t.Fatal(err)
	}
	if err := Merge(&m, []*Set{&s}, nil); err != nil || string(m.JSON) != `{"a":null,"b":1}` {
		t.Errorf("Merge = %s, %v", m.JSON, err)
	}
}

// TestMergeFilterOncePerLabel: our merge calls the filter once for each
// label it is about to write, whatever the number of levels.
func TestMergeFilterOncePerLabel(t *testing.T) {
	sets := mergeLevels(t)
	calls := map[string]int{}
	var m Set
	if err := Merge(&m, sets, func(p Pair) bool { calls[string(p.Name)]++; return true }); err != nil {
		t.Fatal(err)
	}
	if len(calls) != m.Len() {
		t.Errorf("filter saw %d names, result has %d labels", len(calls), m.Len())
	}
	for n, c := range calls {
		if c != 1 {
			t.Errorf("filter called %d times for %s", c, n)
		}
	}
}

// TestMergeManyLevels: more sets than Merge's on-stack cursor array, the
// last set winning every name.
func TestMergeManyLevels(t *testing.T) {
	var sets []*Set
	for i := 0; i < 20; i++ {
		sets = append(sets, mustParse(t, `{"n":`+strconv.Itoa(i)+`,"k`+strconv.Itoa(i)+`":true}`, Options{}))
	}
	var m Set
	if err := Merge(&m, sets, nil); err != nil {
		t.Fatal(err)
	}
	if p, ok := m.Lookup("n"); !ok || string(p.Value) != "19" || m.Len() != 21 {
		t.Errorf("merge of 20 levels: %s", m.JSON)
	}
}
