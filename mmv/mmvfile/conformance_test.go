//go:build conformance && unix

package mmvfile_test

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
)

// pmcdFetch asks the running pmcd (127.0.0.1) for the values of metric.
func pmcdFetch(t *testing.T, metric string) string {
	t.Helper()
	out, err := exec.Command("pminfo", "-h", "127.0.0.1", "-f", metric).CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo -f %s: %v\n%s", metric, err, out)
	}
	return string(out)
}

// waitFor polls pmcd until metric's output contains want: pmdammv
// rescans when the directory changes, on its next request.
func waitFor(t *testing.T, metric, want string) string {
	t.Helper()
	var out string
	// 20 s: a loaded CI machine can take a while to schedule pmdammv.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		out, _ = tryFetch(metric)
		if strings.Contains(out, want) {
			return out
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("pmcd never showed %q for %s; last output:\n%s", want, metric, out)
	return out
}

func tryFetch(metric string) (string, error) {
	out, err := exec.Command("pminfo", "-h", "127.0.0.1", "-f", metric).CombinedOutput()
	return string(out), err
}

// TestConformanceLivePmcd writes a file into $PCP_TMP_DIR/mmv, reads it
// back through the running pmcd and its mmv agent, updates values while
// pmcd runs and checks pmcd serves the new ones. It fails when pmcd or
// its mmv agent is not running.
func TestConformanceLivePmcd(t *testing.T) {
	if _, err := exec.LookPath("pminfo"); err != nil {
		t.Fatalf("pminfo is required: %v", err)
	}
	if err := exec.Command("pgrep", "-x", "pmcd").Run(); err != nil {
		t.Fatal("pmcd is not running: the conformance setup must start it with the mmv agent")
	}
	if out, err := exec.Command("pminfo", "-h", "127.0.0.1", "mmv.control.files").CombinedOutput(); err != nil {
		t.Fatalf("pmcd has no mmv agent: %v\n%s", err, out)
	}
	name := "perfwire_live_" + strconv.Itoa(os.Getpid())
	w, err := mmvfile.Create(name, registry(0))
	if err != nil {
		t.Fatalf("create in %s: %v", mmvfile.Dir(), err)
	}
	t.Cleanup(func() {
		w.Close()
		os.Remove(w.Path())
	})
	get, _ := w.Slot("requests", "GET")
	post, _ := w.Slot("requests", "POST")
	temp, _ := w.Slot("temperature", "")
	status, _ := w.Slot("status", "")
	get.Add(5)
	post.Add(11)
	temp.SetFloat(21.5)
	if err := status.SetString("starting"); err != nil {
		t.Fatal(err)
	}
	prefix := "mmv." + name + "."
	out := waitFor(t, prefix+"requests", `inst [1 or "POST"] value 11`)
	if !strings.Contains(out, `inst [0 or "GET"] value 5`) {
		t.Errorf("requests:\n%s", out)
	}
	if out := pmcdFetch(t, prefix+"temperature"); !strings.Contains(out, "value 21.5") {
		t.Errorf("temperature:\n%s", out)
	}
	if out := pmcdFetch(t, prefix+"status"); !strings.Contains(out, `value "starting"`) {
		t.Errorf("status:\n%s", out)
	}
	// Descriptor and pmID as our naming rules predict.
	desc, err := exec.Command("pminfo", "-h", "127.0.0.1", "-dm", prefix+"requests").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(desc), "PMID: "+mmv.PMID(77, 1).String()) ||
		!strings.Contains(string(desc), "InDom: "+mmv.InDomID(77, 1).String()) {
		t.Errorf("descriptor:\n%s", desc)
	}
	// Values updated while pmcd runs are served without a rescan.
	post.Add(1000)
	temp.SetFloat(-3.25)
	if err := status.SetString("running"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, prefix+"requests", `inst [1 or "POST"] value 1011`)
	waitFor(t, prefix+"temperature", "value -3.25")
	waitFor(t, prefix+"status", `value "running"`)
}
