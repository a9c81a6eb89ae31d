package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/internal/fleetgen"
)

// TestExportCompressedEqualsPlain: the same host's archive written plain
// and with its .meta and volume zstd-compressed, as the fleet figure
// stores them, exports to the same files, byte for byte, whose
// pcp_values rows are every metric at every sample; the two summaries
// agree up to their byte counts (the inputs' sizes differ). The
// compressed volume is exported held in memory (under the default spill
// threshold) and spilled to a temporary file (over a threshold of one
// byte), which is gone once the export ends.
func TestExportCompressedEqualsPlain(t *testing.T) {
	for _, tc := range []struct {
		name       string
		spillAbove int64
		spills     int
	}{{"memory", 0, 0}, {"spilled", 1, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			saved := archiveOptions
			t.Cleanup(func() { archiveOptions = saved })
			spills := 0
			archiveOptions.SpillAbove = tc.spillAbove
			archiveOptions.Spill = func() (archive.SpillFile, error) {
				spills++
				return tempSpill()
			}
			testExportCompressedEqualsPlain(t)
			if spills != tc.spills {
				t.Errorf("%d files spilled, want %d", spills, tc.spills)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left in the temporary directory: %v", left)
			}
		})
	}
}

func testExportCompressedEqualsPlain(t *testing.T) {
	srcs, err := fleetgen.ReadSource(archiveData + "m3")
	if err != nil {
		t.Fatal(err)
	}
	const nmetrics, samples = 30, 2880
	metrics := fleetgen.Metrics(srcs, nmetrics)
	start := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	out := map[fleetgen.Compression]string{}
	summary := map[fleetgen.Compression]string{}
	for _, c := range []fleetgen.Compression{fleetgen.Plain, fleetgen.Zstd} {
		dir := t.TempDir()
		base := filepath.Join(dir, "host0007")
		if _, err := fleetgen.WriteHost(base, 7, metrics, start, 10*time.Second, samples, c); err != nil {
			t.Fatal(err)
		}
		names, _ := filepath.Glob(base + ".*")
		slices.Sort(names)
		input := base + ".meta"
		// The volume is over the archive reader's 1 MiB chunk of a
		// decompressed file: records cross the chunks.
		if st, err := os.Stat(base + ".0"); c == fleetgen.Plain && (err != nil || st.Size() < 2<<20) {
			t.Fatalf("the plain volume: %v, %v; want 2 MiB or more", st, err)
		}
		if c == fleetgen.Zstd {
			want := []string{base + ".0.zst", base + ".index", base + ".meta.zst"}
			if !slices.Equal(names, want) {
				t.Fatalf("compressed archive's files %v, want %v", names, want)
			}
			input += ".zst"
		}
		out[c] = t.TempDir()
		var stdout, stderr bytes.Buffer
		if code := run([]string{"export", "-o", out[c], input}, &stdout, &stderr); code != 0 {
			t.Fatalf("export %s: exit %d\n%s", input, code, stderr.String())
		}
		// "exported 1 of 1 inputs whole: F files, R rows, B bytes in, ..."
		// without the bytes, which differ.
		s := stdout.String()
		if i := strings.Index(s, " rows"); i > 0 {
			s = s[:i]
		}
		summary[c] = s
	}
	if summary[fleetgen.Plain] != summary[fleetgen.Zstd] {
		t.Errorf("summaries differ:\nplain %q\nzstd  %q", summary[fleetgen.Plain], summary[fleetgen.Zstd])
	}
	// The files' names hash the input's path; their partitions and
	// contents must agree.
	plain, zst := partFiles(t, out[fleetgen.Plain]), partFiles(t, out[fleetgen.Zstd])
	if len(plain) != len(zst) || len(plain) == 0 {
		t.Fatalf("files exported from the compressed archive %v, from the plain one %v", zst, plain)
	}
	for i := range plain {
		if filepath.Dir(plain[i]) != filepath.Dir(zst[i]) {
			t.Fatalf("partition %s from the compressed archive, %s from the plain one", zst[i], plain[i])
		}
		a, err := os.ReadFile(filepath.Join(out[fleetgen.Plain], plain[i]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out[fleetgen.Zstd], zst[i]))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs: %d bytes from the plain archive, %d from the compressed one", filepath.Dir(zst[i]), len(a), len(b))
		}
	}
	var rows int64
	for _, p := range zst {
		if !strings.HasPrefix(p, "pcp_values"+string(filepath.Separator)) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(out[fleetgen.Zstd], p))
		if err != nil {
			t.Fatal(err)
		}
		f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rows += f.NumRows()
	}
	if rows != nmetrics*samples {
		t.Errorf("pcp_values: %d rows, want %d metrics at %d samples, %d", rows, nmetrics, samples, nmetrics*samples)
	}
}
