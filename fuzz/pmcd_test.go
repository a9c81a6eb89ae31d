package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// streamLimit is the largest PDU the stream targets accept: big enough
// for every capture, small enough that a hostile len word is refused
// before anything is buffered.
const streamLimit = 1 << 20

// pmcdSeeds returns the captured client and server byte streams.
func pmcdSeeds(tb testing.TB) [][]byte {
	return seedFiles(tb, "testdata/pmcd/*.bin")
}

// mustBeParseError fails t unless err carries a *wire.Error, the one
// error type every decoder promises.
func mustBeParseError(t *testing.T, what string, err error) {
	t.Helper()
	if _, ok := errors.AsType[*pduwire.ParseError](err); !ok {
		t.Fatalf("%s: error %v (%T) is not a *ParseError", what, err, err)
	}
}

// checkStream frames data as pmcd would send or receive it and follows
// every PDU into the packages that decode its contents. It returns the
// number of PDUs framed.
func checkStream(t *testing.T, data []byte) int {
	t.Helper()
	s := pduwire.NewScanner(data, pduwire.Options{MaxPDULen: streamLimit})
	n := 0
	for s.Next() {
		p := s.PDU()
		if int(p.Header.Len) != len(p.Bytes) || len(p.Bytes) > streamLimit {
			t.Fatalf("PDU at %d: len word %d, %d bytes", p.Offset, p.Header.Len, len(p.Bytes))
		}
		checkPDU(t, p.Bytes[:len(p.Bytes):len(p.Bytes)])
		n++
	}
	if err := s.Err(); err != nil {
		mustBeParseError(t, "scanner", err)
	}
	return n
}

// checkPDU decodes one PDU, checks that it re-encodes stably, and hands
// event arrays and label sets to their packages.
func checkPDU(t *testing.T, pdu []byte) {
	t.Helper()
	m, err := pduwire.Decode(pdu)
	if err != nil {
		mustBeParseError(t, "decode", err)
		if _, rerr := pduwire.ParseResult(pdu); rerr == nil {
			h, _, _ := pduwire.ConsumeHeader(pdu)
			if h.Type == pduwire.TypeResult || h.Type == pduwire.TypeHighResResult {
				t.Fatalf("ParseResult accepts a RESULT that Decode rejects: %v", err)
			}
		}
		return
	}
	from := int32(binary.BigEndian.Uint32(pdu[8:]))
	enc := m.Append(nil, from)
	m2 := pduwire.New(m.Type())
	if err := m2.UnmarshalBinary(enc); err != nil {
		t.Fatalf("%v re-encoded does not decode: %v\nin  % x\nenc % x", m.Type(), err, pdu, enc)
	}
	if enc2 := m2.Append(nil, from); !bytes.Equal(enc, enc2) {
		t.Fatalf("%v: second encoding differs\n% x\n% x", m.Type(), enc, enc2)
	}
	switch m := m.(type) {
	case *pduwire.ResultPDU:
		checkResultEvents(t, pdu)
	case *pduwire.LabelPDU:
		for i := range m.Sets {
			checkLabelSet(t, &m.Sets[i])
		}
	}
}

// checkResultEvents walks a RESULT through the view parser and parses
// every event-typed value block with eventrec. pduwire validates event
// arrays inside ParseResult, so eventrec (lenient, as libpcp) must
// accept every array that got this far.
func checkResultEvents(t *testing.T, pdu []byte) {
	t.Helper()
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		t.Fatalf("Decode accepted a RESULT that ParseResult rejects: %v", err)
	}
	var block []byte
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		for i := range vs.Len() {
			v := vs.Value(i)
			_, _ = v.Uint64(), v.Float64()
			if !v.Block() || (v.BlockType() != pcp.TypeEvent && v.BlockType() != pcp.TypeHighResEvent) {
				continue
			}
			// Rebuild the block with its type/length word, which is
			// what eventrec parses.
			block = binary.BigEndian.AppendUint32(block[:0], uint32(v.BlockType())<<24|uint32(len(v.Payload())+4))
			block = append(block, v.Payload()...)
			a, err := eventrec.ParseValue(uint32(vs.ValFmt), block, eventrec.Options{Type: v.BlockType(), Lenient: true})
			if err != nil {
				t.Fatalf("pduwire accepted an event array that eventrec rejects: %v\n% x", err, block)
			}
			// pduwire's own view of the same array must agree.
			in, err := v.Events()
			if err != nil || !bytes.Equal(in.Bytes(), a.Bytes()) || in.Len() != a.Len() {
				t.Fatalf("Value.Events: %v, %d records; eventrec on the block: %d", err, in.Len(), a.Len())
			}
			checkEventArray(t, a, true)
		}
	}
}

// checkEventArray walks every record and parameter of a, then checks
// that the canonical encoding parses to the same records.
func checkEventArray(t *testing.T, a eventrec.Array, lenient bool) {
	t.Helper()
	var text []byte
	nparams := 0
	for rec, err := range a.All() {
		if err != nil {
			t.Fatalf("validated array fails to iterate: %v", err)
		}
		_ = rec.Nanoseconds()
		for p := range rec.Params() {
			text, _ = p.AppendText(text[:0])
			nparams++
		}
	}
	enc, err := eventrec.AppendArray(nil, a)
	if err != nil {
		t.Fatalf("AppendArray: %v", err)
	}
	b, err := eventrec.Parse(enc, eventrec.Options{Type: a.Type(), Lenient: lenient})
	if err != nil {
		t.Fatalf("canonical encoding does not parse: %v\n% x", err, enc)
	}
	if b.Len() != a.Len() || b.Type() != a.Type() || b.Slack() != 0 {
		t.Fatalf("canonical encoding: %d records of %v, want %d of %v", b.Len(), b.Type(), a.Len(), a.Type())
	}
	ra, rb := a.Scanner(), b.Scanner()
	for ra.Next() && rb.Next() {
		x, y := ra.Record(), rb.Record()
		if x.Seconds() != y.Seconds() || x.Fraction() != y.Fraction() || x.Flags() != y.Flags() || x.NumParams() != y.NumParams() {
			t.Fatalf("record differs after re-encoding")
		}
		px, py := x.ParamScanner(), y.ParamScanner()
		for px.Next() && py.Next() {
			p, q := px.Param(), py.Param()
			if p.ID != q.ID || p.Type != q.Type || !bytes.Equal(p.Value, q.Value) {
				t.Fatalf("parameter differs after re-encoding: %+v vs %+v", p, q)
			}
		}
	}
}

// checkLabelSet hands one received label set to package labels: its
// index is decoded against the JSON and, when it matches, normalised;
// the canonical text must then parse to itself.
func checkLabelSet(t *testing.T, ls *pduwire.LabelSet) {
	t.Helper()
	if ls.NLabels < 0 {
		return
	}
	var index []byte
	for _, e := range ls.Labels {
		index = labels.AppendLabel(index, labels.Label{
			NameOff: e.Name, NameLen: e.NameLen, Flags: labels.Flags(e.Flags),
			ValueOff: e.Value, ValueLen: e.ValueLen,
		})
	}
	var got labels.Set
	if err := got.DecodeWire(ls.JSON, index, labels.VerifyIndex); err != nil {
		mustBeParseError(t, "DecodeWire", err)
	} else if got.Len() != len(ls.Labels) {
		t.Fatalf("DecodeWire kept %d of %d labels", got.Len(), len(ls.Labels))
	}
	var canon labels.Set
	if err := labels.Normalize(&canon, ls.JSON, index); err != nil {
		mustBeParseError(t, "Normalize", err)
		return
	}
	var again labels.Set
	if err := labels.Parse(&again, canon.JSON, labels.Options{Dotted: true}); err != nil {
		t.Fatalf("canonical form %q does not parse: %v", canon.JSON, err)
	}
	if !bytes.Equal(again.JSON, canon.JSON) || again.Len() != canon.Len() {
		t.Fatalf("canonical form not stable:\n%s\n%s", canon.JSON, again.JSON)
	}
}

// TestPMCDCaptures runs the stream checks over every capture: each must
// frame completely and every LABEL and event RESULT in them must pass.
func TestPMCDCaptures(t *testing.T) {
	total := 0
	for _, b := range pmcdSeeds(t) {
		s := pduwire.NewScanner(b, pduwire.Options{MaxPDULen: streamLimit})
		for s.Next() {
		}
		if s.Err() != nil || s.Offset() != len(b) {
			t.Fatalf("capture does not frame: %v at %d of %d", s.Err(), s.Offset(), len(b))
		}
		total += checkStream(t, b)
	}
	if total < 100 {
		t.Fatalf("only %d PDUs in the captures", total)
	}
}

// FuzzPMCDStream treats the input as a pmcd connection's bytes: framed
// by the Scanner and by the Reader fed one byte per Read
// (they must agree), every PDU decoded and re-encoded, event arrays
// parsed by eventrec and label sets by labels.
func FuzzPMCDStream(f *testing.F) {
	for _, b := range pmcdSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := checkStream(t, data)
		r := pduwire.NewReader(iotest.OneByteReader(bytes.NewReader(data)), pduwire.Options{MaxPDULen: streamLimit})
		s := pduwire.NewScanner(data, pduwire.Options{MaxPDULen: streamLimit})
		for i := 0; ; i++ {
			if !r.Next() {
				err := r.Err()
				if i != n {
					t.Fatalf("reader framed %d PDUs, scanner %d", i, n)
				}
				if s.Next() {
					t.Fatalf("scanner frames a PDU after the reader's end (%v)", err)
				}
				if (err == nil) != (s.Err() == nil) {
					t.Fatalf("reader ends with %v, scanner with %v", err, s.Err())
				}
				break
			}
			p := r.PDU()
			if !s.Next() || !bytes.Equal(s.PDU().Bytes, p.Bytes) {
				t.Fatalf("reader and scanner disagree at %d", p.Offset)
			}
		}
	})
}

// seedFiles returns the contents of the files pattern matches; the test
// fails when it matches none or one cannot be read.
func seedFiles(tb testing.TB, pattern string) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		tb.Fatalf("no seeds match %s: %v", pattern, err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
