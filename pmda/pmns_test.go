package pmda

import (
	"context"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// testNS is a dynamic namespace of two leaves below test.dyn.
type testNS struct{}

var dynNames = map[string]pcp.ID{"test.dyn.a": idCount, "test.dyn.b": idTime}

func (testNS) PMID(ctx context.Context, name string) (pcp.ID, error) {
	if id, ok := dynNames[name]; ok {
		return id, nil
	}
	return 0, pcp.ErrName
}

func (testNS) Names(ctx context.Context, id pcp.ID) ([]string, error) {
	for n, x := range dynNames {
		if x == id {
			return []string{n}, nil
		}
	}
	return nil, pcp.ErrPMID
}

func (testNS) Children(ctx context.Context, name string, traverse bool) ([]string, []bool, error) {
	switch {
	case name == "test.dyn" && traverse:
		return []string{"test.dyn.a", "test.dyn.b"}, nil, nil
	case name == "test.dyn":
		return []string{"a", "b"}, []bool{true, true}, nil
	case name == "test":
		return []string{"dyn"}, []bool{false}, nil
	}
	return nil, nil, pcp.ErrName
}

func TestDynamicNamespace(t *testing.T) {
	f := startAgent(t, testAgent(t, func(o *Options) { o.Namespace = testNS{} }))
	var ids pduwire.PMNSIDsPDU
	f.send(&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("test.dyn.b")}}, 0)
	f.recvInto(&ids)
	if len(ids.PMIDs) != 1 || ids.PMIDs[0] != idTime || ids.Status != 0 {
		t.Errorf("name lookup %+v", ids)
	}
	f.send(&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("test.nope")}}, 0)
	if c := f.recvError(); c != pcp.ErrName {
		t.Errorf("unknown name: %v", c)
	}
	var names pduwire.PMNSNamesPDU
	f.send(&pduwire.PMNSIDsPDU{PMIDs: []pcp.ID{idCount}}, 0)
	f.recvInto(&names)
	if len(names.Names) != 1 || string(names.Names[0]) != "test.dyn.a" {
		t.Errorf("names of a pmID %q", names.Names)
	}
	f.send(&pduwire.PMNSChildPDU{Subtype: 1, Name: []byte("test")}, 0)
	f.recvInto(&names)
	if len(names.Names) != 1 || string(names.Names[0]) != "dyn" || len(names.Statuses) != 1 || names.Statuses[0] != 1 {
		t.Errorf("children with status %q %v", names.Names, names.Statuses)
	}
	f.send(&pduwire.PMNSChildPDU{Traverse: true, Name: []byte("test.dyn")}, 0)
	f.recvInto(&names)
	if got := joinNames(names.Names); got != "test.dyn.a test.dyn.b" || names.Statuses != nil {
		t.Errorf("traverse %q %v", got, names.Statuses)
	}
}

func joinNames(n [][]byte) string {
	s := make([]string, len(n))
	for i, b := range n {
		s[i] = string(b)
	}
	return strings.Join(s, " ")
}

func TestAppendPMNS(t *testing.T) {
	a := testAgent(t, func(o *Options) {
		o.Metrics = append(o.Metrics, Metric{Name: "test.sub.leaf", PMID: pcp.NewID(0, 4, 1), Type: pcp.TypeU32, InDom: pcp.InDomNull})
	})
	got := string(a.AppendPMNS(nil))
	want := "test {\n\tcount\t253:0:0\n\tcolour\t253:0:1\n\ttime\t253:1:2\n\tname\t253:1:3\n\tevents\t253:2:0\n\tpanic\t253:3:0\n\tsleep\t253:3:1\n\tsub\n}\n\ntest.sub {\n\tleaf\t253:4:1\n}\n"
	if got != want {
		t.Errorf("pmns\n%s\nwant\n%s", got, want)
	}
}

func TestParseHelp(t *testing.T) {
	h := ParseHelp([]byte("# c\n@ a.b One line\n\nLong\ntext.\n\n@ X.1 Indom\n"))
	if h["a.b"] != (HelpText{"One line", "Long\ntext."}) || h["X.1"] != (HelpText{"Indom", ""}) || len(h) != 2 {
		t.Errorf("%+v", h)
	}
}
