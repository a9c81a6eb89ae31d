package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"
)

// profileFigure CPU-profiles the perfwire side of a figure (its first
// side) for about d and returns the top of `go tool pprof -top`: where
// the time goes, and for a missed goal the evidence behind the figure's
// Miss text. The profile is kept in bench/profiles/<id>.pprof (not
// committed) for `go tool pprof`.
func profileFigure(f *Figure, d time.Duration) string {
	if f.profile == nil {
		return ""
	}
	if err := os.MkdirAll("profiles", 0o755); err != nil {
		return ""
	}
	path := filepath.Join("profiles", f.ID+".pprof")
	out, err := os.Create(path)
	if err != nil {
		return ""
	}
	n := 1
	if st := f.ours(); st != nil && st.N > 0 {
		n = st.N
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return ""
	}
	for t0 := time.Now(); time.Since(t0) < d; {
		f.profile(n)
	}
	pprof.StopCPUProfile()
	out.Close()
	self, _ := os.Executable()
	cmd := exec.Command("go", "tool", "pprof", "-top", "-nodecount=12", self, path)
	var b bytes.Buffer
	cmd.Stdout = &b
	if err := cmd.Run(); err != nil {
		return ""
	}
	// Keep the table, drop pprof's preamble.
	var keep []string
	started := false
	for l := range strings.SplitSeq(b.String(), "\n") {
		if strings.Contains(l, "flat%") {
			started = true
		}
		if started && strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return fmt.Sprintf("CPU profile of %q (%s, %s):\n\n```\n%s\n```\n", f.Stats[0].Name, d, path, strings.Join(keep, "\n"))
}
