package pmda_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmda"
)

// A PMDA with one counter and one metric over an instance domain, served
// to a scripted pmcd: its CREDS, a PROFILE and a FETCH. A real PMDA calls
// ServePipe instead, from the main function pmcd.conf names.
func ExampleNew() {
	var requests uint32
	a, err := pmda.New(pmda.Options{
		Domain: 245,
		Name:   "demo",
		Metrics: []pmda.Metric{
			{Name: "demo.requests", PMID: pcp.NewID(0, 0, 0), Type: pcp.TypeU32, Sem: pcp.SemCounter, InDom: pcp.InDomNull, OneLine: "fetches so far"},
			{Name: "demo.load", PMID: pcp.NewID(0, 0, 1), Type: pcp.TypeDouble, Sem: pcp.SemInstant, InDom: pcp.NewInDom(0, 0)},
		},
		InDoms: []pmda.InDom{{InDom: pcp.NewInDom(0, 0), Instances: []pmda.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}}}},
		Refresh: func(ctx context.Context, pmids []pcp.ID) error {
			requests++
			return nil
		},
		Fetch: func(ctx context.Context, m *pmda.Metric, inst int32, v *pmda.Value) error {
			switch m.PMID.Item() {
			case 0:
				v.SetUint32(requests)
			case 1:
				v.SetFloat64(0.25 * float64(inst))
			}
			return nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	// What pmcd sends.
	in := (&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0)}}).Append(nil, 1)
	in = (&pduwire.ProfilePDU{}).Append(in, 0)
	in = (&pduwire.FetchPDU{PMIDs: []pcp.ID{pcp.NewID(245, 0, 0), pcp.NewID(245, 0, 1), pcp.NewID(245, 9, 9)}}).Append(in, 0)
	var out bytes.Buffer
	if err := a.Serve(context.Background(), bytes.NewReader(in), &out); err != nil {
		log.Fatal(err)
	}

	// What the agent answered: its CREDS, then the RESULT.
	for p := range pduwire.All(out.Bytes(), pduwire.Options{}) {
		if p.Header.Type != pduwire.TypeResult {
			fmt.Println(p.Header.Type)
			continue
		}
		r, err := pduwire.ParseResult(p.Bytes)
		if err != nil {
			log.Fatal(err)
		}
		for vs := range r.ValueSets() {
			if vs.NumVal < 0 {
				fmt.Println(vs.PMID, pcp.Code(vs.NumVal).Name())
				continue
			}
			for v := range vs.Values() {
				if v.Block() {
					fmt.Println(vs.PMID, v.Inst, v.Float64())
				} else {
					fmt.Println(vs.PMID, v.Inst, v.Word)
				}
			}
		}
	}
	// Output:
	// CREDS
	// 245.0.0 -1 1
	// 245.0.1 1 0.25
	// 245.0.1 5 1.25
	// 245.9.9 PM_ERR_PMID
}

// ParseHelp reads a PMDA's help source file, as newhelp(1) does.
func ExampleParseHelp() {
	src := []byte(`# demo help
@ demo.requests Fetches so far
The number of FETCH requests
the agent has answered.

@ DEMO.0 Load averages
`)
	h := pmda.ParseHelp(src)
	fmt.Printf("%q\n%q\n", h["demo.requests"].Help, h["DEMO.0"].OneLine)
	// Output:
	// "The number of FETCH requests\nthe agent has answered."
	// "Load averages"
}
