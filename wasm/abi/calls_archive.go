package abi

import (
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// The archive calls, in the all-formats modules and the archive module
// (the table_*.go files).

// archiveOpen reads archive_open's input as ArchiveInput, with its
// files as views of b, not copies (an archive of hundreds of megabytes
// is then in the module's memory once, in the input buffer that the
// session keeps alive), and opens a session on it; nil for input that is
// no ArchiveInput.
func archiveOpen(_ Op, b []byte, _ uint32) any {
	var in schema.ArchiveInput
	var err error
	var n uint32
	if n, b, err = msgp.ReadMapHeaderBytes(b); err != nil {
		return nil
	}
	for range n {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			return nil
		}
		var m uint32
		switch string(key) {
		case "names":
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err == nil && int(m) > len(b) {
				err = msgp.ErrShortBytes // each name takes a byte at least
			}
			for i := 0; err == nil && i < int(m); i++ {
				var s string
				s, b, err = msgp.ReadStringBytes(b)
				in.Names = append(in.Names, s)
			}
		case "files":
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err == nil && int(m) > len(b) {
				err = msgp.ErrShortBytes
			}
			for i := 0; err == nil && i < int(m); i++ {
				var f []byte
				f, b, err = msgp.ReadBytesZC(b)
				in.Files = append(in.Files, f)
			}
		default:
			b, err = msgp.Skip(b)
		}
		if err != nil {
			return nil
		}
	}
	return render.NewArchiveSession(in)
}

func archiveNext(_ Op, s any, _ []byte, n uint32, b []byte) []byte {
	a, ok := s.(*render.ArchiveSession)
	if !ok {
		return schema.AppendFailure(b, schema.ErrBadMode)
	}
	return a.AppendNext(b, int(n))
}
