package parquet

import (
	"strings"
	"unicode/utf8"

	"github.com/perfwire/perfwire/dlt"
)

// validText is b as a string column takes it: Parquet's strings are
// UTF-8, and readers (DuckDB) reject a file holding any other bytes, so
// each byte that is not part of a UTF-8 sequence becomes U+FFFD, as
// encoding/json (and so perfwire's --json output) renders it. The exact
// bytes are kept in a column of their own where the format allows
// arbitrary ones.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			sb.WriteString("\uFFFD")
		} else {
			sb.Write(b[:n])
		}
		b = b[n:]
	}
	return sb.String()
}

// DLTMessage is a row of dlt_messages: one DLT message of a file.
type DLTMessage struct {
	File        string   `parquet:"file,dict"`
	Index       int64    `parquet:"index"` // the message's number in its file, from 0 as dlt-convert counts
	ECU         string   `parquet:"ecu,dict"`
	Session     *int64   `parquet:"session,optional"`
	Timestamp   *int64   `parquet:"timestamp,optional"` // 0.1 ms units since the ECU started
	StorageTime int64    `parquet:"storage_time,timestamp(nanosecond:local)"`
	APID        string   `parquet:"apid,dict"`
	CTID        string   `parquet:"ctid,dict"`
	Type        string   `parquet:"type,dict"`
	Subtype     string   `parquet:"subtype,dict"` // the level of a log message
	Verbose     bool     `parquet:"is_verbose"`
	Counter     int32    `parquet:"counter"`
	NumArgs     int32    `parquet:"nargs"`
	Payload     string   `parquet:"payload"`
	PayloadRaw  []byte   `parquet:"payload_bytes,optional"` // the payload text's bytes, when they are not UTF-8
	Args        []string `parquet:"args,list"`

	session int64
	tmsp    int64
}

func (r *DLTMessage) estimate() int64 {
	return int64(rowFixed + len(r.File) + 24 + 2*len(r.Payload) + len(r.PayloadRaw))
}

// DLT writes the messages r reads as dlt_messages rows, partitioned by
// ECU (or by host, if not empty) and by the storage header's day, and
// the dlt-kpi messages among them as kpi_processes and kpi_irqs rows.
// name is the file column. Damage the reader cannot get past ends the
// rows; its error (with the offset) is returned with the rows made.
func (o *Output) DLT(r *dlt.Reader, name, host string) (int64, error) {
	s := o.DLTStream(name, host)
	var told int64
	for r.Next() {
		if err := s.Push(r.Message()); err != nil {
			return s.Rows(), err
		}
		if o.Progress != nil {
			if at := int64(r.Offset()); at-told >= 1<<20 {
				o.Progress(0, at-told)
				told = at
			}
		}
	}
	if o.Progress != nil {
		o.Progress(s.Rows(), int64(r.Offset())-told)
	}
	return s.Rows(), r.Err()
}

// DLTStream writes DLT messages into an Output as they come, for a
// source without end (a running dlt-daemon): Push each message, then
// Commit the Output to make its files appear.
type DLTStream struct {
	o          *Output
	name, host string
	msgs       *parts[DLTMessage]
	kpi        *kpiExport
	index      int64
	text       []byte
}

// DLTStream starts a stream of messages into o; name is the file column.
func (o *Output) DLTStream(name, host string) *DLTStream {
	s := &DLTStream{o: o, name: name, host: host, kpi: newKPIExport(o, name, host)}
	if o.d.wants(TableDLTMessages) {
		s.msgs = newParts(o, TableDLTMessages, (*DLTMessage).estimate)
	}
	return s
}

// Rows counts the rows made so far.
func (s *DLTStream) Rows() int64 {
	n := s.kpi.rows()
	if s.msgs != nil {
		n += s.msgs.rows()
	}
	return n
}

// Push writes the rows of one message; m's bytes are not kept.
func (s *DLTStream) Push(m dlt.Message) error {
	i := s.index
	s.index++
	if s.msgs != nil {
		if err := s.message(m, i); err != nil {
			return err
		}
	}
	if s.kpi != nil {
		return s.kpi.push(m)
	}
	return nil
}

// placeOf is a message's ECU, the host partition its rows go to (host,
// or the ECU), and its storage time in nanoseconds.
func placeOf(m dlt.Message, host string) (ecu, part string, ns int64) {
	ecu, part = m.ECU().String(), host
	if part == "" {
		part = ecu
	}
	sh := m.StorageHeader()
	return ecu, part, int64(sh.Seconds)*1e9 + int64(sh.Microseconds)*1e3
}

func (s *DLTStream) message(m dlt.Message, i int64) error {
	ecu, part, ns := placeOf(m, s.host)
	row, err := s.msgs.next(part, ns)
	if err != nil {
		return err
	}
	_, app, ctx := m.IDs()
	row.File, row.Index, row.ECU, row.StorageTime = s.name, i, ecu, ns
	row.APID, row.CTID = app.String(), ctx.String()
	if v, ok := m.SessionID(); ok {
		row.session, row.Session = int64(v), &row.session
	}
	if t, ok := m.Timestamp(); ok {
		row.tmsp, row.Timestamp = int64(t), &row.tmsp
	}
	if m.HasExtendedHeader() {
		row.Type, row.Subtype = m.Type().String(), dlt.SubtypeName(m.Type(), m.Subtype())
	}
	row.Verbose, row.Counter, row.NumArgs = m.Verbose(), int32(m.Counter()), int32(m.NumArgs())
	s.text = m.AppendPayloadText(s.text[:0])
	row.Payload = validText(s.text)
	if !utf8.Valid(s.text) {
		row.PayloadRaw = append([]byte(nil), s.text...)
	}
	if m.Verbose() {
		a := m.ArgScanner()
		for a.Next() {
			s.text, _ = a.Arg().AppendText(s.text[:0])
			row.Args = append(row.Args, validText(s.text))
		}
	}
	return s.msgs.done(row)
}

// validString is validText for a string.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return validText([]byte(s))
}
