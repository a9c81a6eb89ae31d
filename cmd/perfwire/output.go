package main

import (
	"io"

	"github.com/tinylib/msgp/msgp"
)

// jsonLines is the CLI's one JSON encoder: every --json output is a
// value of the shared schema (package schema) as MessagePack, written by the
// in-place writers of package render (raw: PDUs, archive records, KPI and DLT
// messages, served MMV files, label sets) or by the schema type's
// generated code (write), and converted to one JSON line by msgp, so the
// CLI prints exactly the names, units and omissions the plugin returns.
type jsonLines struct {
	w   io.Writer
	buf []byte
}

// write prints m as one JSON line.
func (j *jsonLines) write(m msgp.Marshaler) error {
	b, err := m.MarshalMsg(j.buf[:0])
	if err != nil {
		return err
	}
	j.buf = b
	return j.raw(b)
}

// raw prints one MessagePack value as one JSON line.
func (j *jsonLines) raw(b []byte) error {
	if _, err := msgp.UnmarshalAsJSON(j.w, b); err != nil {
		return err
	}
	_, err := j.w.Write([]byte{'\n'})
	return err
}
