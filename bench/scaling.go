package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

// The scaling figure's goals: cost per byte that does not grow with the
// input, and memory that does not either, beyond the input itself.
const (
	// scaleLinear is the largest ratio of ns/byte between any two sizes
	// ≥ scaleFrom.
	scaleLinear = 1.5
	// scaleFrom is the smallest size the linearity goal looks at: below
	// it a pass is too short for its cost per byte to mean much.
	scaleFrom = 1 << 20
	// scaleMemBound bounds peak RSS minus the input's resident bytes at
	// every size: the harness's own start-up RSS and a decoder's fixed
	// buffers fit in it, a copy of a 32 MB input does not.
	scaleMemBound = 32 << 20
)

// scaleSizes are the input sizes of a full run; -quick stops at 1 MB.
var scaleSizes = []int{1 << 10, 32 << 10, 1 << 20, 32 << 20, 1 << 30}

// quickMode reports whether the harness runs with -quick (the figure's
// table entry takes only a Config).
func quickMode() bool {
	f := flag.Lookup("quick")
	return f != nil && f.Value.String() == "true"
}

// scaleResult is one decoder's verdict over its points.
type scaleResult struct {
	spread  float64 // largest ÷ smallest median ns/byte at sizes ≥ scaleFrom
	linear  bool
	maxOver int64 // largest peak RSS − resident input
	flat    bool
	// fixed and perByte fit cost = fixed + perByte × bytes through the
	// smallest and the largest point ≥ scaleFrom: what a miss is made of.
	fixed, perByte float64
	// rises and falls say whether ns/byte went up (down) from one size
	// ≥ scaleFrom to the next; peak is the size where it was highest.
	rises, falls bool
	peak         int
}

// scaleVerdict judges one decoder's points (those that failed are not
// judged: the figure reports them as errors).
func scaleVerdict(points []scalePoint) scaleResult {
	var r scaleResult
	lo, hi := 0.0, 0.0
	seen := false
	var first, last *scalePoint
	base := 0.0
	for _, p := range points {
		if p.Size == scaleFrom && p.Err == "" {
			base = p.Med
		}
	}
	points = append([]scalePoint(nil), points...)
	for i := range points {
		p := &points[i]
		if p.Err != "" || p.Med <= 0 {
			continue
		}
		if base > 0 && p.RefMed > 0 {
			// Judged at the ratio to the reference timed beside it,
			// in the 1 MB child's ns/byte: drift between children
			// is the host's, not the decoder's.
			p.Med = p.Med / p.RefMed * base
		}
		if !seen || p.overhead() > r.maxOver {
			r.maxOver = p.overhead()
		}
		seen = true
		if p.Size < scaleFrom {
			continue
		}
		if first == nil {
			first = p
		}
		if last != nil {
			r.rises = r.rises || p.Med > last.Med
			r.falls = r.falls || p.Med < last.Med
		}
		last = p
		if lo == 0 || p.Med < lo {
			lo = p.Med
		}
		if p.Med > hi {
			hi, r.peak = p.Med, p.Size
		}
	}
	if lo > 0 {
		r.spread = hi / lo
		r.linear = r.spread <= scaleLinear
	}
	if first != nil && last != first {
		t1, t2 := first.Med*float64(first.Bytes), last.Med*float64(last.Bytes)
		r.perByte = (t2 - t1) / float64(last.Bytes-first.Bytes)
		r.fixed = t1 - r.perByte*float64(first.Bytes)
	}
	r.flat = seen && r.maxOver <= scaleMemBound
	return r
}

func figScaling(cfg Config) Figure {
	f := Figure{
		ID:    "scaling",
		Title: "Cost and memory against input size, every decoder (inputs: real records repeated)",
		Unit:  "pass over the whole input, every record read and counted",
		Goal: fmt.Sprintf("ns/byte at every size ≥ 1 MB within %.1fx of the smallest such; peak RSS − the input's resident bytes ≤ %d MiB at every size",
			scaleLinear, scaleMemBound>>20),
	}
	sizes := scaleSizes
	if quickMode() {
		sizes = scaleSizes[:3]
	}
	results := make([][]scalePoint, len(scalers))
	for i, s := range scalers {
		for _, size := range sizes {
			if size < s.minSize || (s.maxSize > 0 && size > s.maxSize) {
				results[i] = append(results[i], scalePoint{Size: size})
				continue
			}
			t0 := time.Now()
			p := runScaleChild(i, size, cfg)
			fmt.Fprintf(os.Stderr, "   scaling %s at %s: %.3f ns/B (1 MB beside it: %.3f), peak %s (%s)\n", s.name, sizeLabel(size), p.Med,
				p.RefMed, mib(p.PeakRSS), time.Since(t0).Round(time.Millisecond))
			switch {
			case p.Err != "":
				f.Stats = append(f.Stats, Stat{Name: s.name + " at " + sizeLabel(size), Err: p.Err})
			case p.Records != p.Want:
				f.Notes = append(f.Notes, fmt.Sprintf("checksum differs: %s at %s read %d %s, the input holds %d",
					s.name, sizeLabel(size), p.Records, s.what, p.Want))
			}
			results[i] = append(results[i], p)
		}
	}
	f.Markdown, f.Verdict, f.SummaryNote = scaleTable(sizes, results)
	if quickMode() {
		f.Notes = append(f.Notes, "quick mode: sizes up to 1 MB, so linearity is judged on one size.")
	}
	if len(f.Stats) == 0 {
		// Without a table of sides the report prints no notes: they go
		// under the figure's own table.
		for _, n := range f.Notes {
			f.Markdown += "- " + n + "\n"
		}
	}
	return f
}

// scaleTable renders the points (rows: decoders; columns: sizes) and
// returns the table, the verdict and the summary.
func scaleTable(sizes []int, results [][]scalePoint) (md, verdict, summary string) {
	var b strings.Builder
	b.WriteString("Each cell: median ns per input byte over the rounds (thread CPU time) · peak RSS − the input's resident bytes, MiB. " +
		"Each size runs in a child process of its own (the harness re-executed) that builds its input, frees what building left, " +
		"resets VmHWM (/proc/self/clear_refs) and reads it after the passes. Above 1 MB the child also builds a 1 MB input and times a round of it " +
		"after each round of the size (its resident bytes count as input): (N x) is the size's ns/byte over that 1 MB reference's, measured side by side, " +
		"so the host's drift between children run minutes apart (on a shared host the same child's ns/byte can move by half within minutes) is not read as the decoder's. " +
		"Spread: largest ÷ smallest of the 1 MB child's ns/byte and, above it, that times (N x).\n\n")
	b.WriteString("| decoder | counts |")
	for _, s := range sizes {
		b.WriteString(" " + sizeLabel(s) + " |")
	}
	b.WriteString(" spread ≥ 1 MB | linear | max MiB over input | memory flat |\n|")
	b.WriteString(strings.Repeat("---|", len(sizes)+6) + "\n")
	met, checked := 0, 0
	var misses []string
	var inputs []string
	for i, s := range scalers {
		r := scaleVerdict(results[i])
		fmt.Fprintf(&b, "| %s | %s |", s.name, s.what)
		var in []string
		for _, p := range results[i] {
			switch {
			case p.Err != "":
				b.WriteString(" error |")
			case p.Med == 0:
				b.WriteString(" — |")
			case p.RefMed > 0:
				fmt.Fprintf(&b, " %.3g (%.2fx) · %.1f |", p.Med, p.Med/p.RefMed, float64(p.overhead())/(1<<20))
				in = append(in, p.inputLine(s.what))
			default:
				fmt.Fprintf(&b, " %.3g · %.1f |", p.Med, float64(p.overhead())/(1<<20))
				in = append(in, p.inputLine(s.what))
			}
		}
		lin, flat := yesNo(r.linear), yesNo(r.flat)
		fmt.Fprintf(&b, " %.2fx | %s | %.1f | %s |\n", r.spread, lin, float64(r.maxOver)/(1<<20), flat)
		checked += 2
		if r.linear {
			met++
		} else {
			misses = append(misses, fmt.Sprintf("%s not linear (spread %.2fx; %s)", s.name, r.spread, r.shape()))
		}
		if r.flat {
			met++
		} else {
			misses = append(misses, fmt.Sprintf("%s memory not flat (%.1f MiB over input)", s.name, float64(r.maxOver)/(1<<20)))
		}
		line := s.name + ": " + strings.Join(in, ", ")
		if s.why != "" {
			line += "; left out: " + s.why
		}
		inputs = append(inputs, line)
	}
	b.WriteString("\nInputs (bytes and the records a pass counted, equal to what each holds by construction):\n\n- " + strings.Join(inputs, "\n- ") + "\n\n")
	summary = fmt.Sprintf("%d of %d decoders linear, %d of %d flat in memory", countYes(results, true), len(scalers), countYes(results, false), len(scalers))
	if len(misses) > 0 {
		b.WriteString("**Missed:** " + strings.Join(misses, "; ") + ".\n\n")
		summary += " (missed: " + strings.Join(misses, "; ") + ")"
	}
	return b.String(), verdictOf(met, checked), summary
}

// inputLine is the point's input and what a pass over it cost beside
// the decoding, for the figure's list of inputs.
func (p *scalePoint) inputLine(what string) string {
	return fmt.Sprintf("%d B (%d %s; %.2g faults, %.3g allocations per pass)", p.Bytes, p.Records, what, p.Faults, p.Allocs)
}

// shape says whether a cost per byte that is not flat falls with the
// size (a fixed cost per pass), grows with it, or neither.
func (r scaleResult) shape() string {
	switch {
	case r.falls && !r.rises && r.fixed > 0 && r.perByte > 0:
		return fmt.Sprintf("cost falls with size: a fixed %s per pass, then %.3g ns/byte", human(r.fixed), r.perByte)
	case r.rises && !r.falls:
		return "cost per byte grows with size"
	}
	return "not monotonic in size: highest at " + sizeLabel(r.peak)
}

// countYes counts the decoders that are linear (or flat in memory).
func countYes(results [][]scalePoint, linear bool) int {
	n := 0
	for _, ps := range results {
		r := scaleVerdict(ps)
		if (linear && r.linear) || (!linear && r.flat) {
			n++
		}
	}
	return n
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func sizeLabel(n int) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
