package archive

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// files is an archive's files in memory, so tests can damage copies.
type files struct {
	meta, index []byte
	vols        [][]byte
}

// load reads testdata/BASE.* (recorded by the real pmlogger).
func load(t testing.TB, base string) files {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	f := files{meta: read(base + ".meta"), index: read(base + ".index")}
	for i := 0; ; i++ {
		name := base + "." + string(rune('0'+i))
		if _, err := os.Stat(filepath.Join("testdata", name)); err != nil {
			break
		}
		f.vols = append(f.vols, read(name))
	}
	return f
}

// clone returns a deep copy.
func (f files) clone() files {
	c := files{meta: slices.Clone(f.meta), index: slices.Clone(f.index)}
	for _, v := range f.vols {
		c.vols = append(c.vols, slices.Clone(v))
	}
	return c
}

// open opens f with o.
func (f files) open(o Options) (*Archive, error) {
	var vols []File
	for i, v := range f.vols {
		vols = append(vols, BytesFile("t."+string(rune('0'+i)), v))
	}
	idx := BytesFile("t.index", f.index)
	return Open(BytesFile("t.meta", f.meta), &idx, vols, o)
}

// scanAll reads every record and returns how many were read and the error.
func scanAll(a *Archive) (int, error) {
	s := a.NewScanner()
	n := 0
	for s.Next() {
		n++
	}
	return n, s.Err()
}
