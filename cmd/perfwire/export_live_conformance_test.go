//go:build conformance

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/perfwire/perfwire/export/parquet"
)

// liveFiles returns the files of a table below dir: the Parquet files,
// and any other (a temporary file left behind).
func liveFiles(t *testing.T, dir, table string) (parts, others []string) {
	t.Helper()
	filepath.Walk(filepath.Join(dir, table), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if strings.HasSuffix(p, ".parquet") && !strings.HasPrefix(filepath.Base(p), ".") {
				parts = append(parts, p)
			} else {
				others = append(others, p)
			}
		}
		return err
	})
	slices.Sort(parts)
	return parts, others
}

// TestConformanceExportLiveDLT: following the shared dlt-daemon (with
// dlt-kpi sending) for three rolls of a second writes three complete sets
// of files, each readable, one after the other in time, and leaves no
// temporary file.
func TestConformanceExportLiveDLT(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"export", "--dlt", "localhost:3490", "--roll", "1s", "--rolls", "3", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	parts, others := liveFiles(t, dir, parquet.TableDLTMessages)
	if len(others) > 0 {
		t.Errorf("files left beside the export: %v", others)
	}
	if len(parts) != 3 {
		t.Fatalf("dlt_messages files %v, want one per roll", parts)
	}
	var last int64
	for _, p := range parts {
		rows, err := pq.ReadFile[parquet.DLTMessage](p)
		if err != nil || len(rows) == 0 {
			t.Fatalf("%s: %d rows, %v", p, len(rows), err)
		}
		if rows[0].StorageTime < last {
			t.Errorf("%s starts at %d, before the previous roll's end %d", p, rows[0].StorageTime, last)
		}
		last = rows[len(rows)-1].StorageTime
	}
	if kpi, _ := liveFiles(t, dir, parquet.TableKPIProcesses); len(kpi) == 0 {
		t.Errorf("no kpi_processes files: dlt-kpi's messages (scripts/dlt-up.sh runs it) were not exported")
	}
}

// TestConformanceExportLivePmcd: sampling the shared pmcd for two rolls
// writes two sets of files whose values are pminfo -f's for metrics that
// do not change (sample.long.ten), one per sample.
func TestConformanceExportLivePmcd(t *testing.T) {
	want, err := exec.Command("pminfo", "-h", "127.0.0.1", "-f", "sample.long.ten").Output()
	if err != nil {
		t.Fatalf("pminfo: %v", err)
	}
	if !strings.Contains(string(want), "value 10") {
		t.Fatalf("pminfo -f sample.long.ten:\n%s", want)
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"export", "--pmcd", "127.0.0.1", "--interval", "250ms", "--roll", "1s", "--rolls", "2", "-o", dir,
		"sample.long.ten", "sample.colour"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	parts, others := liveFiles(t, dir, parquet.TablePCPValues)
	if len(parts) != 2 || len(others) > 0 {
		t.Fatalf("pcp_values files %v (and %v), want one per roll", parts, others)
	}
	for _, p := range parts {
		rows, err := pq.ReadFile[parquet.PCPValue](p)
		if err != nil {
			t.Fatal(err)
		}
		ten, colours := 0, map[string]bool{}
		for _, r := range rows {
			switch r.Metric {
			case "sample.long.ten":
				ten++
				if r.Int64 == nil || *r.Int64 != 10 {
					t.Errorf("%s: sample.long.ten %v, pminfo 10", p, r.Int64)
				}
			case "sample.colour":
				colours[*r.Instance] = true
			}
		}
		if ten != 4 || len(colours) != 3 {
			t.Errorf("%s: %d values of sample.long.ten (want 4, a second at 250 ms), colours %v", p, ten, colours)
		}
	}
}
