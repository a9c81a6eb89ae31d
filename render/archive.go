package render

import (
	"bytes"
	"encoding/binary"
	"math"
	"runtime"
	"strconv"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/internal/rfc3339"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// appendNumber appends v, a value of a metric of type t, as an
// ArchiveValue's value: a number or a string as the type says, read as
// pmExtractValue reads a value as its own type (what pcp.Extract(v.Raw(),
// t, t) gives: 32-bit types and floats in the word, 64-bit ones and
// doubles in 8-byte blocks, strings up to their NUL), written out so that
// a wasm module reading archives does without pcp's conversions. It
// returns b as it is (nil for nil) when v is no number or string of type
// t. The number's form and bits first, then one append per form.
func appendNumber(b []byte, v pduwire.Value, t pcp.Type) []byte {
	r := v.Raw()
	p := r.Block
	form, u := byte(0), uint64(r.Word)
	if !r.Insitu && len(p) == 8 {
		u = binary.BigEndian.Uint64(p)
	}
	switch {
	case r.Insitu && t == pcp.Type32:
		form, u = 'i', uint64(int32(r.Word))
	case r.Insitu && t == pcp.TypeU32:
		form = 'u'
	case r.Insitu && t == pcp.TypeFloat:
		form = 'f'
	case r.Insitu:
	case t == pcp.Type64 && len(p) == 8:
		form = 'i'
	case t == pcp.TypeU64 && len(p) == 8:
		form = 'u'
	case t == pcp.TypeDouble && len(p) == 8:
		form = 'd'
	case t == pcp.TypeFloat && len(p) == 4:
		form, u = 'f', uint64(binary.BigEndian.Uint32(p))
	case t == pcp.TypeString:
		form = 's'
	}
	switch form {
	case 'i':
		b = schema.AppendInt64(b, int64(u))
	case 'u':
		b = schema.AppendUint64(b, u)
	case 'f':
		b = appendFloat32(b, math.Float32frombits(uint32(u)))
	case 'd':
		b = AppendFloat(b, math.Float64frombits(u))
	case 's':
		if i := bytes.IndexByte(p, 0); i >= 0 {
			p = p[:i]
		}
		b = schema.AppendStr(b, p)
	}
	return b
}

// valueHex is an ArchiveValue's hex of a value that is no number or
// string of its metric's type.
func valueHex(v pduwire.Value) string {
	if !v.Block() {
		return hex32(v.Word)[2:]
	}
	return hexText(v.Payload())
}

// appendFloat32 appends a float's MessagePack: a float32, whose JSON is
// its shortest text, or NaN and the infinities as strings.
func appendFloat32(b []byte, f float32) []byte {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return AppendFloat(b, float64(f))
	}
	u := math.Float32bits(f) // as msgp.AppendFloat32 writes it, without its call
	return append(b, 0xca, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
}

// AppendArchiveRecord appends to b the MessagePack ArchiveRecord of
// record r of archive a, written in place: its time, and each value with
// its metric's pmID, first name, instance (number and name as of the
// record's time), whether it counts (counter semantics) and value by
// type (the records of an event array, a number or a string as
// appendNumber reads it, else the value's hex; the error of a value set
// without values). archive_next's records, and `perfwire archive --json`
// prints them. No ArchiveValue per value, no copies, no marshaler
// (module size and speed); TestAppendArchiveRecord holds its bytes to the schema
// values' MarshalMsg.
func AppendArchiveRecord(b []byte, a *archive.Archive, r *archive.Record) []byte {
	return appendArchiveRecord(b, a, r)
}

// appendArchiveRecord is AppendArchiveRecord, as archive_next calls it:
// under a name of the shape the modules' other append functions share,
// which gzip compresses with them; the exported wrapper is linked by none.
func appendArchiveRecord(b []byte, a *archive.Archive, r *archive.Record) []byte {
	n := 0 // the values
	vss := r.Result.Scan()
	for vss.Next() {
		if vs := vss.ValueSet(); vs.NumVal <= 0 {
			n++
		} else {
			n += vs.Len()
		}
	}
	keys := byte(0x81)
	if r.Mark {
		keys++
	}
	if n > 0 {
		keys++
	}
	b = appendKeyStr(append(b, keys), "\xa9timestamp", rfc3339.String(r.Time.Sec, int64(r.Time.Nsec), rfc3339.Trimmed))
	if r.Mark {
		b = append(b, 0xa4, 'm', 'a', 'r', 'k', 0xc3)
	}
	if n == 0 {
		return b
	}
	b = schema.AppendArrayHeader(append(b, 0xa6, 'v', 'a', 'l', 'u', 'e', 's'), uint32(n))
	vss = r.Result.Scan()
	for vss.Next() {
		vs := vss.ValueSet()
		pmid := vs.PMID.String()
		name, counter := pmid, false
		typ, indom := pcp.Type(pcp.TypeAggregate), pcp.InDomNull
		if m, ok := a.Meta.Metric(vs.PMID); ok {
			if len(m.Names) > 0 {
				name = m.Names[0]
			}
			typ, indom = m.Type, m.InDom
			counter = m.Sem == pcp.SemCounter
		}
		if vs.NumVal <= 0 {
			msg := "no values"
			if vs.NumVal < 0 {
				msg = pcp.Code(vs.NumVal).Message()
			}
			b = appendKeyStr(appendValueHead(b, pmid, name, pcp.InNull, "", false, counter), "\xa5error", msg)
			continue
		}
		var in *archive.Instances
		if indom != pcp.InDomNull {
			in, _ = a.Meta.InDomAt(indom, r.Time)
		}
		for j := range vs.Len() {
			pv := vs.Value(j)
			var instance string
			named := false
			if in != nil {
				instance, named = in.Name(pv.Inst)
			}
			b = appendValueHead(b, pmid, name, pv.Inst, instance, named, counter)
			// The value key: records, value or hex.
			if typ == pcp.TypeEvent || typ == pcp.TypeHighResEvent {
				if ev, err := pv.Events(); err == nil {
					b = appendEventRecords(append(b, 0xa7, 'r', 'e', 'c', 'o', 'r', 'd', 's'), ev)
					continue
				}
			}
			b = append(b, 0xa5, 'v', 'a', 'l', 'u', 'e')
			if c := appendNumber(b, pv, typ); len(c) > len(b) {
				b = c
				continue
			}
			b = appendKeyStr(b[:len(b)-6], "\xa3hex", valueHex(pv))
		}
	}
	return b
}

// appendValueHead appends the head of an ArchiveValue's map: the keys
// pmid, name and inst, then instance (when named) and counter; one key
// follows, value, records, hex or error.
func appendValueHead(b []byte, pmid, name string, inst int32, instance string, named, counter bool) []byte {
	keys := byte(0x84)
	if named {
		keys++
	}
	if counter {
		keys++
	}
	b = appendKeyStr(append(b, keys), "\xa4pmid", pmid)
	b = append(appendKeyStr(b, "\xa4name", name), "\xa4inst"...)
	b = schema.AppendInt64(b, int64(inst))
	if named {
		b = appendKeyStr(b, "\xa8instance", instance)
	}
	if counter {
		b = append(b, "\xa7counter\xc3"...)
	}
	return b
}

// appendKeyStr appends k, a key already encoded, and v as a MessagePack
// string. Not inlined: msgp's string append is large.
//
//go:noinline
func appendKeyStr(b []byte, k, v string) []byte { return msgp.AppendString(append(b, k...), v) }

// archive_next's batches: at most ArchiveBatch records when its caller
// leaves the number at 0, and never more records than take
// ArchiveBatchBytes of MessagePack, past the first (a record of a
// process archive can hold tens of thousands of values).
const (
	ArchiveBatch      = 1000
	ArchiveBatchBytes = 4 << 20
)

// ArchiveSession reads an archive a batch of records at a time
// (archive_open, archive_next): a host never needs all of a large
// archive's records at once. Its state is a closure's on purpose: a
// session is held as an interface value, and a struct field of type
// *archive.Archive would make the linker keep the text methods of every
// type the archive reaches (module size).
type ArchiveSession struct {
	next func(b []byte, max int) []byte
}

// NewArchiveSession opens the archive in in. An archive that cannot be
// opened makes a session whose first Next reports why.
func NewArchiveSession(in schema.ArchiveInput) *ArchiveSession {
	var err error // why the archive could not be opened, or the reading ended
	var a *archive.Archive
	if len(in.Names) != len(in.Files) {
		err = schema.ABIError(schema.ErrBadInput)
	} else {
		files := make([]archive.File, len(in.Names))
		for i := range files {
			files[i] = archive.BytesFile(in.Names[i], in.Files[i])
		}
		a, err = archive.OpenFiles(files, archive.Options{})
	}
	var s *archive.Scanner
	if err == nil {
		s = a.NewScanner()
	}
	done, first := false, true
	return &ArchiveSession{next: func(b []byte, max int) []byte {
		// The records first, in place; the map's head, which begins with
		// the error that ended them and their count, goes before them at
		// the end.
		at, n := len(b), 0
		for !done && err == nil && n < max && len(b)-at < ArchiveBatchBytes {
			if !s.Next() {
				done, err = true, s.Err()
				break
			}
			b = appendArchiveRecord(b, a, s.Record())
			n++
			// A reactor's exports run on one goroutine that never
			// blocks, so the collector's background workers get no turn
			// to finish a cycle and the heap only grows: a process
			// archive ran the module out of its 4 GB. Yielding after
			// each record lets them run.
			runtime.Gosched()
		}
		skipped := 0
		if s != nil {
			skipped = s.Skipped()
		}
		keys := byte(0x84)
		meta := first && a != nil
		if meta {
			first, keys = false, keys+2
		}
		b = schema.AppendInt64(append(b, "\xa7skipped"...), int64(skipped))
		b = append(b, "\xa4done\xc2"...)
		if done || err != nil {
			b[len(b)-1] = 0xc3
		}
		if meta {
			b = appendArchiveMetrics(append(b, "\xa7metrics"...), a)
			b = appendLabelSets(append(b, "\xa6labels"...), a)
		}
		head := append(make([]byte, 0, 64), keys, 0xa5, 'e', 'r', 'r', 'o', 'r', 0xc0)
		if e := schema.ErrorOf(err); e != nil {
			head, _ = e.MarshalMsg(head[:len(head)-1])
		}
		head = schema.AppendArrayHeader(append(head, "\xa7records"...), uint32(n))
		b = append(b, head...)
		copy(b[at+len(head):], b[at:len(b)-len(head)])
		copy(b[at:], head)
		return b
	}}
}

// appendArchiveMetrics appends the metrics of a's .meta in its order, an
// ArchiveMetric's map each.
func appendArchiveMetrics(b []byte, a *archive.Archive) []byte {
	b = schema.AppendArrayHeader(b, uint32(len(a.Meta.Metrics)))
	for i := range a.Meta.Metrics {
		m := &a.Meta.Metrics[i]
		pmid := m.ID.String()
		name := pmid
		if len(m.Names) > 0 {
			name = m.Names[0]
		}
		one, _ := a.Meta.Text(archive.TextPMID|archive.TextOneLine, uint32(m.ID))
		help, _ := a.Meta.Text(archive.TextPMID|archive.TextHelp, uint32(m.ID))
		keys := byte(0x86)
		if one != "" {
			keys++
		}
		if help != "" {
			keys++
		}
		b = appendKeyStr(append(b, keys), "\xa4pmid", pmid)
		b = appendKeyStr(b, "\xa4name", name)
		b = appendKeyStr(b, "\xa4type", TypeName(m.Type))
		b = appendKeyStr(b, "\xa5indom", m.InDom.String())
		b = appendKeyStr(b, "\xa3sem", semName(m.Sem))
		b = schema.AppendUint64(append(b, "\xa7pmunits"...), uint64(m.Units))
		if one != "" {
			b = appendKeyStr(b, "\xa7oneline", one)
		}
		if help != "" {
			b = appendKeyStr(b, "\xa4help", help)
		}
	}
	return b
}

// appendLabelSets appends the label sets of a's .meta, in its order, as
// ArchiveRead's labels: each the MessagePack array [ns (int 64), type
// (uint 32), ident (uint 32), inst (int 32), json (str 32)], with
// fixed-width headers.
func appendLabelSets(b []byte, a *archive.Archive) []byte {
	n := 0
	for _, l := range a.Meta.Labels {
		n += len(l.Sets)
	}
	b = schema.AppendArrayHeader(b, uint32(n))
	be := binary.BigEndian
	for _, l := range a.Meta.Labels {
		for _, s := range l.Sets {
			at := len(b)
			b = append(b, make([]byte, 30)...)
			h := b[at : at+30]
			h[0], h[1], h[10], h[15], h[20], h[25] = 0x95, 0xd3, 0xce, 0xce, 0xd2, 0xdb
			be.PutUint64(h[2:], uint64(l.Time.Sec*1e9+int64(l.Time.Nsec)))
			be.PutUint32(h[11:], l.Type)
			be.PutUint32(h[16:], l.Ident)
			be.PutUint32(h[21:], uint32(s.Inst))
			be.PutUint32(h[26:], uint32(len(s.JSON)))
			b = append(b, s.JSON...)
		}
	}
	return b
}

// semName is a semantics' name as a DESC's desc writes it.
func semName(s pcp.Sem) string {
	if s > 0 && int(s) < len(semNames) && semNames[s] != "" {
		return semNames[s]
	}
	return strconv.Itoa(int(s))
}

// AppendNext appends the MessagePack ArchiveRead of the next batch to b:
// up to max records (ArchiveBatch when max is 0), fewer when they pass
// ArchiveBatchBytes. The batch that ends the reading has done set, with
// the error that ended it; later calls return that batch's verdict with
// no records. The first batch lists the .meta's metrics and label sets.
// archive_next writes it into the module's buffer.
func (s *ArchiveSession) AppendNext(b []byte, max int) []byte {
	if max <= 0 {
		max = ArchiveBatch
	}
	return s.next(b, max)
}
