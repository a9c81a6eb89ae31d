package dltkpi

import (
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
)

// truthProc is one row of a capture's .truth.tsv: what /proc said about a
// spawned test process 0.3 s after it started.
type truthProc struct {
	pid, ppid  int32
	label      string
	comm       []byte
	argv0      []byte
	cmdlineLen int
	rssPages   int64
}

func readTruth(t testing.TB, name string) []truthProc {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".truth.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var out []truthProc
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		num := func(s string) int64 {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", name, line, err)
			}
			return n
		}
		comm, err1 := hex.DecodeString(f[3])
		argv0, err2 := hex.DecodeString(f[5])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad hex in %q", name, line)
		}
		out = append(out, truthProc{
			pid: int32(num(f[0])), ppid: int32(num(f[1])), label: f[2],
			comm: comm, argv0: argv0, cmdlineLen: int(num(f[6])), rssPages: num(f[7]),
		})
	}
	return out
}
