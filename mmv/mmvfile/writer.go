//go:build unix

package mmvfile

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/mmv"
)

// Writer is a published MMV file mapped shared and read-write.
type Writer struct {
	path   string
	data   []byte
	plan   *mmv.Plan
	remove bool
}

// Create writes reg as a new file called name in [Dir] (see [CreatePath]).
func Create(name string, reg *mmv.Registry) (*Writer, error) {
	return CreatePath(filepath.Join(Dir(), name), reg)
}

// CreatePath lays reg out in a new file at path, in the host byte order,
// and publishes it, so that pmdammv serves it. A zero reg.Gen is replaced
// by the current time (seconds << 32 | microseconds), a zero reg.Process
// by this process's pid.
//
// Unlike libpcp_mmv, which removes the old file, sizes a new one and maps
// it (a full disk then kills the process with SIGBUS on the first page
// that cannot be backed), the file is built under a temporary name in the
// same directory (".NAME.*", which pmdammv skips) by writing the whole
// published image, each write checked, then mapped, then renamed over
// path. So a full disk is an error, the previous file at path stays as it
// was until the rename, and pmdammv never sees a half-written file. A
// missing or read-only directory gives an error wrapping [ErrNoDir].
func CreatePath(path string, reg *mmv.Registry) (*Writer, error) {
	r := *reg
	if r.Gen == 0 {
		now := time.Now()
		r.Gen = uint64(now.Unix())<<32 | uint64(now.Nanosecond()/1000)
	}
	if r.Process == 0 {
		r.Process = int32(os.Getpid())
	}
	plan, err := r.Plan()
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &fs.PathError{Op: "create", Path: dir, Err: ErrNoDir}
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, &fs.PathError{Op: "create", Path: path, Err: ErrNoDir}
		}
		return nil, err
	}
	tmp := f.Name()
	defer f.Close()
	fail := func(err error) (*Writer, error) {
		os.Remove(tmp)
		return nil, err
	}
	// The mode must survive a restrictive umask: pmcd's agent runs as
	// another user and needs to read the file.
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	image := make([]byte, plan.Size())
	plan.Write(image, binary.NativeEndian)
	mmv.Publish(image, binary.NativeEndian)
	// Writing every byte makes the file system allocate every block now,
	// where running out of space is an error, not a fault in the mapping.
	if _, err := f.Write(image); err != nil {
		return fail(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, len(image), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return fail(&fs.PathError{Op: "mmap", Path: tmp, Err: err})
	}
	if err := os.Rename(tmp, path); err != nil {
		syscall.Munmap(data)
		return fail(err)
	}
	return &Writer{path: path, data: data, plan: plan, remove: r.Flags&mmv.FlagProcess != 0}, nil
}

// Path returns the file's path.
func (w *Writer) Path() string { return w.path }

// Bytes returns the shared mapping; it is invalid after Close.
func (w *Writer) Bytes() []byte { return w.data }

// Plan returns the layout the file was written with.
func (w *Writer) Plan() *mmv.Plan { return w.plan }

// Slot returns the handle on the value of metric name and instance
// (the instance name, "" for a singular metric). Look slots up once and
// keep them: updates through a Slot are allocation-free.
func (w *Writer) Slot(name, instance string) (mmv.Slot, error) {
	m, i, err := w.plan.Lookup(name, instance)
	if err != nil {
		return mmv.Slot{}, err
	}
	return w.plan.Slot(w.data, binary.NativeEndian, m, i)
}

// Close unmaps the file. Like libpcp_mmv it removes the file when the
// registry had [mmv.FlagProcess] (its values die with the process);
// otherwise the file stays for pmdammv to export. Slots must not be
// used after Close.
func (w *Writer) Close() error {
	if w.data == nil {
		return nil
	}
	err := syscall.Munmap(w.data)
	w.data = nil
	if w.remove {
		if rerr := os.Remove(w.path); err == nil {
			err = rerr
		}
	}
	return err
}
