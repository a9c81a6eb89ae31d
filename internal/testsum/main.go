// Command testsum reads `go test -json` output, prints what plain
// `go test` would (package results, and a test's output only when it fails
// or skips), and ends with one line counting the tests:
// "N passed, N failed, N skipped". scripts/test.sh pipes go test into it
// so that a whole-module run has a closing count. It exits 1 if any test
// or package failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// event is the part of a test2json record testsum needs.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func main() {
	var passed, failed, skipped int
	pkgFailed := false
	held := map[string][]string{} // output of running tests, by package/test
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var e event
		if err := json.Unmarshal(in.Bytes(), &e); err != nil {
			// go test prints build failures as plain text.
			fmt.Fprintln(out, in.Text())
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "output" && e.Test == "":
			out.WriteString(e.Output)
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			pkgFailed = pkgFailed || e.Action == "fail"
			if e.Action == "fail" {
				// A test binary that panics or times out ends its package
				// with the tests it was running still open: show what they
				// printed and count them, or the failure has no cause.
				failed += unfinished(out, held, e.Package)
			}
		case e.Action == "pass":
			passed++
			delete(held, key)
		case e.Action == "fail", e.Action == "skip":
			if e.Action == "fail" {
				failed++
			} else {
				skipped++
			}
			for _, line := range held[key] {
				out.WriteString(line)
			}
			delete(held, key)
		}
		out.Flush()
	}
	fmt.Fprintf(out, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	out.Flush()
	if failed > 0 || pkgFailed || in.Err() != nil {
		os.Exit(1)
	}
}

// unfinished prints the held output of pkg's tests that never ended,
// forgets it, and returns how many there were.
func unfinished(out *bufio.Writer, held map[string][]string, pkg string) int {
	var keys []string
	for k := range held {
		if strings.HasPrefix(k, pkg+" ") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "--- unfinished: %s\n", k)
		for _, line := range held[k] {
			out.WriteString(line)
		}
		delete(held, k)
	}
	return len(keys)
}
