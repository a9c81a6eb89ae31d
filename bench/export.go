package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// exportHosts is the full run's fleet, the issue's: 1,000 hosts, a day
// each; a tenth of them (100) is exported beside it to show whether peak
// RSS grows with hosts. -quick keeps 10 hosts of 10 minutes.
const exportHosts = 1000

// maxExportRSS is the bound on an export's peak RSS, whatever
// the input.
const maxExportRSS = 256 << 20

// figExport is the fleet simulation of `perfwire export`: the
// program export/fleet, in the main module because it links
// export/parquet's dependencies, which this module does not carry, runs
// from the repository's root and prints the figure's table. The goals:
// export at 20x pcp2json's rate on the same archive, peak RSS at most
// 256 MiB (the bound for any input) and flat in the number of
// hosts, output no larger than the archives as stored, their
// .meta and volumes zstd-compressed as pmlogger_daily leaves them.
func figExport(cfg Config, quick bool) Figure {
	f := Figure{ID: "export", Title: "fleet export to Parquet, read by DuckDB", Unit: "fleet export",
		Goal: "≥ 20x pcp2json's rate; peak RSS ≤ 256 MiB and flat in hosts; output ≤ the archives' compressed size"}
	args := []string{"run", "./export/fleet", "-hosts", strconv.Itoa(exportHosts), "-span", "24h", "-peer-span", "24h", "-peer-samples", "1440"}
	if quick {
		args = []string{"run", "./export/fleet", "-hosts", "10", "-span", "10m", "-peer-span", "1h", "-peer-samples", "60"}
	}
	sum := filepath.Join(os.TempDir(), "perfwire-bench-export.json")
	defer os.Remove(sum)
	cmd := exec.Command("go", append(args, "-summary", sum)...)
	cmd.Dir = ".."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		f.Verdict = "no"
		f.Markdown = "The fleet simulation failed: " + err.Error() + "\n"
		return f
	}
	f.Markdown = string(out)
	if !quick {
		f.Markdown += "\nThe peer ratio is taken on one host-day's archive, the same file for both tools, each tool's best of 3 interleaved runs; " +
			"peak RSS is compared with a tenth of the fleet exported in the same run.\n"
	}
	var s struct {
		RowsPerSec, PeerRatio, OutOverZstd, QuerySec float64
		RSSAll, RSSTenth                             int64
	}
	b, err := os.ReadFile(sum)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		f.Verdict = "no"
		return f
	}
	if s.PeerRatio < 20 {
		f.SubMiss = append(f.SubMiss, "export at "+strconv.FormatFloat(s.PeerRatio, 'f', 1, 64)+"x pcp2json's rate, under 20x.")
	}
	if s.RSSAll > maxExportRSS {
		f.SubMiss = append(f.SubMiss, "peak RSS "+strconv.FormatInt(s.RSSAll>>20, 10)+" MiB for the fleet, over 256 MiB.")
	}
	// Flat: the whole fleet's peak within 1.5x a tenth of it.
	if float64(s.RSSAll) > 1.5*float64(s.RSSTenth) {
		f.SubMiss = append(f.SubMiss, "peak RSS "+strconv.FormatInt(s.RSSAll>>20, 10)+" MiB for the fleet, "+strconv.FormatInt(s.RSSTenth>>20, 10)+" MiB for a tenth: not flat.")
	}
	if s.OutOverZstd > 1 {
		f.SubMiss = append(f.SubMiss, "output "+strconv.FormatFloat(s.OutOverZstd, 'f', 2, 64)+"x the archives' size as stored (zstd).")
	}
	f.SummaryNote = strconv.FormatFloat(s.PeerRatio, 'f', 1, 64) + "x pcp2json; " + strconv.FormatFloat(s.RowsPerSec/1e6, 'f', 2, 64) + "M rows/s"
	switch {
	case len(f.SubMiss) == 0:
		f.Verdict = "yes"
	case s.PeerRatio >= 20:
		f.Verdict = "partly"
	default:
		f.Verdict = "no"
	}
	return f
}
