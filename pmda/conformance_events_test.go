//go:build conformance

package pmda_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pmda"
)

// TestConformanceEvents serves, from a Go agent in the real pmcd, the event
// records the C sample PMDA produced in one fetch (recorded by pmlogger),
// rebuilt record by record through Value.Events, and checks that pminfo -x
// prints for the Go metric exactly what it prints for the C one from the
// archive (which holds the parameters' descriptors because pmlogger logs
// them too). The parameters keep the sample PMDA's pmIDs, so pminfo names
// them from pmcd's namespace as it does for the C PMDA.
func TestConformanceEvents(t *testing.T) {
	lockPMCD(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "cfg"), []byte("log mandatory on 1 sec {\n\tsample.event.records\n\tsample.event.type\n\tsample.event.param_32\n\tsample.event.param_u32\n\tsample.event.param_64\n\tsample.event.param_u64\n\tsample.event.param_float\n\tsample.event.param_double\n\tsample.event.param_string\n\tsample.event.param_aggregate\n}\n"), 0o644)
	if out, err := exec.Command("pmlogger", "-c", filepath.Join(dir, "cfg"), "-s", "1", "-l", filepath.Join(dir, "log"), filepath.Join(dir, "a")).CombinedOutput(); err != nil {
		t.Fatalf("pmlogger: %v\n%s", err, out)
	}
	want := run(t, "pminfo", "-a", filepath.Join(dir, "a"), "-x", "sample.event.records")

	arrays := map[int32][]byte{}
	ar, err := archive.OpenFS(os.DirFS(dir), "a", archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	s := ar.NewScanner()
	for s.Next() && len(arrays) == 0 {
		r := s.Record().Result
		for vs := range r.ValueSets() {
			for v := range vs.Values() {
				if v.BlockType() != pcp.TypeEvent {
					continue // pmlogger's own first record
				}
				ev, err := v.Events()
				if err != nil {
					t.Fatal(err)
				}
				arrays[v.Inst] = append([]byte(nil), ev.Bytes()...)
			}
		}
	}
	if len(arrays) == 0 {
		t.Fatalf("no event records in the archive: %v", s.Err())
	}

	const domain = 254
	a, err := pmda.New(pmda.Options{
		Domain:  domain,
		Name:    "gotest",
		Metrics: []pmda.Metric{{Name: "gotest.event.records", PMID: pcp.NewID(0, 0, 0), Type: pcp.TypeEvent, Sem: pcp.SemInstant, InDom: pcp.NewInDom(0, 0)}},
		InDoms:  []pmda.InDom{{InDom: pcp.NewInDom(0, 0), Instances: []pmda.Instance{{ID: 0, Name: "fungus"}, {ID: 1, Name: "bogus"}}}},
		Fetch: func(ctx context.Context, m *pmda.Metric, inst int32, v *pmda.Value) error {
			src, ok := arrays[inst]
			if !ok {
				return pmda.ErrNoValue
			}
			arr, err := eventrec.Parse(src, eventrec.Options{})
			if err != nil {
				return err
			}
			b := v.Events()
			for rec, err := range arr.All() {
				if err != nil {
					return err
				}
				if n, missed := rec.Missed(); missed {
					b.AddMissed(rec.Seconds(), rec.Fraction(), n)
					continue
				}
				b.AddRecord(rec.Seconds(), rec.Fraction(), rec.Flags())
				for p := range rec.Params() {
					b.AddParam(p.ID, p.Type, p.Value)
				}
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.ServeListener(ctx, ln) }()

	saveConfig(t, "gotest")
	t.Cleanup(func() {
		cancel()
		<-served
	})
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	conf, _ := os.ReadFile(pmcdConf)
	conf = append([]byte("gotest\t"+strconv.Itoa(domain)+"\tsocket\tinet "+port+"\n"), conf...)
	if err := os.WriteFile(pmcdConf, conf, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(pmnsDir, "gotest"), a.AppendPMNS(nil), 0o644)
	cmd := exec.Command("/usr/lib/pcp/bin/pmnsadd", "-n", "root", "gotest")
	cmd.Dir = pmnsDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pmnsadd: %v\n%s", err, out)
	}
	sighup(t)
	var got string
	for range 20 {
		got = run(t, "pminfo", "-x", "gotest.event.records")
		if strings.Contains(got, "event record") {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	got = strings.ReplaceAll(got, "gotest.event.records", "sample.event.records")
	if got != want {
		t.Errorf("pminfo -x for the Go agent:\n%s\nfor the C sample PMDA:\n%s", got, want)
	}
}
