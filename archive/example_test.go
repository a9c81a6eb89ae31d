package archive_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
)

// Print the instances and values of one metric from an archive that
// pmlogger recorded.
func Example() {
	a, err := archive.OpenFS(os.DirFS("testdata"), "m3", archive.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	m, _ := a.Meta.Lookup("sample.many.int")
	s := a.NewScanner()
	for n := 0; s.Next() && n < 2; {
		r := s.Record()
		vss := r.Result.Scan()
		for vss.Next() {
			vs := vss.ValueSet()
			if vs.PMID != m.ID {
				continue
			}
			n++
			in, _ := a.Meta.InDomAt(m.InDom, r.Time)
			fmt.Print(r.Time.Time().Format("15:04:05.000"))
			for j := range vs.Len() {
				v := vs.Value(j)
				name, _ := in.Name(v.Inst)
				x, _ := pcp.Extract(v.Raw(), m.Type, m.Type)
				fmt.Printf(" %s=%d", name, x.Int32())
			}
			fmt.Println()
		}
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 06:19:15.505 i-0=0 i-1=1 i-2=2 i-3=3 i-4=4
	// 06:19:15.552 i-0=0 i-1=1 i-2=2 i-3=3 i-4=4
}

// Read the temporal index: where each volume's data starts.
func ExampleArchive_Index() {
	a, err := archive.OpenFS(os.DirFS("testdata"), "m2", archive.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	entries, err := a.Index()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries[:2] {
		fmt.Println(e.Time.Time().Format("15:04:05.000000"), e.Vol, e.MetaOffset, e.DataOffset)
	}
	// Output:
	// 06:30:58.274011 0 132 132
	// 06:30:58.293995 0 450 300
}
