package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/perfwire/perfwire/export/parquet"
)

// kpiJSONLine is a line of perfwire kpi --json.
type kpiJSONLine struct {
	TMSP     int64  `json:"tmsp"`
	Kind     string `json:"kind"`
	Datasets []struct {
		PID    int32   `json:"pid"`
		PPID   *int32  `json:"ppid"`
		Cmd    *string `json:"cmd"`
		CPU    *int64  `json:"cpu"`
		RSS    *int64  `json:"rss"`
		Ctx    *int64  `json:"ctx"`
		IO     *int64  `json:"io"`
		IOWait *int64  `json:"iowait"`
		Name   string  `json:"name"`
		Counts []int64 `json:"counts"`
		// A fragment (truncated) or a dataset that does not parse
		// (error) gives no row.
		Truncated bool    `json:"truncated"`
		Error     *string `json:"error"`
	} `json:"datasets"`
}

func readParquet[T any](t *testing.T, glob string) []T {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) != 1 {
		t.Fatalf("%s: %v, want one file", glob, files)
	}
	rows, err := pq.ReadFile[T](files[0])
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func i64(p *int64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatInt(*p, 10)
}

func i32(p *int32) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(int(*p))
}

func sp(p *string) string {
	if p == nil {
		return "-"
	}
	return strconv.Quote(*p)
}

// TestExportKPIEqualsKPIJSON: kpi_processes has a row for every NEW, ACT
// and STP dataset perfwire kpi --json prints, in its order, with its
// values, and the command and parent the NEW and CHK datasets before it
// gave the process; kpi_irqs a row for every CPU's count of every IRQ
// dataset.
func TestExportKPIEqualsKPIJSON(t *testing.T) {
	for _, name := range []string{"kpi-odd", "kpi-huge-argv0", "excerpt-irq-strtok-race"} {
		t.Run(name, func(t *testing.T) {
			in := kpiTestdata + name + ".dlt"
			var js, stderr bytes.Buffer
			if code := run([]string{"kpi", "--json", in}, &js, &stderr); code != 0 {
				t.Fatalf("kpi --json: exit %d: %s", code, stderr.String())
			}
			out := t.TempDir()
			var sum bytes.Buffer
			if code := run([]string{"export", "--table", "kpi_processes,kpi_irqs", "-o", out, in}, &sum, &stderr); code != 0 {
				t.Fatalf("export: exit %d: %s", code, stderr.String())
			}
			type proc struct {
				ppid *int32
				cmd  *string
			}
			known := map[int32]proc{}
			var want, wantIRQ []string
			sc := bufio.NewScanner(&js)
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				var l kpiJSONLine
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatal(err)
				}
				for _, d := range l.Datasets {
					if d.Truncated || d.Error != nil {
						continue
					}
					switch l.Kind {
					case "CHK":
						p := known[d.PID]
						p.cmd = d.Cmd
						known[d.PID] = p
					case "NEW":
						known[d.PID] = proc{ppid: d.PPID, cmd: d.Cmd}
					case "IRQ":
						for cpu, n := range d.Counts {
							wantIRQ = append(wantIRQ, strconv.FormatInt(l.TMSP, 10)+" "+d.Name+" cpu"+strconv.Itoa(cpu)+" "+strconv.FormatInt(n, 10))
						}
					}
					if l.Kind == "NEW" || l.Kind == "ACT" || l.Kind == "STP" {
						p := known[d.PID]
						want = append(want, strconv.FormatInt(l.TMSP, 10)+" "+l.Kind+" "+strconv.Itoa(int(d.PID))+" "+i32(p.ppid)+" "+sp(p.cmd)+" "+
							i64(d.CPU)+" "+i64(d.RSS)+" "+i64(d.Ctx)+" "+i64(d.IO)+" "+i64(d.IOWait))
					}
					if l.Kind == "STP" {
						delete(known, d.PID)
					}
				}
			}
			rows := readParquet[parquet.KPIProcess](t, filepath.Join(out, "kpi_processes", "host=ECU1", "date=*", "*.parquet"))
			if len(rows) != len(want) || len(want) < 20 {
				t.Fatalf("%d rows, kpi --json has %d process datasets", len(rows), len(want))
			}
			for i, r := range rows {
				got := strconv.FormatInt(r.TMSP, 10) + " " + r.Kind + " " + strconv.Itoa(int(r.PID)) + " " + i32(r.PPID) + " " + sp(r.Command) + " " +
					i64(r.CPU) + " " + i64(r.RSS) + " " + i64(r.Ctx) + " " + i64(r.IO) + " " + i64(r.IOWait)
				if got != want[i] {
					t.Errorf("row %d:\n got %s\nwant %s", i, got, want[i])
				}
				if r.Ended != (r.Kind == "STP") {
					t.Errorf("row %d: ended %v for %s", i, r.Ended, r.Kind)
				}
			}
			irqs := readParquet[parquet.KPIIRQ](t, filepath.Join(out, "kpi_irqs", "host=ECU1", "date=*", "*.parquet"))
			if len(irqs) != len(wantIRQ) || len(irqs) == 0 {
				t.Fatalf("%d IRQ rows, kpi --json has %d counts", len(irqs), len(wantIRQ))
			}
			for i, r := range irqs {
				if got := strconv.FormatInt(r.TMSP, 10) + " " + r.IRQ + " cpu" + strconv.Itoa(int(r.CPU)) + " " + strconv.FormatInt(r.Count, 10); got != wantIRQ[i] {
					t.Errorf("IRQ row %d: %s, kpi --json %s", i, got, wantIRQ[i])
				}
			}
		})
	}
}
