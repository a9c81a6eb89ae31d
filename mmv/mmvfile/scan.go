package mmvfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfwire/perfwire/mmv"
)

// ErrProcessGone reports a file with mmv.FlagProcess whose writer pid no
// longer exists: pmdammv skips it.
var ErrProcessGone = errors.New("mmvfile: writer process is gone")

// Found is one directory entry as pmdammv would consider it.
type Found struct {
	Name string   // the directory entry, used in metric names
	File mmv.File // valid when Err is nil
	Err  error    // why pmdammv (or our stricter reader) skips it
	// Reader is the name File had, a copy of it: a Reader in this SDK
	// reads an io.Reader.
	//
	// Deprecated: use File.
	Reader mmv.File
}

// Scan reads the files of dir the way pmdammv discovers them: entries
// sorted by name, names starting with '.' skipped, regular files only.
// Each file is read into memory (not mapped) and validated with
// [mmv.Parse] and o; a file with mmv.FlagProcess whose
// pid is gone gets [ErrProcessGone]. Pass the valid ones to mmv.Assign
// to predict names and numbers. It fails only when dir cannot be read.
func Scan(dir string, o mmv.Options) ([]Found, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var found []Found
	for _, e := range entries { // os.ReadDir sorts by name
		if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		f := Found{Name: e.Name()}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil {
			f.File, err = mmv.Parse(b, o)
		}
		if err == nil && !ProcessAlive(f.File.Header()) {
			err = ErrProcessGone
		}
		f.Reader = f.File
		f.Err = err
		found = append(found, f)
	}
	return found, nil
}
