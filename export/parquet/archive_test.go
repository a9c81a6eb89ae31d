package parquet

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/perfwire/perfwire/archive"
)

// openTestArchive opens testdata/BASE, copied from package archive's
// testdata (recorded by pmlogger, see its README).
func openTestArchive(t *testing.T, base string) *archive.Archive {
	t.Helper()
	a, err := openArchiveT(t, base)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func openArchiveT(tb testing.TB, base string) (*archive.Archive, error) {
	a, err := archive.OpenFS(os.DirFS("testdata"), base, archive.Options{})
	if err == nil {
		tb.Cleanup(func() { a.Close() })
	}
	return a, err
}

// exportArchive exports testdata/BASE into a new directory and returns it.
func exportArchive(t *testing.T, base string, o Options) string {
	t.Helper()
	dir := t.TempDir()
	d := &Dir{Root: dir, Options: o}
	out := d.Output("t")
	if _, err := out.Archive(openTestArchive(t, base), base, ""); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readTable reads every file of a table below dir.
func readTable[T any](t *testing.T, dir, table string) []T {
	t.Helper()
	var rows []T
	err := filepath.WalkDir(filepath.Join(dir, table), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if !strings.HasSuffix(p, ".parquet") {
			t.Errorf("%s: not a Parquet file in the table", p)
			return nil
		}
		r, err := parquet.ReadFile[T](p)
		rows = append(rows, r...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// clockOf is a row's time as pmdumplog -Z UTC prints a record's.
func clockOf(ns int64, v3 bool) string {
	tm := time.Unix(0, ns).UTC()
	if v3 {
		return tm.Format("15:04:05.000000000")
	}
	return tm.Format("15:04:05.000000")
}

// TestValuesEqualPmdumplog: every value pmdumplog prints for the
// recorded v2 and v3 archives (three volumes each, a changing instance
// domain, strings) is a pcp_values row with the same time, metric,
// instance and value, and there are no other rows.
func TestValuesEqualPmdumplog(t *testing.T) {
	for _, base := range []string{"m2", "m3"} {
		t.Run(base, func(t *testing.T) {
			text, err := os.ReadFile("testdata/" + base + ".pmdumplog-a.txt")
			if err != nil {
				t.Fatal(err)
			}
			want, types := parseDumplog(t, string(text))
			rows := readTable[PCPValue](t, exportArchive(t, base, Options{}), TablePCPValues)
			type key struct {
				clock, pmid string
				inst        int32
			}
			got := map[key]*PCPValue{}
			for i := range rows {
				r := &rows[i]
				k := key{clockOf(r.Timestamp, base == "m3"), r.PMID, -1}
				if r.Inst != nil {
					k.inst = *r.Inst
				}
				if _, dup := got[k]; dup {
					t.Errorf("two rows for %v", k)
				}
				got[k] = r
			}
			n := 0
			for _, w := range want {
				if !exported(types[w.pmid]) {
					continue
				}
				n++
				r, ok := got[key{w.clock, w.pmid, w.inst}]
				if !ok {
					t.Errorf("%s %s inst %d: no row (pmdumplog: %s)", w.clock, w.pmid, w.inst, w.value)
					continue
				}
				delete(got, key{w.clock, w.pmid, w.inst})
				if !sameDumpValue(r, w.value) {
					t.Errorf("%s %s inst %d: row %+v, pmdumplog %s", w.clock, w.pmid, w.inst, r, w.value)
				}
				if w.name != "" && (r.Instance == nil || *r.Instance != w.name) {
					t.Errorf("%s %s inst %d: instance %v, pmdumplog %q", w.clock, w.pmid, w.inst, r.Instance, w.name)
				}
			}
			for k := range got {
				t.Errorf("row %v that pmdumplog does not print", k)
			}
			if n < 500 {
				t.Errorf("only %d values compared", n)
			}
		})
	}
}

// TestInstancesEqualMeta: pcp_instances holds every instance domain
// record of the archive, the changes of sample.many's domain included.
func TestInstancesEqualMeta(t *testing.T) {
	a := openTestArchive(t, "m3")
	rows := readTable[PCPInstance](t, exportArchive(t, "m3", Options{}), TablePCPInstances)
	var want, got []string
	for _, in := range a.Meta.InDoms {
		for j, inst := range in.Inst {
			want = append(want, clockOf(stampNS(in.Time), true)+" "+in.InDom.String()+" "+in.Names[j]+" "+string(rune('0'+inst%10)))
		}
	}
	for _, r := range rows {
		got = append(got, clockOf(r.Timestamp, true)+" "+r.InDom+" "+r.Instance+" "+string(rune('0'+r.Inst%10)))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("pcp_instances:\n%v\nwant\n%v", got, want)
	}
	many := 0
	for _, r := range rows {
		if r.InDom == "29.8" {
			many++
		}
	}
	if many != 3+7+5 {
		t.Errorf("sample.many's domain (29.8): %d instance rows, want 15 (the domain at 3, 7 and 5 instances)", many)
	}
}

// TestRowGroupsBounded: a small row group bound makes many row groups,
// each no larger than the bound allows, holding every row.
func TestRowGroupsBounded(t *testing.T) {
	dir := exportArchive(t, "m3", Options{RowGroupSize: 4 << 10, Tables: []string{TablePCPValues}})
	files, _ := filepath.Glob(filepath.Join(dir, TablePCPValues, "host=vm", "date=*", "*.parquet"))
	if len(files) != 1 {
		t.Fatalf("files %v, want one", files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	groups := pf.RowGroups()
	var rows int64
	for _, g := range groups {
		rows += g.NumRows()
		// A row is estimated at ≥ 64 bytes, so a group of 4 KiB holds
		// at most 64 rows, plus the one that crossed the bound.
		if g.NumRows() > 4<<10/rowFixed+1 {
			t.Errorf("row group of %d rows over a 4 KiB bound", g.NumRows())
		}
	}
	if len(groups) < 10 || rows != pf.NumRows() || rows < 1000 {
		t.Errorf("%d row groups, %d rows (file: %d)", len(groups), rows, pf.NumRows())
	}
}

// failingFile fails every write once limit bytes are written: a disk that
// fills up.
type failingFile struct {
	*os.File
	left int
}

var errDiskFull = errors.New("no space left on device")

func (f *failingFile) Write(p []byte) (int, error) {
	if len(p) > f.left {
		n, _ := f.File.Write(p[:f.left])
		f.left = 0
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: errDiskFull}
	}
	f.left -= len(p)
	return f.File.Write(p)
}

// TestFullDiskKeepsPrevious: an export that cannot be written (the disk
// fills up) leaves no file of its own and the previous export's files
// as they were.
func TestFullDiskKeepsPrevious(t *testing.T) {
	dir := exportArchive(t, "m3", Options{})
	before := snapshot(t, dir)
	d := &Dir{Root: dir, create: func(dir, pattern string) (file, error) {
		f, err := os.CreateTemp(dir, pattern)
		return &failingFile{File: f, left: 2000}, err
	}}
	out := d.Output("t")
	_, err := out.Archive(openTestArchive(t, "m3"), "m3", "")
	if err == nil {
		err = out.Commit()
	} else {
		out.Abort()
	}
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("export on a full disk: %v, want the write's error", err)
	}
	after := snapshot(t, dir)
	if !sameFiles(before, after) {
		t.Errorf("files after the failed export:\n%v\nbefore:\n%v", keys(after), keys(before))
	}
}

// snapshot maps every file below dir to its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return err
	})
	return m
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}

// TestDamagedVolumeExportsUpToDamage: a volume cut short in a record
// ends the values there: the rows before it are written, and the error
// names the file and the offset.
func TestDamagedVolumeExportsUpToDamage(t *testing.T) {
	src := t.TempDir()
	for _, suf := range []string{"meta", "0", "1", "2"} {
		b, err := os.ReadFile("testdata/m3." + suf)
		if err != nil {
			t.Fatal(err)
		}
		if suf == "1" {
			b = b[:len(b)/2]
		}
		os.WriteFile(filepath.Join(src, "m3."+suf), b, 0o644)
	}
	a, err := archive.OpenFS(os.DirFS(src), "m3", archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dir := t.TempDir()
	out := (&Dir{Root: dir, Options: Options{Tables: []string{TablePCPValues}}}).Output("t")
	n, err := out.Archive(a, "m3", "")
	pe, ok := errors.AsType[*archive.ParseError](err)
	if !ok || !strings.Contains(pe.Error(), "m3.1") || pe.Offset <= 0 {
		t.Fatalf("error %v, want a ParseError naming m3.1 with its offset", err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	rows := readTable[PCPValue](t, dir, TablePCPValues)
	full := readTable[PCPValue](t, exportArchive(t, "m3", Options{Tables: []string{TablePCPValues}}), TablePCPValues)
	if int64(len(rows)) != n || len(rows) == 0 || len(rows) >= len(full) {
		t.Fatalf("%d rows (said %d) of %d", len(rows), n, len(full))
	}
	// What was written is the sound archive's rows up to the last record
	// read, every one of them.
	key := func(r *PCPValue) string {
		k := clockOf(r.Timestamp, true) + " " + r.PMID
		if r.Inst != nil {
			k += " " + strconv.Itoa(int(*r.Inst))
		}
		return k
	}
	var last int64
	got := map[string]bool{}
	for i := range rows {
		last = max(last, rows[i].Timestamp)
		got[key(&rows[i])] = true
	}
	n = 0
	for i := range full {
		if full[i].Timestamp > last {
			continue
		}
		n++
		if !got[key(&full[i])] {
			t.Errorf("no row %s, which the sound archive has before the damage", key(&full[i]))
		}
	}
	if n != int64(len(rows)) {
		t.Errorf("%d rows, the sound archive has %d up to %s", len(rows), n, clockOf(last, true))
	}
}
