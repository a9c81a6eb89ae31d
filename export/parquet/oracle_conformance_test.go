//go:build conformance

package parquet

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfwire/perfwire/archive"
)

// The export's oracles: archives recorded at test time by the real
// pmlogger from the shared pmcd (scripts/pcp-up.sh), read back by DuckDB
// (export/oracle, installed by scripts/duckdb-deps.sh) and compared with
// pmdumplog, pminfo, pmval and pcp2json on the same archives.

const pmcdHost = "127.0.0.1"

// duckdb runs sql in DuckDB through export/oracle/query.mjs and returns
// the rows. A missing node or DuckDB fails the test: the oracle is part
// of make test.
func duckdb(t *testing.T, sql string) []map[string]any {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed (scripts/web-deps.sh installs it)")
	}
	if _, err := os.Stat("../oracle/node_modules/@duckdb/node-api"); err != nil {
		t.Fatal("DuckDB is not installed: run scripts/duckdb-deps.sh")
	}
	cmd := exec.Command(node, "../oracle/query.mjs", sql)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb %q: %v\n%s", sql, err, stderr.String())
	}
	var rows []map[string]any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	for {
		var r map[string]any
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("duckdb output: %v", err)
		}
		rows = append(rows, r)
	}
	return rows
}

// tool runs a PCP tool and returns its stdout; it fails the test if the
// tool is missing or fails. PATH puts Debian's python first: pcp2json runs
// on the python3 that has the pcp module.
func tool(t *testing.T, name string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed (scripts/pcp-up.sh installs it)", name)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:"+os.Getenv("PATH"), "TZ=UTC")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return string(out)
}

// loggerConfig: integers, strings, an instance domain (sample.colour),
// one that changes while the recording runs (sample.proc), counters for
// the rates, and the labels the sample PMDA gives every level.
const loggerConfig = `log mandatory on 300 msec {
	sample.long
	sample.ulong
	sample.longlong
	sample.double
	sample.string
	sample.colour
	sample.proc
	sample.milliseconds
	sample.seconds
}
`

var (
	recordOnce sync.Once
	recorded   map[int]string
	recordErr  error
)

// recordArchives records a version 2 and a version 3 archive at once,
// 14 samples 300 ms apart, a new volume every 5 samples.
func recordArchives(t *testing.T) map[int]string {
	t.Helper()
	recordOnce.Do(func() {
		dir, err := os.MkdirTemp("", "perfwire-export-")
		if err != nil {
			recordErr = err
			return
		}
		cfg := filepath.Join(dir, "config")
		os.WriteFile(cfg, []byte(loggerConfig), 0o644)
		recorded = map[int]string{}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, v := range []int{2, 3} {
			base := filepath.Join(dir, "v"+strconv.Itoa(v))
			recorded[v] = base
			wg.Go(func() {
				cmd := exec.Command("pmlogger", "-h", pmcdHost, "-c", cfg, "-s", "14", "-v", "5", "-V", strconv.Itoa(v),
					"-l", base+".log", base)
				if out, err := cmd.CombinedOutput(); err != nil {
					mu.Lock()
					recordErr = errors.Join(recordErr, errors.New("pmlogger -V "+strconv.Itoa(v)+": "+err.Error()+": "+string(out)))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	})
	if recordErr != nil {
		t.Fatal(recordErr)
	}
	return recorded
}

// exportRecorded exports a recorded archive with rates into a new
// directory.
func exportRecorded(t *testing.T, base string) string {
	t.Helper()
	a, err := archive.OpenFS(os.DirFS(filepath.Dir(base)), filepath.Base(base), archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if len(a.Volumes()) < 3 {
		t.Fatalf("%s: %d volumes, want 3", base, len(a.Volumes()))
	}
	dir := t.TempDir()
	out := (&Dir{Root: dir, Options: Options{Rates: true}}).Output("t")
	if _, err := out.Archive(a, filepath.Base(base), ""); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func valuesOf(dir string) string {
	return "read_parquet('" + dir + "/pcp_values/**/*.parquet', hive_partitioning=true)"
}

func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestConformanceDuckDBValuesEqualPmdumplog: DuckDB reading the export
// of archives pmlogger recorded just now (v2 and v3, three volumes each,
// a changing instance domain, strings) finds every value pmdumplog -a
// prints, at its time, with its instance, and nothing else.
func TestConformanceDuckDBValuesEqualPmdumplog(t *testing.T) {
	for v, base := range recordArchives(t) {
		t.Run("v"+strconv.Itoa(v), func(t *testing.T) {
			want, types := parseDumplog(t, tool(t, "pmdumplog", "-Z", "UTC", "-a", base))
			dir := exportRecorded(t, base)
			rows := duckdb(t, `SELECT pmid, coalesce(inst, -1) AS inst, instance, epoch_ns(timestamp) AS ns,
				coalesce(value_int64::VARCHAR, value_uint64::VARCHAR, value_string) AS exact, value_double AS dbl, type, metric,
				host, date::VARCHAR AS date FROM `+valuesOf(dir))
			type key struct {
				clock, pmid string
				inst        int64
			}
			got := map[key]map[string]any{}
			for _, r := range rows {
				ns, _ := strconv.ParseInt(str(r["ns"]), 10, 64)
				inst, _ := strconv.ParseInt(str(r["inst"]), 10, 64)
				k := key{clockOf(ns, v == 3), str(r["pmid"]), inst}
				if got[k] != nil {
					t.Errorf("two rows for %v", k)
				}
				got[k] = r
				if str(r["host"]) != "vm" && str(r["host"]) == "" || str(r["date"]) != time.Unix(0, ns).UTC().Format("2006-01-02") {
					t.Errorf("%v: partition host=%s date=%s", k, str(r["host"]), str(r["date"]))
				}
			}
			n, changes := 0, map[int64]bool{}
			for _, w := range want {
				if !exported(types[w.pmid]) {
					continue
				}
				n++
				k := key{w.clock, w.pmid, int64(w.inst)}
				r := got[k]
				if r == nil {
					t.Errorf("%v: no row (pmdumplog: %s)", k, w.value)
					continue
				}
				delete(got, k)
				if w.name != "" && str(r["instance"]) != w.name {
					t.Errorf("%v: instance %q, pmdumplog %q", k, str(r["instance"]), w.name)
				}
				if !sameText(r, w.value) {
					t.Errorf("%v: value %v/%v, pmdumplog %s", k, r["exact"], r["dbl"], w.value)
				}
				if strings.HasPrefix(str(r["metric"]), "sample.proc.") {
					changes[int64(w.inst)] = true
				}
			}
			for k := range got {
				t.Errorf("row %v that pmdumplog does not print", k)
			}
			if n < 300 || len(changes) < 5 {
				t.Errorf("%d values compared, %d sample.proc instances seen: the recording is too small", n, len(changes))
			}
		})
	}
}

// sameText is sameDumpValue for a row as DuckDB returns it.
func sameText(r map[string]any, text string) bool {
	if e := str(r["exact"]); e != "" || r["dbl"] == nil {
		return e == text || strconv.Quote(e) == text || `"`+e+`"` == text
	}
	d, err := r["dbl"].(json.Number).Float64()
	if err != nil {
		return false
	}
	row := PCPValue{Double: &d, Type: str(r["type"])}
	return sameDumpValue(&row, text)
}

var (
	pminfoMetric = regexp.MustCompile(`^(\S+)$`)
	pminfoLabels = regexp.MustCompile(`^    (?:inst \[(\d+) or "[^"]*"\] )?labels (\{.*\})$`)
	clusterSet   = regexp.MustCompile(`^    Cluster (\d+\.\d+) labels \(\d+ bytes\): (\{.*\})$`)
	contextSet   = regexp.MustCompile(`^    Context labels \(\d+ bytes\): (\{.*\})$`)
)

// TestConformanceDuckDBLabelsEqualPminfo: every row's merged labels, in
// the MAP and the JSON column, are pminfo -l's for that metric and
// instance in the same archive. pminfo (libpcp 6.0.3) leaves the
// cluster's labels out of an archive's merge, though pmdumplog -e shows
// the archive records them and a live pminfo merges them: they are added
// to its answer from pmdumplog -e. So are the context's labels where
// pminfo has none of them: for some recordings (sample.proc's metrics,
// whose first values precede the label records) it answers with only the
// host name it takes from the archive's label.
func TestConformanceDuckDBLabelsEqualPminfo(t *testing.T) {
	base := recordArchives(t)[3]
	cluster := map[string]map[string]any{}
	var context map[string]any
	for _, line := range strings.Split(tool(t, "pmdumplog", "-e", base), "\n") {
		if m := contextSet.FindStringSubmatch(line); m != nil && context == nil {
			if err := json.Unmarshal([]byte(m[1]), &context); err != nil {
				t.Fatal(err)
			}
		}
		if m := clusterSet.FindStringSubmatch(line); m != nil {
			var l map[string]any
			if err := json.Unmarshal([]byte(m[2]), &l); err != nil {
				t.Fatal(err)
			}
			cluster[m[1]] = l
		}
	}
	if len(cluster) == 0 {
		t.Fatal("pmdumplog -e shows no cluster labels: the sample PMDA gives cluster 29.0 some")
	}
	dir := exportRecorded(t, base)
	rows := duckdb(t, `SELECT DISTINCT metric, pmid, coalesce(inst, -1) AS inst, labels_json::VARCHAR AS j,
		to_json(labels)::VARCHAR AS m FROM `+valuesOf(dir))
	metrics := map[string]bool{}
	for _, r := range rows {
		metrics[str(r["metric"])] = true
	}
	var names []string
	for m := range metrics {
		names = append(names, m)
	}
	want := map[string]map[string]any{} // metric/inst → labels
	metric := ""
	for _, line := range strings.Split(tool(t, "pminfo", append([]string{"-l", "-a", base}, names...)...), "\n") {
		if m := pminfoMetric.FindStringSubmatch(line); m != nil {
			metric = m[1]
		} else if m := pminfoLabels.FindStringSubmatch(line); m != nil {
			inst := m[1]
			if inst == "" {
				inst = "-1"
			}
			var l map[string]any
			if err := json.Unmarshal([]byte(m[2]), &l); err != nil {
				t.Fatal(err)
			}
			want[metric+"/"+inst] = l
		}
	}
	n := 0
	for _, r := range rows {
		k := str(r["metric"]) + "/" + str(r["inst"])
		w, ok := want[k]
		if !ok && str(r["inst"]) != "-1" {
			w, ok = want[str(r["metric"])+"/-1"] // an instance pminfo no longer lists
		}
		if !ok {
			t.Errorf("%s: pminfo -l shows no labels", k)
			continue
		}
		pmid := str(r["pmid"])
		w = maps.Clone(w)
		for name, v := range cluster[pmid[:strings.LastIndexByte(pmid, '.')]] {
			if _, set := w[name]; !set {
				w[name] = v
			}
		}
		missing := 0
		for name := range context {
			if _, set := w[name]; !set {
				missing++
			}
		}
		if missing == len(context)-1 { // all but the host name
			for name, v := range context {
				if _, set := w[name]; !set {
					w[name] = v
				}
			}
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(str(r["j"])), &got); err != nil {
			t.Fatalf("%s: labels_json %q: %v", k, str(r["j"]), err)
		}
		if !sameJSON(got, w) {
			t.Errorf("%s: labels_json %s, pminfo %v", k, str(r["j"]), w)
		}
		var m map[string]string
		json.Unmarshal([]byte(str(r["m"])), &m)
		for name, v := range w {
			s, isStr := v.(string)
			if !isStr {
				b, _ := json.Marshal(v)
				s = string(b)
			}
			if m[name] != s {
				t.Errorf("%s: labels[%q] = %q, pminfo %q", k, name, m[name], s)
			}
		}
		if len(m) != len(w) {
			t.Errorf("%s: labels map %v, pminfo %v", k, m, w)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d series compared", n)
	}
}

func sameJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

var pmvalLine = regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+)\s+(\S+)\s*$`)

// TestConformanceDuckDBRateEqualsPmval: a SELECT of a counter's rate
// (sample.milliseconds, a counter of time, so a utilisation) gives what
// pmval -a -t reports at the same interval: each of pmval's rates, at
// its time, is within 1 % of the exported rate of the sample nearest it.
func TestConformanceDuckDBRateEqualsPmval(t *testing.T) {
	base := recordArchives(t)[3]
	dir := exportRecorded(t, base)
	rows := duckdb(t, `SELECT epoch_ns(timestamp) AS ns, rate FROM `+valuesOf(dir)+`
		WHERE metric = 'sample.milliseconds' AND rate IS NOT NULL ORDER BY timestamp`)
	if len(rows) < 10 {
		t.Fatalf("%d rates", len(rows))
	}
	type rate struct {
		ns int64
		v  float64
	}
	var ours []rate
	for _, r := range rows {
		ns, _ := strconv.ParseInt(str(r["ns"]), 10, 64)
		v, _ := r["rate"].(json.Number).Float64()
		ours = append(ours, rate{ns, v})
	}
	day := time.Unix(0, ours[0].ns).UTC().Truncate(24 * time.Hour)
	n := 0
	sc := bufio.NewScanner(strings.NewReader(tool(t, "pmval", "-Z", "UTC", "-a", base, "-t", "0.3", "-f", "6", "sample.milliseconds")))
	for sc.Scan() {
		m := pmvalLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		want, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		clock, _ := time.Parse("15:04:05.000", m[1])
		at := day.Add(clock.Sub(clock.Truncate(24 * time.Hour))).UnixNano()
		best := ours[0]
		for _, o := range ours {
			if math.Abs(float64(o.ns-at)) < math.Abs(float64(best.ns-at)) {
				best = o
			}
		}
		if math.Abs(best.v-want) > 0.01*math.Abs(want) {
			t.Errorf("%s: pmval %g, exported rate %g", m[1], want, best.v)
		}
		n++
	}
	if n < 8 {
		t.Errorf("only %d of pmval's rates compared", n)
	}
}

// TestConformanceDuckDBAgreesWithPcp2json: pcp2json, PCP's own JSON
// exporter, reads the same archive: every value it reports for a metric
// and instance is one the export holds for them (for metrics that do not
// change, the same value), or lies between the exported values around it
// for the changing ones that pcp2json interpolates.
func TestConformanceDuckDBAgreesWithPcp2json(t *testing.T) {
	base := recordArchives(t)[3]
	dir := exportRecorded(t, base)
	rows := duckdb(t, `SELECT metric, coalesce(instance, '') AS instance,
		coalesce(value_int64::DOUBLE, value_uint64::DOUBLE, value_double) AS num, value_string AS s FROM `+valuesOf(dir)+`
		WHERE metric LIKE 'sample.long.%' OR metric LIKE 'sample.ulong.%' OR metric = 'sample.string.hullo' OR metric = 'sample.colour'`)
	type span struct {
		lo, hi float64
		s      map[string]bool
	}
	ours := map[string]*span{}
	for _, r := range rows {
		k := str(r["metric"]) + "/" + str(r["instance"])
		sp := ours[k]
		if sp == nil {
			sp = &span{lo: math.Inf(1), hi: math.Inf(-1), s: map[string]bool{}}
			ours[k] = sp
		}
		if n, ok := r["num"].(json.Number); ok {
			f, _ := n.Float64()
			sp.lo, sp.hi = min(sp.lo, f), max(sp.hi, f)
		}
		if s, ok := r["s"].(string); ok {
			sp.s[s] = true
		}
	}
	out := tool(t, "pcp2json", "-a", base, "-r", "-E", "-t", "0.3", "-P", "9", "sample.long", "sample.ulong", "sample.string.hullo", "sample.colour")
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	n := 0
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("pcp2json output: %v", err)
		}
		pcp, _ := doc["@pcp"].(map[string]any)
		hosts, _ := pcp["@hosts"].([]any)
		for _, h := range hosts {
			samples, _ := h.(map[string]any)["@metrics"].([]any)
			for _, s := range samples {
				walkPcp2json(s.(map[string]any), "", func(metric, inst string, v any) {
					n++
					sp := ours[metric+"/"+inst]
					if sp == nil {
						t.Errorf("pcp2json reports %s [%s], the export has no rows for it", metric, inst)
						return
					}
					switch v := v.(type) {
					case json.Number:
						f, _ := v.Float64()
						if f < sp.lo-1e-9*math.Abs(f) || f > sp.hi+1e-9*math.Abs(f) {
							t.Errorf("%s [%s]: pcp2json %v, export between %g and %g", metric, inst, v, sp.lo, sp.hi)
						}
					case string:
						if !sp.s[v] {
							t.Errorf("%s [%s]: pcp2json %q, export %v", metric, inst, v, sp.s)
						}
					}
				})
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d of pcp2json's values compared", n)
	}
}

// walkPcp2json calls fn for every value of a pcp2json sample: metric
// names are nested objects ("sample": {"long": {"one": {"value": 1}}}),
// instances a list of {"name", "value"}.
func walkPcp2json(m map[string]any, prefix string, fn func(metric, inst string, v any)) {
	for k, v := range m {
		if strings.HasPrefix(k, "@") && k != "@instances" {
			continue
		}
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		switch v := v.(type) {
		case map[string]any:
			if val, ok := v["value"]; ok {
				fn(name, "", val)
				continue
			}
			if insts, ok := v["@instances"].([]any); ok {
				for _, in := range insts {
					im := in.(map[string]any)
					fn(name, str(im["name"]), im["value"])
				}
				continue
			}
			walkPcp2json(v, name, fn)
		}
	}
}

// TestConformanceDuckDBDLTEqualsDLTConvert: DuckDB reading dlt_messages
// of the bundled captures gives, column by column, the line the real
// dlt-convert -a prints for each message.
func TestConformanceDuckDBDLTEqualsDLTConvert(t *testing.T) {
	for _, name := range []string{"kpi-odd", "excerpt-irq-strtok-race"} {
		t.Run(name, func(t *testing.T) {
			abs, _ := filepath.Abs("testdata/" + name + ".dlt")
			want := strings.Split(strings.TrimSuffix(tool(t, "dlt-convert", "-a", abs), "\n"), "\n")
			dir := exportDLT(t, name)
			rows := duckdb(t, `SELECT index, ecu, session, timestamp, epoch_ns(storage_time) AS ns, apid, ctid, type, subtype,
				is_verbose, counter, nargs, payload, hex(payload_bytes) AS raw, host FROM
				read_parquet('`+dir+`/dlt_messages/**/*.parquet', hive_partitioning=true) ORDER BY index`)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, dlt-convert prints %d lines", len(rows), len(want))
			}
			nonUTF8 := 0
			for i, r := range rows {
				m := DLTMessage{ECU: str(r["ecu"]), APID: str(r["apid"]), CTID: str(r["ctid"]), Type: str(r["type"]),
					Subtype: str(r["subtype"]), Verbose: r["is_verbose"] == true, Payload: str(r["payload"])}
				m.Index, _ = strconv.ParseInt(str(r["index"]), 10, 64)
				m.StorageTime, _ = strconv.ParseInt(str(r["ns"]), 10, 64)
				c, _ := strconv.Atoi(str(r["counter"]))
				n, _ := strconv.Atoi(str(r["nargs"]))
				m.Counter, m.NumArgs = int32(c), int32(n)
				if r["timestamp"] != nil {
					ts, _ := strconv.ParseInt(str(r["timestamp"]), 10, 64)
					m.Timestamp = &ts
				}
				if r["raw"] != nil {
					raw, err := hex.DecodeString(str(r["raw"]))
					if err != nil {
						t.Fatal(err)
					}
					m.PayloadRaw = raw
					nonUTF8++
				}
				if got := lineOf(&m); got != want[i] {
					t.Errorf("message %d:\n duckdb %q\n  tool  %q", i, got, want[i])
				}
				if str(r["host"]) != m.ECU {
					t.Errorf("message %d: partition host=%s, ECU %s", i, str(r["host"]), m.ECU)
				}
			}
			t.Logf("%d messages, %d with a payload that is not UTF-8", len(rows), nonUTF8)
		})
	}
}
