package simple

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmda"
)

// exchange serves one scripted session and returns the agent's replies
// after its CREDS.
func exchange(t *testing.T, a *pmda.Agent, reqs ...pduwire.Message) []pduwire.PDU {
	t.Helper()
	in := (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1)
	for _, r := range reqs {
		in = r.Append(in, 0)
	}
	var out bytes.Buffer
	if err := a.Serve(context.Background(), bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var got []pduwire.PDU
	for p, err := range pduwire.All(out.Bytes(), pduwire.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Offset > 0 {
			got = append(got, p)
		}
	}
	return got
}

func code(t *testing.T, p pduwire.PDU) pcp.Code {
	t.Helper()
	var e pduwire.ErrorPDU
	if err := e.UnmarshalBinary(p.Bytes); err != nil {
		t.Fatalf("want ERROR, got %s", p.Header.Type)
	}
	return pcp.Code(e.Code)
}

func store(id pcp.ID, vals ...pduwire.ValueData) *pduwire.ResultPDU {
	return &pduwire.ResultPDU{Sets: []pduwire.ValueSetData{{PMID: id, ValFmt: pduwire.ValInsitu, Values: vals}}}
}

// The store rules of the C PMDA: colours clamped to 0…255 and answered
// PM_ERR_BADSTORE, unknown instances PM_ERR_INST, read-only metrics
// PM_ERR_PERMISSION.
func TestStore(t *testing.T) {
	a, err := New(Domain, filepath.Join(t.TempDir(), "none.conf"), "")
	if err != nil {
		t.Fatal(err)
	}
	color := pcp.NewID(Domain, 0, 1)
	got := exchange(t, a,
		store(color, pduwire.ValueData{Inst: 0, Word: 300}),
		store(color, pduwire.ValueData{Inst: 7, Word: 1}),
		store(pcp.NewID(Domain, 1, 2), pduwire.ValueData{Inst: pcp.InNull, Word: 1}),
		store(pcp.NewID(Domain, 0, 0), pduwire.ValueData{Inst: pcp.InNull, Word: 41}),
		&pduwire.ProfilePDU{},
		&pduwire.FetchPDU{PMIDs: []pcp.ID{pcp.NewID(Domain, 0, 0), color}},
	)
	for i, want := range []pcp.Code{pcp.ErrBadStore, pcp.ErrInst, pcp.ErrPermission, 0} {
		if c := code(t, got[i]); c != want {
			t.Errorf("store %d: %v, want %v", i, c, want)
		}
	}
	r, err := pduwire.ParseResult(got[4].Bytes)
	if err != nil {
		t.Fatal(err)
	}
	var words []uint32
	for vs := range r.ValueSets() {
		for v := range vs.Values() {
			words = append(words, v.Word)
		}
	}
	// numfetch 41 + this fetch; red clamped to 255 then incremented; green
	// and blue from their start values.
	if want := []uint32{42, 0, 101, 201}; len(words) != 4 || words[0] != want[0] || words[1] != want[1] || words[2] != want[2] || words[3] != want[3] {
		t.Errorf("values %v, want %v", words, want)
	}
}

// The "now" instance domain follows simple.conf, keeping each name's
// instance number when the file changes.
func TestNowInstances(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "simple.conf")
	os.WriteFile(conf, []byte("min,bogus,sec\n"), 0o644)
	a, err := New(Domain, conf, "")
	if err != nil {
		t.Fatal(err)
	}
	now := pcp.NewInDom(Domain, 1)
	names := func() map[int32]string {
		m := map[int32]string{}
		for _, x := range a.Instances(now) {
			m[x.ID] = x.Name
		}
		return m
	}
	if got := names(); len(got) != 2 || got[0] != "min" || got[1] != "sec" {
		t.Errorf("instances %v", got)
	}
	os.WriteFile(conf, []byte("hour,sec\n"), 0o644)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(conf, later, later)
	exchange(t, a, &pduwire.InstanceReqPDU{InDom: now, Inst: pcp.InNull})
	if got := names(); len(got) != 2 || got[1] != "sec" || got[2] != "hour" {
		t.Errorf("after the change %v", got)
	}
}
