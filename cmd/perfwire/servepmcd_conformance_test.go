//go:build conformance

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

// relayed is what a /live/pmcd stream said, PDU by PDU.
type relayed struct {
	names      [][]string // each PMNS_NAMES
	ids        [][]pcp.ID // each PMNS_IDS
	descs      map[pcp.ID]pcp.Desc
	insts      map[pcp.InDom][]pduwire.InstanceEntry
	texts      map[uint32][]string
	labels     map[[2]uint32][]string      // {kind, ident} -> JSON of each set
	instLabels map[uint32]map[int32]string // instance domain -> inst -> JSON of its own set (PM_LABEL_INSTANCES)
	results    []pduwire.ResultPDU
}

// readRelay reads url for d (or until the server ends the stream) and
// decodes the whole PDUs it got.
func readRelay(t *testing.T, url string, d time.Duration) *relayed {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s: %s %s", url, resp.Status, b)
	}
	stop := time.AfterFunc(d, func() { resp.Body.Close() })
	got, _ := io.ReadAll(resp.Body)
	stop.Stop()
	resp.Body.Close()
	r := &relayed{descs: map[pcp.ID]pcp.Desc{}, insts: map[pcp.InDom][]pduwire.InstanceEntry{},
		texts: map[uint32][]string{}, labels: map[[2]uint32][]string{}, instLabels: map[uint32]map[int32]string{}}
	s := pduwire.NewScanner(got, pduwire.Options{})
	for s.Next() {
		m, err := pduwire.Decode(s.PDU().Bytes)
		if err != nil {
			t.Fatalf("relayed PDU at %d: %v", s.PDU().Offset, err)
		}
		switch m := m.(type) {
		case *pduwire.PMNSNamesPDU:
			var names []string
			for _, n := range m.Names {
				names = append(names, string(n))
			}
			r.names = append(r.names, names)
		case *pduwire.PMNSIDsPDU:
			r.ids = append(r.ids, m.PMIDs)
		case *pduwire.DescPDU:
			r.descs[m.Desc.ID] = m.Desc
		case *pduwire.InstancePDU:
			r.insts[m.InDom] = m.Instances
		case *pduwire.TextPDU:
			r.texts[m.Ident] = append(r.texts[m.Ident], string(m.Text))
		case *pduwire.LabelPDU:
			var sets []string
			for _, s := range m.Sets {
				sets = append(sets, string(s.JSON))
			}
			r.labels[[2]uint32{uint32(m.Kind), m.Ident}] = sets
			if m.Kind == pduwire.LabelInstances {
				own := map[int32]string{}
				for _, s := range m.Sets {
					own[s.Inst] = string(s.JSON)
				}
				r.instLabels[m.Ident] = own
			}
		case *pduwire.ResultPDU:
			r.results = append(r.results, *m)
		default:
			t.Errorf("relayed a %T", m)
		}
	}
	// The stream was cut at an arbitrary byte: a PDU may be incomplete.
	return r
}

// perfwire serve --pmcd relays the running pmcd (scripts/pcp-up.sh): the
// metrics' names, pmIDs, descriptors, help text, instances and labels are
// what pminfo -m, -d, -tT, -f and -l print for them; the values are those
// pminfo and pmval read; a pmcd that breaks the connection is dialled
// again and the stream goes on; a pmcd that is down, an unknown name and
// no name at all are errors that say so.
func TestConformanceServePMCD(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>viewer"), 0o644)
	metrics := []string{"sample.load", "sample.seconds", "sample.colour", "sample.milliseconds"}
	srv := httptest.NewServer(serveMux(dir, "", &pmcdRelay{addr: pmapi.DefaultAddr, metrics: metrics, every: time.Second}))
	defer srv.Close()

	var live struct {
		DLT, PMCD string
		Metrics   []string
	}
	resp, err := http.Get(srv.URL + "/live")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&live)
	resp.Body.Close()
	if live.PMCD != pmapi.DefaultAddr || live.DLT != "" || !reflect.DeepEqual(live.Metrics, metrics) {
		t.Errorf("/live: %+v", live)
	}

	r := readRelay(t, srv.URL+"/live/pmcd?interval=250ms", 1600*time.Millisecond)
	if len(r.names) != 1 || len(r.ids) != 1 || !reflect.DeepEqual(r.names[0], metrics) || len(r.ids[0]) != len(metrics) {
		t.Fatalf("names %q, pmIDs %v", r.names, r.ids)
	}
	if len(r.results) < 4 {
		t.Fatalf("%d RESULTs in 1.6 s at 250 ms", len(r.results))
	}
	pminfo := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("pminfo", append([]string{"-h", "127.0.0.1"}, args...)...).Output()
		if err != nil {
			t.Fatalf("pminfo %v: %v", args, err)
		}
		return string(out)
	}
	id := map[string]pcp.ID{}
	for i, name := range metrics {
		id[name] = r.ids[0][i]
		if want := fmt.Sprintf("%s PMID: %s\n", name, r.ids[0][i]); pminfo("-m", name) != want {
			t.Errorf("%s: pmID %s; pminfo -m %q", name, r.ids[0][i], pminfo("-m", name))
		}
		d, ok := r.descs[r.ids[0][i]]
		if want := pminfo("-d", name); !ok || "\n"+name+"\n"+d.String() != want {
			t.Errorf("%s: DESC %v; pminfo -d %q", name, d, want)
		}
		texts := r.texts[uint32(r.ids[0][i])]
		if want := pminfo("-tT", name); len(texts) != 2 || fmt.Sprintf("\n%s [%s]\nHelp:\n%s\n", name, texts[0], texts[1]) != want {
			t.Errorf("%s: TEXT %q; pminfo -tT %q", name, texts, want)
		}
		// Every level of labels the stream sent, merged, is pminfo -l's.
		merged := map[string]any{}
		for _, l := range [][2]uint32{{pduwire.LabelContext, uint32(pcp.IDNull)}, {pduwire.LabelDomain, id[name].Domain()},
			{pduwire.LabelInDom, uint32(d.InDom)}, {pduwire.LabelCluster, uint32(id[name])}, {pduwire.LabelItem, uint32(id[name])}} {
			for _, s := range r.labels[l] {
				json.Unmarshal([]byte(s), &merged)
			}
		}
		m := regexp.MustCompile(`(?m)^    labels (.*)$`).FindStringSubmatch(pminfo("-l", name))
		var want map[string]any
		if m == nil || json.Unmarshal([]byte(m[1]), &want) != nil || !reflect.DeepEqual(merged, want) {
			t.Errorf("%s: labels %v; pminfo -l %v", name, merged, m)
		}
	}

	// Each instance's labels, its own set merged over the metric's, are
	// pminfo -l's: sample.bin's instances have labels of their own
	// ({"bin":100} …), sample.colour's none.
	ri := readRelay(t, srv.URL+"/live/pmcd?metric=sample.bin,sample.colour&interval=250ms", time.Second)
	if len(ri.ids) != 1 || len(ri.ids[0]) != 2 {
		t.Fatalf("sample.bin, sample.colour: pmIDs %v", ri.ids)
	}
	for i, name := range []string{"sample.bin", "sample.colour"} {
		pmid := ri.ids[0][i]
		d := ri.descs[pmid]
		var metric map[string]any
		for _, l := range [][2]uint32{{pduwire.LabelContext, uint32(pcp.IDNull)}, {pduwire.LabelDomain, pmid.Domain()},
			{pduwire.LabelInDom, uint32(d.InDom)}, {pduwire.LabelCluster, uint32(pmid)}, {pduwire.LabelItem, uint32(pmid)}} {
			for _, s := range ri.labels[l] {
				json.Unmarshal([]byte(s), &metric)
			}
		}
		lines := regexp.MustCompile(`(?m)^    inst \[(\d+) or "[^"]*"\] labels (.*)$`).FindAllStringSubmatch(pminfo("-l", name), -1)
		if len(lines) == 0 || len(lines) != len(ri.insts[d.InDom]) {
			t.Errorf("%s: %d instances relayed; pminfo -l lists %d", name, len(ri.insts[d.InDom]), len(lines))
		}
		own := 0
		for _, l := range lines {
			inst, _ := strconv.Atoi(l[1])
			merged := map[string]any{}
			json.Unmarshal(must(json.Marshal(metric)), &merged)
			if js, ok := ri.instLabels[uint32(d.InDom)][int32(inst)]; ok && js != "" {
				json.Unmarshal([]byte(js), &merged)
				own++
			}
			var want map[string]any
			if json.Unmarshal([]byte(l[2]), &want) != nil || !reflect.DeepEqual(merged, want) {
				t.Errorf("%s inst %d: labels %v; pminfo -l %s", name, inst, merged, l[2])
			}
		}
		if name == "sample.bin" && own != len(lines) {
			t.Errorf("sample.bin: %d of %d instances had labels of their own relayed", own, len(lines))
		}
	}

	// The instances of sample.colour are pminfo -f's, and every RESULT has
	// a value for each in its saw tooth's range (its help text: N to
	// N+100, N 100 for red, 200 for green, 300 for blue).
	colour := r.descs[id["sample.colour"]].InDom
	var names []string
	for _, in := range r.insts[colour] {
		names = append(names, fmt.Sprintf("inst [%d or %q]", in.Inst, in.Name))
	}
	if want := regexp.MustCompile(`inst \[\d+ or "[^"]*"\]`).FindAllString(pminfo("-f", "sample.colour"), -1); !reflect.DeepEqual(names, want) {
		t.Errorf("sample.colour's instances %q; pminfo -f %q", names, want)
	}
	values := func(res pduwire.ResultPDU, name string) []pduwire.ValueData {
		for _, vs := range res.Sets {
			if vs.PMID == id[name] {
				return vs.Values
			}
		}
		return nil
	}
	for i, res := range r.results {
		vs := values(res, "sample.colour")
		for j, v := range vs {
			if n := int32(v.Word); len(vs) != 3 || v.Inst != int32(j) || n < int32(100*(j+1)) || n > int32(100*(j+2)) {
				t.Errorf("RESULT %d: sample.colour %v", i, vs)
			}
		}
		if l := values(res, "sample.load"); len(l) != 1 || fmt.Sprintf("\nsample.load\n    value %d\n", int32(l[0].Word)) != pminfo("-f", "sample.load") {
			t.Errorf("RESULT %d: sample.load %v; pminfo -f %q", i, l, pminfo("-f", "sample.load"))
		}
	}
	// sample.seconds now is pminfo's, to the second it takes to ask.
	last := values(r.results[len(r.results)-1], "sample.seconds")
	now, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(pminfo("-f", "sample.seconds")), "sample.seconds\n    value")))
	if len(last) != 1 || now-int(last[0].Word) < 0 || now-int(last[0].Word) > 3 {
		t.Errorf("sample.seconds relayed %v; pminfo -f %d a moment later", last, now)
	}
	// sample.milliseconds grows as the RESULTs' timestamps do: pmval reads
	// it as a time utilization of 1.000.
	out, err := exec.Command("pmval", "-h", "127.0.0.1", "-t", "0.25", "-s", "2", "-f", "3", "sample.milliseconds").Output()
	if err != nil {
		t.Fatalf("pmval: %v", err)
	}
	pmval := regexp.MustCompile(`(?m)^\s+([0-9.]+)\s*$`).FindAllStringSubmatch(string(out), -1)
	if len(pmval) != 2 {
		t.Fatalf("pmval printed %q", out)
	}
	for i := 1; i < len(r.results); i++ {
		a, b := r.results[i-1], r.results[i]
		va, vb := values(a, "sample.milliseconds"), values(b, "sample.milliseconds")
		if len(va) != 1 || len(vb) != 1 {
			t.Fatalf("RESULT %d: sample.milliseconds %v", i, vb)
		}
		dt := float64(b.Sec-a.Sec) + float64(b.Nsec-a.Nsec)/1e9
		util := (math.Float64frombits(be64(vb[0].Payload)) - math.Float64frombits(be64(va[0].Payload))) / (dt * 1000)
		for _, p := range pmval {
			if want, _ := strconv.ParseFloat(p[1], 64); math.Abs(util-want) > 0.01 {
				t.Errorf("RESULT %d: sample.milliseconds grew %.4f ms per ms; pmval reads %s", i, util, p[1])
			}
		}
	}

	// The namespace below a prefix, for the page's metric box: the leaves
	// below sample.long are those pminfo lists, and sample is below the
	// root, not a leaf.
	var ns struct {
		Names []struct {
			Name string
			Leaf bool
		}
	}
	for _, prefix := range []string{"sample.long", ""} {
		resp, err := http.Get(srv.URL + "/live/pmcd/names?prefix=" + prefix)
		if err != nil {
			t.Fatal(err)
		}
		ns.Names = nil
		json.NewDecoder(resp.Body).Decode(&ns)
		resp.Body.Close()
		var got []string
		for _, n := range ns.Names {
			if n.Leaf == (prefix == "") {
				t.Errorf("names below %q: %s leaf %v", prefix, n.Name, n.Leaf)
			}
			got = append(got, n.Name)
		}
		if prefix == "" {
			if !slices.Contains(got, "sample") {
				t.Errorf("names below the root: %q", got)
			}
			continue
		}
		want := strings.Fields(pminfo(prefix))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("names below %s: %q; pminfo %q", prefix, got, want)
		}
	}

	// A pmcd that breaks the connection: the relay dials it again, sends
	// the names, descriptors … again, and the RESULTs go on.
	proxy := newBreaker(t, pmapi.DefaultAddr)
	broken := httptest.NewServer(serveMux(dir, "", &pmcdRelay{addr: proxy.addr(), metrics: []string{"sample.load"}, every: 200 * time.Millisecond}))
	defer broken.Close()
	time.AfterFunc(700*time.Millisecond, proxy.breakAll)
	rb := readRelay(t, broken.URL+"/live/pmcd", 2500*time.Millisecond)
	if len(rb.names) != 2 || proxy.conns() != 2 || len(rb.results) < 6 {
		t.Errorf("pmcd broke the connection: %d name lookups over %d connections, %d RESULTs in 2.5 s", len(rb.names), proxy.conns(), len(rb.results))
	}

	for _, c := range []struct {
		relay *pmcdRelay
		path  string
		code  int
		msg   string
	}{
		{&pmcdRelay{addr: "127.0.0.1:1", every: time.Second}, "/live/pmcd?metric=sample.load", http.StatusBadGateway, "pmcd at 127.0.0.1:1 is not reachable"},
		{&pmcdRelay{addr: pmapi.DefaultAddr, every: time.Second}, "/live/pmcd?metric=sample.nosuch", http.StatusNotFound, "metric sample.nosuch: "},
		{&pmcdRelay{addr: pmapi.DefaultAddr, every: time.Second}, "/live/pmcd", http.StatusBadRequest, "name the metrics to follow"},
		{&pmcdRelay{addr: pmapi.DefaultAddr, every: time.Second}, "/live/pmcd?metric=sample.load&interval=1ms", http.StatusBadRequest, "interval 1ms: want 100ms to 1h"},
		{&pmcdRelay{addr: pmapi.DefaultAddr, every: time.Second}, "/live/pmcd/names?prefix=sample.nosuch", http.StatusNotFound, "sample.nosuch: pmapi: children: Unknown metric name"},
		{&pmcdRelay{addr: "127.0.0.1:1", every: time.Second}, "/live/pmcd/names?prefix=sample", http.StatusBadGateway, "pmcd at 127.0.0.1:1 is not reachable"},
	} {
		s := httptest.NewServer(serveMux(dir, "", c.relay))
		resp, err := http.Get(s.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.msg) {
			t.Errorf("%s from %s: %s %q, want %d and %q", c.path, c.relay.addr, resp.Status, body, c.code, c.msg)
		}
	}
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// breaker is a TCP proxy to pmcd whose connections the test can cut.
type breaker struct {
	ln    net.Listener
	mu    sync.Mutex
	open  []net.Conn
	count int
}

func newBreaker(t *testing.T, target string) *breaker {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &breaker{ln: ln}
	t.Cleanup(func() { ln.Close(); b.breakAll() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			b.mu.Lock()
			b.open = append(b.open, c, p)
			b.count++
			b.mu.Unlock()
			go func() { io.Copy(p, c); p.Close() }()
			go func() { io.Copy(c, p); c.Close() }()
		}
	}()
	return b
}

func (b *breaker) addr() string { return b.ln.Addr().String() }

func (b *breaker) conns() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.count
}

func (b *breaker) breakAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.open {
		c.Close()
	}
	b.open = nil
}

// must returns b, failing on err (a marshal that cannot fail).
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
