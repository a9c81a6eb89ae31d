package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestScalingCounts runs each decoder of the scaling figure at two sizes
// and checks that a pass counts exactly the records its input holds, so
// that a decoder that stops early cannot pass as fast.
func TestScalingCounts(t *testing.T) {
	for _, s := range scalers {
		for _, size := range []int{max(s.minSize, 32<<10), max(s.minSize, 1<<20) * 3} {
			t.Run(fmt.Sprintf("%s/%d", s.name, size), func(t *testing.T) {
				in, err := s.build(size)
				if err != nil {
					t.Fatal(err)
				}
				if in.cleanup != nil {
					defer in.cleanup()
				}
				if in.want == 0 || in.bytes == 0 {
					t.Fatalf("empty input: %d bytes, %d %s", in.bytes, in.want, s.what)
				}
				var first uint64
				for i := range 2 {
					got, sum, err := in.pass()
					if err != nil {
						t.Fatal(err)
					}
					if got != in.want {
						t.Fatalf("a pass read %d %s, the input holds %d", got, s.what, in.want)
					}
					if i == 0 {
						first = sum
					} else if sum != first {
						t.Fatalf("the second pass's checksum %#x differs from the first's %#x", sum, first)
					}
				}
			})
		}
	}
}

// TestScalingPatterns pins the records the inputs repeat to what the
// real tools count in them, so that the counts the figure checks rest on
// the captures, not on the decoders being measured.
func TestScalingPatterns(t *testing.T) {
	recs, err := dltRecords(kpiCaptures...)
	if err != nil {
		t.Fatal(err)
	}
	// dlt-convert's totals (dlt/testdata/README.md): 452 + 250.
	if len(recs) != 452+250 {
		t.Errorf("kpi captures: %d records, dlt-convert counts 702", len(recs))
	}
	in, err := buildDLTScan(10 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if in.want%702 != 0 {
		t.Errorf("10 MB DLT scan holds %d messages, not whole cycles of 702", in.want)
	}
	sets, err := resultSets()
	if err != nil {
		t.Fatal(err)
	}
	values := 0
	for _, s := range sets {
		values += len(s.Values)
	}
	// libpcp's encoder wrote 50 metrics, 1,000 values (testdata/README.md).
	if len(sets) != 50 || values != 1000 {
		t.Errorf("result-1000.bin: %d sets, %d values; libpcp wrote 50, 1000", len(sets), values)
	}
	texts, err := labelTexts()
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) != 6 {
		t.Errorf("%d label sets, want merge-5's 5 and parse-10's 1", len(texts))
	}
	// pmdumplog -a lists 62 result records ("N metrics" lines) in m3.
	in, err = buildArchive(100 << 10)
	if err != nil {
		t.Fatal(err)
	}
	defer in.cleanup()
	if in.want != 3*archiveRecords || archiveRecords != 62 {
		t.Errorf("100 KB archive holds %d records, want 3 rounds of pmdumplog's 62", in.want)
	}
	// LTTV's counts for smp_example's blocks (docs/ltt.md §14).
	in, err = buildLTT(3 * lttBlock)
	if err != nil {
		t.Fatal(err)
	}
	if in.want != 2*85917+87240 {
		t.Errorf("three blocks hold %d events, LTTV counts %d", in.want, 2*85917+87240)
	}
}

// TestScalingVerdict checks the verdict on made-up series: flat cost and
// memory pass, a cost per byte that grows with the size or memory that
// grows with it is flagged, and sizes below 1 MB do not count for
// linearity.
func TestScalingVerdict(t *testing.T) {
	series := func(ns []float64, over []int64) []scalePoint {
		var ps []scalePoint
		for i, size := range scaleSizes {
			ps = append(ps, scalePoint{Size: size, Bytes: size, Med: ns[i], Resident: size, PeakRSS: int64(size) + over[i]})
		}
		return ps
	}
	flatMem := []int64{18 << 20, 18 << 20, 19 << 20, 19 << 20, 20 << 20}
	for _, c := range []struct {
		name         string
		ns           []float64
		over         []int64
		linear, flat bool
	}{
		{"linear", []float64{5, 2, 0.5, 0.52, 0.55}, flatMem, true, true},
		{"slow start only", []float64{60, 7, 0.4, 0.4, 0.41}, flatMem, true, true},
		{"n log n", []float64{0.5, 0.5, 0.5, 0.6, 0.8}, flatMem, false, true},
		{"quadratic at the top", []float64{0.5, 0.5, 0.5, 0.5, 16}, flatMem, false, true},
		{"copies the input", []float64{0.5, 0.5, 0.5, 0.5, 0.5}, []int64{18 << 20, 18 << 20, 19 << 20, 51 << 20, 1 << 30}, true, false},
	} {
		r := scaleVerdict(series(c.ns, c.over))
		if r.linear != c.linear || r.flat != c.flat {
			t.Errorf("%s: linear %v (spread %.2f), flat %v (max %d); want %v, %v", c.name, r.linear, r.spread, r.flat, r.maxOver, c.linear, c.flat)
		}
	}
	// A fixed 200 µs per pass over 0.1 ns/byte misses too, and the miss
	// says it falls with size; a growing cost says it grows.
	var fixed []float64
	for _, size := range scaleSizes {
		fixed = append(fixed, 0.1+200e3/float64(size))
	}
	r := scaleVerdict(series(fixed, flatMem))
	if r.linear || !strings.Contains(r.shape(), "fixed 200 µs per pass, then 0.1 ns/byte") {
		t.Errorf("fixed cost: linear %v, %q", r.linear, r.shape())
	}
	r = scaleVerdict(series([]float64{0.5, 0.5, 0.5, 0.6, 0.8}, flatMem))
	if r.shape() != "cost per byte grows with size" {
		t.Errorf("growing cost: %q", r.shape())
	}
	r = scaleVerdict(series([]float64{3, 3, 3.5, 5.7, 3.6}, flatMem))
	if r.linear || r.shape() != "not monotonic in size: highest at 32 MB" {
		t.Errorf("uneven cost: linear %v, %q", r.linear, r.shape())
	}
	// Above 1 MB a point is judged at its ratio to the 1 MB reference
	// timed beside it: a host 1.6x slower during the 32 MB child is not a
	// miss, a decoder 1.6x slower beside an unchanged reference is.
	drift := series([]float64{0.5, 0.5, 0.3, 0.5, 0.3}, flatMem)
	drift[3].RefMed, drift[4].RefMed = 0.5, 0.3
	if r := scaleVerdict(drift); !r.linear {
		t.Errorf("host drift: spread %.2f, want linear", r.spread)
	}
	drift[3].RefMed = 0.3
	if r := scaleVerdict(drift); r.linear || r.peak != 32<<20 {
		t.Errorf("slower beside its reference: linear %v, peak %d", r.linear, r.peak)
	}
	// One super-linear decoder makes the figure partly met, named.
	ps := series([]float64{0.5, 0.5, 0.5, 0.5, 2}, flatMem)
	results := make([][]scalePoint, len(scalers))
	for i := range results {
		results[i] = series([]float64{0.5, 0.5, 0.5, 0.5, 0.5}, flatMem)
	}
	results[0] = ps
	md, verdict, summary := scaleTable(scaleSizes, results)
	if verdict != "partly" || !strings.Contains(summary, "missed: "+scalers[0].name+" not linear") || !strings.Contains(md, "**no**") {
		t.Errorf("one super-linear decoder: verdict %q, summary %q", verdict, summary)
	}
}
