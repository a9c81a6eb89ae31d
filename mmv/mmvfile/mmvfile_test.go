//go:build unix

package mmvfile_test

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/mmv/mmvfile"
	"github.com/perfwire/perfwire/pcp"
)

// registry is a small file with a counter over an indom, a gauge and a
// string.
func registry(flags mmv.Flags) *mmv.Registry {
	return &mmv.Registry{
		Cluster: 77,
		Flags:   flags,
		Indoms:  []mmv.IndomDef{{Serial: 1, Instances: []mmv.InstanceDef{{ID: 0, Name: "GET"}, {ID: 1, Name: "POST"}}}},
		Metrics: []mmv.MetricDef{
			{Name: "requests", Item: 1, Type: mmv.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), Indom: 1},
			{Name: "temperature", Item: 2, Type: mmv.TypeDouble, Sem: pcp.SemInstant},
			{Name: "status", Item: 3, Type: mmv.TypeString, Sem: pcp.SemDiscrete},
		},
	}
}

func TestCreateOpenLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app")
	w, err := mmvfile.CreatePath(path, registry(0))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 || st.Size() != int64(w.Plan().Size()) {
		t.Errorf("mode %v size %d, want 0644 and %d", st.Mode().Perm(), st.Size(), w.Plan().Size())
	}
	post, err := w.Slot("requests", "POST")
	if err != nil {
		t.Fatal(err)
	}
	status, _ := w.Slot("status", "")
	post.Add(3)
	m, err := mmvfile.Open(path, mmv.Options{Order: binary.NativeEndian})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	h := m.File.Header()
	if h.Gen1 == 0 || h.Gen1 != h.Gen2 || h.Process != int32(os.Getpid()) {
		t.Errorf("header %+v", h)
	}
	v := m.File.Value(1)
	if got := v.Uint(); got != 3 {
		t.Fatalf("POST = %d, want 3", got)
	}
	// Updates through the writer's mapping show through the reader's.
	post.Add(4)
	if err := status.SetString("ok"); err != nil {
		t.Fatal(err)
	}
	if got := v.Uint(); got != 7 {
		t.Errorf("live POST = %d, want 7", got)
	}
	if got := string(m.File.Value(3).Text()); got != "ok" {
		t.Errorf("live status = %q", got)
	}
	if m.File.Stale() {
		t.Error("stale without republish")
	}
	mmv.Republish(w.Bytes(), binary.NativeEndian, h.Gen1+1)
	if !m.File.Stale() {
		t.Error("republish not noticed")
	}
	if err := m.Reload(); err != nil || m.File.Stale() {
		t.Errorf("reload: %v", err)
	}
	// Creating again replaces the file.
	w2, err := mmvfile.CreatePath(path, registry(0))
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
}

func TestCloseRemovesProcessFiles(t *testing.T) {
	dir := t.TempDir()
	w, err := mmvfile.CreatePath(filepath.Join(dir, "p"), registry(mmv.FlagProcess))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "p")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("PROCESS file left behind: %v", err)
	}
	w, err = mmvfile.CreatePath(filepath.Join(dir, "k"), registry(0))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := os.Stat(filepath.Join(dir, "k")); err != nil {
		t.Errorf("plain file removed: %v", err)
	}
}

func TestErrors(t *testing.T) {
	_, err := mmvfile.CreatePath("/nonexistent-dir-perfwire/app", registry(0))
	if !errors.Is(err, mmvfile.ErrNoDir) {
		t.Errorf("missing dir: %v", err)
	}
	bad := registry(0)
	bad.Metrics[0].Item = 5000
	if _, err := mmvfile.CreatePath(filepath.Join(t.TempDir(), "x"), bad); !errors.Is(err, mmv.ErrRange) {
		t.Errorf("bad registry: %v", err)
	}
	short := filepath.Join(t.TempDir(), "short")
	os.WriteFile(short, []byte("MMV\x00"), 0o644)
	if _, err := mmvfile.Open(short, mmv.Options{}); !errors.Is(err, mmv.ErrTruncated) {
		t.Errorf("short file: %v", err)
	}
	if _, err := mmvfile.Open(filepath.Join(t.TempDir(), "none"), mmv.Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestDir(t *testing.T) {
	t.Setenv("PCP_TMP_DIR", "/some/tmp")
	if got := mmvfile.Dir(); got != "/some/tmp/mmv" {
		t.Errorf("Dir() = %s", got)
	}
	t.Setenv("PCP_TMP_DIR", "")
	conf := filepath.Join(t.TempDir(), "pcp.conf")
	os.WriteFile(conf, []byte("# comment\nPCP_TMP_DIR=/conf/tmp\n"), 0o644)
	t.Setenv("PCP_CONF", conf)
	if got := mmvfile.Dir(); got != "/conf/tmp/mmv" {
		t.Errorf("Dir() from pcp.conf = %s", got)
	}
}

func TestScan(t *testing.T) {
	dir := t.TempDir()
	live, err := mmvfile.CreatePath(filepath.Join(dir, "b_live"), registry(mmv.FlagProcess))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	dead := registry(mmv.FlagProcess)
	dead.Process = 0x7ffffff0 // no such pid
	w, err := mmvfile.CreatePath(filepath.Join(dir, "a_dead"), dead)
	if err != nil {
		t.Fatal(err)
	}
	w.Close() // removes the file: write it again by hand
	dead.Gen = 1
	p, err := dead.Plan()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a_dead"), p.AppendFile(nil, nil), 0o644)
	os.WriteFile(filepath.Join(dir, ".hidden"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "c_junk"), []byte("not an MMV file at all, long enough for a header"), 0o644)
	os.Mkdir(filepath.Join(dir, "d_dir"), 0o755)
	found, err := mmvfile.Scan(dir, mmv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range found {
		names = append(names, f.Name)
	}
	if len(found) != 3 || names[0] != "a_dead" || names[1] != "b_live" || names[2] != "c_junk" {
		t.Fatalf("found %v", names)
	}
	if !errors.Is(found[0].Err, mmvfile.ErrProcessGone) || found[1].Err != nil || !errors.Is(found[2].Err, mmv.ErrMagic) {
		t.Errorf("errors: %v / %v / %v", found[0].Err, found[1].Err, found[2].Err)
	}
}
