package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfwire/perfwire/export/parquet"
)

const exportUsage = `usage: perfwire export [--format parquet] [--table T,...] [--partition host,date]
                       [--row-group-size BYTES] [--rates] [--host H] [-j N] -o DIR INPUT...
       perfwire export [flags] --dlt HOST[:PORT] [--roll D] [--roll-size BYTES] [--rolls N] -o DIR
       perfwire export [flags] --pmcd HOST[:PORT] [--interval D] [--roll D] [--rolls N] -o DIR METRIC...

Writes every input as Parquet tables under DIR, one directory per table
(pcp_values, pcp_events, pcp_metrics, pcp_instances, dlt_messages,
kpi_processes, kpi_irqs, mmv_values), in Hive partitions TABLE/host=H/date=YYYY-MM-DD/part-ID.parquet.
INPUT is a PCP archive (any file of it or its base name; compressed
volumes too), a DLT file (dlt_messages, and the dlt-kpi tables when it
carries dlt-kpi messages) or an MMV file (mmv_values). Inputs are read in parallel, -j at a time
(default GOMAXPROCS). Each input's files appear whole once it is done:
exporting the same input again replaces them. Columns: docs/export.md.

A damaged input is exported up to its damage and named on stderr with the
offset; the exit status is then 1.

--dlt follows a running dlt-daemon and --pmcd samples a pmcd's METRICs
every --interval; both write rolling files, a new set every --roll (and,
for --dlt, every --roll-size bytes of messages), each set visible only
once it is closed. An interrupt closes the current set and ends the run
(for --pmcd after the roll being recorded).`

func runExport(args []string, stdout io.Writer) error {
	fs := quietFlags("export")
	format := fs.String("format", "parquet", "output format (parquet)")
	tables := fs.String("table", "", "tables to write, comma-separated (default: all the inputs have)")
	partition := fs.String("partition", "host,date", "Hive partition keys, comma-separated, or none")
	rowGroup := fs.Int64("row-group-size", parquet.DefaultRowGroupSize, "bound of a row group, bytes of row contents before encoding")
	rates := fs.Bool("rates", false, "add counters' rates to pcp_values")
	host := fs.String("host", "", "host column for every input (default: the archive's host, the DLT ECU)")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "inputs read at once")
	out := fs.String("o", "", "output directory")
	dltAddr := fs.String("dlt", "", "follow this dlt-daemon")
	pmcd := fs.String("pmcd", "", "sample this pmcd")
	interval := fs.Duration("interval", 10*time.Second, "--pmcd: sampling interval")
	roll := fs.Duration("roll", time.Hour, "live sources: a new set of files this often")
	rollSize := fs.Int64("roll-size", 256<<20, "--dlt: a new set of files after this many bytes of messages")
	rolls := fs.Int("rolls", 0, "live sources: stop after this many sets of files (0: when interrupted)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return usagef("%s", exportUsage)
		}
		return usagef("%v\n%s", err, exportUsage)
	}
	if *format != "parquet" {
		return usagef("--format %s: only parquet is written\n%s", *format, exportUsage)
	}
	live := *dltAddr != "" || *pmcd != ""
	switch {
	case *out == "":
		return usagef("an output directory (-o) is needed\n%s", exportUsage)
	case *dltAddr != "" && *pmcd != "":
		return usagef("--dlt and --pmcd are separate runs")
	case *dltAddr != "" && fs.NArg() > 0:
		return usagef("--dlt takes no inputs")
	case *pmcd != "" && fs.NArg() == 0:
		return usagef("--pmcd needs the metrics to sample")
	case !live && fs.NArg() == 0:
		return usagef("at least one input is needed\n%s", exportUsage)
	case *roll <= 0 || *interval <= 0 || *rollSize <= 0 || *rolls < 0 || *rowGroup <= 0:
		return usagef("--roll, --interval, --roll-size, --row-group-size must be positive")
	}
	d := &parquet.Dir{Root: *out, Options: parquet.Options{RowGroupSize: *rowGroup, Rates: *rates}}
	if *tables != "" {
		d.Tables = strings.Split(*tables, ",")
		for _, t := range d.Tables {
			if !known(parquet.Tables, t) {
				return usagef("--table %s: no such table (%s)", t, strings.Join(parquet.Tables, ", "))
			}
		}
	}
	d.Partition = []string{}
	if *partition != "none" && *partition != "" {
		d.Partition = strings.Split(*partition, ",")
		for _, k := range d.Partition {
			if k != "host" && k != "date" {
				return usagef("--partition %s: keys are host and date", k)
			}
		}
	}
	switch {
	case *dltAddr != "":
		return liveDLT(d, *dltAddr, *host, *roll, *rollSize, *rolls, stdout)
	case *pmcd != "":
		return livePmcd(d, *pmcd, *interval, *roll, *rolls, fs.Args(), stdout)
	}
	e := &exporter{dir: d, host: *host, inputs: fs.Args()}
	return e.run(max(*jobs, 1), stdout)
}

func known(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// exporter runs one perfwire export: its inputs, its workers' totals.
type exporter struct {
	dir    *parquet.Dir
	host   string
	inputs []string

	mu       sync.Mutex
	failed   []error
	stats    parquet.Stats
	rows     int64 // rows made, committed or not
	bytesIn  int64
	done     int // inputs finished
	progress *exportProgress
}

func (e *exporter) run(jobs int, stdout io.Writer) error {
	start := time.Now()
	var total int64
	for _, in := range e.inputs {
		total += inputSize(in)
	}
	e.progress = newExportProgress(total, len(e.inputs))
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(jobs, len(e.inputs)) {
		wg.Go(func() {
			for in := range work {
				e.one(in)
			}
		})
	}
	for _, in := range e.inputs {
		work <- in
	}
	close(work)
	wg.Wait()
	e.progress.finish()
	secs := time.Since(start).Seconds()
	fmt.Fprintf(stdout, "exported %d of %d inputs whole: %d files, %d rows, %s in, %s out, %.1fs (%.0f rows/s, %.1f MB/s in)\n",
		len(e.inputs)-len(e.failed), len(e.inputs), e.stats.Files, e.stats.Rows, sizeText(e.bytesIn), sizeText(e.stats.Bytes), secs,
		float64(e.stats.Rows)/secs, float64(e.bytesIn)/1e6/secs)
	if len(e.failed) > 0 {
		for _, err := range e.failed {
			fmt.Fprintf(diag, "perfwire export: %v\n", err)
		}
		return &exportFailed{n: len(e.failed), of: len(e.inputs)}
	}
	return nil
}

// exportFailed is the error of a run in which some inputs failed; each
// was named on stderr already.
type exportFailed struct{ n, of int }

func (e *exportFailed) Error() string {
	return strconv.Itoa(e.n) + " of " + strconv.Itoa(e.of) + " inputs damaged or not written"
}

// one exports one input. Damage in the input keeps what was read before
// it; a failure to write keeps nothing of this input and leaves the
// files of its previous export in place.
func (e *exporter) one(in string) {
	o := e.dir.Output(partID(in))
	o.Progress = func(rows, bytes int64) { e.progress.add(rows, bytes) }
	rows, size, err := exportInput(o, in, e.host)
	var werr *writeError
	if errors.As(err, &werr) {
		o.Abort()
	} else if cerr := o.Commit(); cerr != nil {
		err = errors.Join(err, &writeError{file: in, err: cerr})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rows += rows
	e.bytesIn += size
	e.done++
	e.progress.inputDone()
	e.stats.Files += o.Stats.Files
	e.stats.Rows += o.Stats.Rows
	e.stats.Bytes += o.Stats.Bytes
	if err != nil {
		e.failed = append(e.failed, err)
	}
}

// writeError is a failure to write the export (a full disk), as opposed
// to damage in the input.
type writeError struct {
	file string
	err  error
}

func (e *writeError) Error() string { return e.file + ": writing the export: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// partID names an input's files: the same input, named the same way,
// gets the same files on every run, so that a re-run replaces them.
func partID(in string) string {
	abs, err := filepath.Abs(in)
	if err != nil {
		abs = in
	}
	h := fnv.New64a()
	h.Write([]byte(abs))
	return strconv.FormatUint(h.Sum64(), 16)
}

// inputSize is the size of an input's files: an archive's every file.
func inputSize(in string) int64 {
	if isArchiveInput(in) {
		return archiveFilesSize(in)
	}
	if st, err := os.Stat(in); err == nil {
		return st.Size()
	}
	return 0
}

// sizeText is a byte count in the unit that suits it.
func sizeText(n int64) string {
	switch {
	case n >= 10<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	case n >= 10<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 10<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
