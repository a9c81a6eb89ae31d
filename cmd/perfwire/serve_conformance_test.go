//go:build conformance

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

// perfwire serve --dlt relays the running dlt-daemon (scripts/dlt-up.sh)
// as a .dlt stream that the real dlt-convert reads whole, dlt-kpi's
// messages among them; a daemon that is down is a 502 that says so.
func TestConformanceServeDLT(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>viewer"), 0o644)
	srv := httptest.NewServer(serveMux(dir, "localhost:3490", nil))
	defer srv.Close()

	var live map[string]string
	resp, err := http.Get(srv.URL + "/live")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&live)
	resp.Body.Close()
	if live["dlt"] != "localhost:3490" {
		t.Errorf("/live: %v", live)
	}

	resp, err = http.Get(srv.URL + "/live/dlt")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/live/dlt: %s", resp.Status)
	}
	// dlt-kpi reports every second; 4 s brings its groups whatever the
	// daemon kept for new clients.
	var got bytes.Buffer
	done := time.AfterFunc(4*time.Second, func() { resp.Body.Close() })
	io.Copy(&got, resp.Body)
	done.Stop()
	// Whole records only: the stream was cut at an arbitrary byte.
	s := dlt.NewScanner(got.Bytes(), dlt.Options{})
	n, kpi, end := 0, 0, 0
	for s.Next() {
		m := s.Message()
		n++
		end = m.Offset() + len(m.Bytes())
		if m.AppID() == (dlt.ID{'P', 'R', 'O', 'C'}) {
			kpi++
		}
	}
	if n < 10 || kpi == 0 {
		t.Fatalf("relayed %d bytes: %d messages, %d from dlt-kpi", got.Len(), n, kpi)
	}
	file := filepath.Join(dir, "live.dlt")
	os.WriteFile(file, got.Bytes()[:end], 0o644)
	out, err := exec.Command("dlt-convert", "-a", file).Output()
	if err != nil {
		t.Fatalf("dlt-convert: %v", err)
	}
	if lines := strings.Count(string(out), "\n"); lines != n {
		t.Errorf("dlt-convert -a lists %d messages of the relayed stream, perfwire decoded %d", lines, n)
	}

	down := httptest.NewServer(serveMux(dir, "127.0.0.1:1", nil))
	defer down.Close()
	resp, err = http.Get(down.URL + "/live/dlt")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "dlt-daemon at 127.0.0.1:1 is not reachable") {
		t.Errorf("daemon down: %s %q", resp.Status, body)
	}
}
