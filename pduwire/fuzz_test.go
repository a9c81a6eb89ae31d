package pduwire_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// seedPDUs returns every captured PDU and every compiled QA spec PDU,
// optionally only those of type t (t < 0: all).
func seedPDUs(tb testing.TB, t pduwire.Type) [][]byte {
	tb.Helper()
	var out [][]byte
	files, _ := filepath.Glob("testdata/captures/conv*.bin")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for p, err := range pduwire.All(data, pduwire.Options{}) {
			if err != nil {
				tb.Fatal(err)
			}
			if t < 0 || p.Header.Type == t {
				out = append(out, p.Bytes)
			}
		}
	}
	specs, _ := filepath.Glob("testdata/qa/*")
	for _, s := range specs {
		name := filepath.Base(s)
		if b, _ := os.ReadFile(s); !bytes.HasPrefix(b, []byte("# PDU specifications")) {
			continue
		}
		for _, p := range compileSpec(tb, name) {
			if t < 0 || pduwire.Type(binary.BigEndian.Uint32(p.bytes[4:])) == t {
				out = append(out, p.bytes)
			}
		}
	}
	for _, f := range []string{"testdata/bench/result-1000.bin", "testdata/bench/result-1000-highres.bin"} {
		b, _ := os.ReadFile(f)
		if t < 0 || pduwire.Type(binary.BigEndian.Uint32(b[4:])) == t {
			out = append(out, b)
		}
	}
	return out
}

// checkRoundTrip is the invariant of every decoder: whatever decodes
// re-encodes to a PDU that decodes again and re-encodes to the same bytes.
func checkRoundTrip(t *testing.T, pdu []byte) {
	if isResult(pdu) {
		checkReader(t, pdu)
	}
	m, err := pduwire.Decode(pdu)
	if err != nil {
		if _, ok := errors.AsType[*pduwire.ParseError](err); !ok {
			t.Fatalf("error %v is not a *ParseError", err)
		}
		return
	}
	from := int32(binary.BigEndian.Uint32(pdu[8:]))
	enc := m.Append(nil, from)
	if binary.BigEndian.Uint32(enc) != uint32(len(enc)) {
		t.Fatalf("encoded len word %d, actual %d", binary.BigEndian.Uint32(enc), len(enc))
	}
	m2, err := pduwire.Decode(enc)
	if err != nil {
		t.Fatalf("re-encoded %v does not decode: %v\nin  % x\nenc % x", m.Type(), err, pdu, enc)
	}
	if enc2 := m2.Append(nil, from); !bytes.Equal(enc, enc2) {
		t.Fatalf("%v: second re-encoding differs\n% x\n% x", m.Type(), enc, enc2)
	}
	if r, err := pduwire.ParseResult(pdu); err == nil {
		n := 0
		s := r.Scan()
		for s.Next() {
			vs := s.ValueSet()
			for i := range vs.Len() {
				_ = vs.Value(i).Uint64()
				n++
			}
		}
		_ = n
	}
}

// isResult reports whether pdu's type word is RESULT or HIGHRES_RESULT.
func isResult(pdu []byte) bool {
	if len(pdu) < 8 {
		return false
	}
	t := pduwire.Type(binary.BigEndian.Uint32(pdu[4:]))
	return t == pduwire.TypeResult || t == pduwire.TypeHighResResult
}

// fuzzType fuzzes the body decoder of type t: the type word is forced
// so that the fuzzer spends its time inside that decoder.
func fuzzType(f *testing.F, t pduwire.Type) {
	for _, p := range seedPDUs(f, t) {
		f.Add(p)
	}
	f.Fuzz(func(tt *testing.T, pdu []byte) {
		if len(pdu) >= 8 {
			pdu = bytes.Clone(pdu)
			binary.BigEndian.PutUint32(pdu[4:], uint32(t))
			if len(pdu) >= 12 {
				binary.BigEndian.PutUint32(pdu, uint32(len(pdu)))
			}
		}
		checkRoundTrip(tt, pdu[:len(pdu):len(pdu)])
	})
}

func FuzzError(f *testing.F)         { fuzzType(f, pduwire.TypeError) }
func FuzzResult(f *testing.F)        { fuzzType(f, pduwire.TypeResult) }
func FuzzHighResResult(f *testing.F) { fuzzType(f, pduwire.TypeHighResResult) }
func FuzzProfile(f *testing.F)       { fuzzType(f, pduwire.TypeProfile) }
func FuzzFetch(f *testing.F)         { fuzzType(f, pduwire.TypeFetch) }
func FuzzHighResFetch(f *testing.F)  { fuzzType(f, pduwire.TypeHighResFetch) }
func FuzzDescReq(f *testing.F)       { fuzzType(f, pduwire.TypeDescReq) }
func FuzzDesc(f *testing.F)          { fuzzType(f, pduwire.TypeDesc) }
func FuzzDescIDs(f *testing.F)       { fuzzType(f, pduwire.TypeDescIDs) }
func FuzzDescs(f *testing.F)         { fuzzType(f, pduwire.TypeDescs) }
func FuzzInstanceReq(f *testing.F)   { fuzzType(f, pduwire.TypeInstanceReq) }
func FuzzInstance(f *testing.F)      { fuzzType(f, pduwire.TypeInstance) }
func FuzzTextReq(f *testing.F)       { fuzzType(f, pduwire.TypeTextReq) }
func FuzzText(f *testing.F)          { fuzzType(f, pduwire.TypeText) }
func FuzzCreds(f *testing.F)         { fuzzType(f, pduwire.TypeCreds) }
func FuzzPMNSIDs(f *testing.F)       { fuzzType(f, pduwire.TypePMNSIDs) }
func FuzzPMNSNames(f *testing.F)     { fuzzType(f, pduwire.TypePMNSNames) }
func FuzzPMNSChild(f *testing.F)     { fuzzType(f, pduwire.TypePMNSChild) }
func FuzzPMNSTraverse(f *testing.F)  { fuzzType(f, pduwire.TypePMNSTraverse) }
func FuzzAttr(f *testing.F)          { fuzzType(f, pduwire.TypeAttr) }
func FuzzLabelReq(f *testing.F)      { fuzzType(f, pduwire.TypeLabelReq) }
func FuzzLabel(f *testing.F)         { fuzzType(f, pduwire.TypeLabel) }
func FuzzLogControl(f *testing.F)    { fuzzType(f, pduwire.TypeLogControl) }
func FuzzLogStatusV2(f *testing.F)   { fuzzType(f, pduwire.TypeLogStatusV2) }
func FuzzLogRequest(f *testing.F)    { fuzzType(f, pduwire.TypeLogRequest) }
func FuzzLogStatus(f *testing.F)     { fuzzType(f, pduwire.TypeLogStatus) }

// FuzzServerHello: the handshake decoder never panics and agrees with
// the ERROR decoder about which PDUs are 20-byte ERRORs.
func FuzzServerHello(f *testing.F) {
	for _, p := range seedPDUs(f, pduwire.TypeError) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pdu []byte) {
		h, err := pduwire.ParseServerHello(pdu)
		var e pduwire.ErrorPDU
		eerr := e.UnmarshalBinary(pdu)
		if (err == nil) != (eerr == nil && e.Extended) {
			t.Fatalf("hello %v / error %v extended=%v", err, eerr, e.Extended)
		}
		if err == nil && h.Status != int32(pcp.FromV1(e.Code)) {
			t.Fatalf("status %d for code %d", h.Status, e.Code)
		}
	})
}

// FuzzScanner checks the framers on arbitrary streams: the Scanner and
// the Reader agree PDU for PDU, every PDU is within limits and
// the PDUs tile the consumed prefix; each framed PDU is then decoded.
func FuzzScanner(f *testing.F) {
	files, _ := filepath.Glob("testdata/captures/conv*.bin")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b, uint16(0))
	}
	f.Add([]byte{0, 0, 0, 13, 0, 0, 0x70, 0x11, 0, 0, 0, 0, 'x', 0, 0, 0, 12, 0, 0, 0x70, 0, 0, 0, 0, 0}, uint16(20))
	f.Fuzz(func(t *testing.T, data []byte, lim uint16) {
		limit := int(lim)
		s := pduwire.NewScanner(data, pduwire.Options{MaxPDULen: limit})
		r := pduwire.NewReader(bytes.NewReader(data), pduwire.Options{MaxPDULen: limit})
		var off int64
		for s.Next() {
			p := s.PDU()
			if p.Offset != off || int(p.Header.Len) != len(p.Bytes) || len(p.Bytes) < 12 {
				t.Fatalf("PDU at %d: header %+v, %d bytes, expected offset %d", p.Offset, p.Header, len(p.Bytes), off)
			}
			if limit > 0 && len(p.Bytes) > limit {
				t.Fatalf("PDU of %d bytes over limit %d", len(p.Bytes), limit)
			}
			off += int64(len(p.Bytes))
			ok := r.Next()
			if q := r.PDU(); !ok || !bytes.Equal(q.Bytes, p.Bytes) || q.Offset != p.Offset {
				t.Fatalf("reader disagrees at %d: %v", p.Offset, r.Err())
			}
			checkRoundTrip(t, p.Bytes)
		}
		if int(off) != s.Offset() {
			t.Fatalf("offset %d, PDUs cover %d", s.Offset(), off)
		}
		if r.Next() {
			t.Fatalf("scanner stopped at %d (%v), reader read on", s.Offset(), s.Err())
		}
		rerr := r.Err()
		if (s.Err() == nil) != (rerr == nil) {
			t.Fatalf("scanner %v, reader %v", s.Err(), rerr)
		}
		if s.Err() != nil && !errors.Is(rerr, errors.Unwrap(s.Err())) {
			t.Fatalf("scanner %v, reader %v", s.Err(), rerr)
		}
	})
}
