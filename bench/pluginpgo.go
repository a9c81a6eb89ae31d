package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/perfwire/perfwire/render"
)

// writePGO profiles native Go on the three throughput plugin figures'
// calls (kpi_decode of kpi-odd.dlt, the 1 MB RESULT stream fed in 64 KB
// chunks, mmv_read of the large MMV file), each for about per, and
// writes the CPU profile to path: the hot call sites PGO inlines are
// those of the workloads the figures time. Inlining decisions do not
// depend on the architecture, so a native profile guides the wasm build
// (wasm/size's package comment has what it buys and costs).
func writePGO(path string, per time.Duration) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	kpi, err := os.ReadFile(filepath.Join(root, "wasm/testdata/kpi-odd.dlt"))
	if err != nil {
		return err
	}
	stream, err := pluginStreamInput(root)
	if err != nil {
		return err
	}
	mmvIn, err := pluginMMVInput(root)
	if err != nil {
		return err
	}
	var out []byte
	calls := []func(){
		func() { out = render.AppendKPIMessages(out[:0], kpi, 0, 0) },
		func() {
			s := render.NewPDUSession(0)
			for off := 0; off < len(stream); off += streamChunk {
				out = s.AppendFeed(out[:0], stream[off:min(off+streamChunk, len(stream))])
			}
			out = s.AppendEnd(out[:0])
		},
		func() { out = render.AppendMMV(out[:0], mmvIn, false) },
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	for _, call := range calls {
		for start := time.Now(); time.Since(start) < per; {
			call()
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
