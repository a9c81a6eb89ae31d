package render

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
)

// sameError reports whether a and b are both nil or have the same text
// (the wire.Error text names format, field, offset and kind).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// checkDecodeBody compares AppendPDU's error with pduwire.Decode's and
// its bytes with refAppendPDU's (the body struct marshalled) on pdu,
// whose header must be valid and whose length must match.
func checkDecodeBody(t *testing.T, pdu []byte) {
	t.Helper()
	h, _, err := pduwire.ConsumeHeader(pdu)
	if err != nil || int(h.Len) != len(pdu) {
		return
	}
	p := pduwire.PDU{Header: h, Bytes: pdu}
	_, want := pduwire.Decode(pdu)
	if want != nil {
		want = pduError(p, want)
	}
	got, gerr := AppendPDU(nil, "", p)
	if pduwire.New(h.Type) == nil {
		// No decoder: the schema carries the body in hex.
		if body, err := refDecodeBody(h.Type, pdu); err != nil {
			t.Errorf("type %#x: %v; want the body in hex", int32(h.Type), err)
		} else if _, ok := body.(*schema.UnknownBody); !ok {
			t.Errorf("type %#x: %T; want the body in hex", int32(h.Type), body)
		}
		want = nil // pduwire.Decode's ErrType
	}
	if !sameError(gerr, want) {
		t.Errorf("type %#x (%d bytes): AppendPDU %v, pduwire.Decode %v", int32(h.Type), len(pdu), gerr, want)
	}
	ref, rerr := refAppendPDU(nil, "", p)
	if !sameError(gerr, rerr) || !bytes.Equal(got, ref) {
		t.Errorf("type %#x (%d bytes): AppendPDU %x, %v\nthe body marshalled %x, %v", int32(h.Type), len(pdu), got, gerr, ref, rerr)
	}
	// A file name: the header's fifth key, 15 keys with LOG_STATUS_V2's.
	got, _ = AppendPDU(nil, "dir/a file.bin", p)
	if ref, _ = refAppendPDU(nil, "dir/a file.bin", p); !bytes.Equal(got, ref) {
		t.Errorf("type %#x (%d bytes), with a file: AppendPDU %x\nthe body marshalled %x", int32(h.Type), len(pdu), got, ref)
	}
}

// TestDecodeBodyMatchesDecode keeps appendBody's switch in step with
// pduwire.New: every type code gets the same answer for a body-less PDU
// (the body in hex exactly where pduwire has no decoder), and every PDU of the
// real pmcd conversations decodes the same way.
func TestDecodeBodyMatchesDecode(t *testing.T) {
	// pmcd's codes are 0x7000… and pmlogger's 0x8000…; the rest must be
	// ErrType on both sides.
	for code := range int32(0x8100) {
		pdu := pduwire.AppendHeader(nil, pduwire.Header{Len: pduwire.HeaderLen, Type: pduwire.Type(code)})
		checkDecodeBody(t, pdu)
		if code&0x7f00 == 0x7000 || code&0xff00 == 0x8000 {
			long := append(pdu, make([]byte, 64)...)
			binary.BigEndian.PutUint32(long, uint32(len(long)))
			checkDecodeBody(t, long)
		}
	}
	for _, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for p, err := range pduwire.All(in, pduwire.Options{}) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkDecodeBody(t, p.Bytes)
			n++
		}
		if n == 0 {
			t.Fatalf("%s: no PDUs", name)
		}
	}
}

// FuzzDecodeBody: on any PDU with a valid header, AppendPDU and
// pduwire.Decode give the same error (or none), and AppendPDU the bytes
// of the body struct marshalled.
func FuzzDecodeBody(f *testing.F) {
	for _, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for p, err := range pduwire.All(in, pduwire.Options{}) {
			if err != nil {
				break
			}
			f.Add(p.Bytes)
		}
	}
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) >= pduwire.HeaderLen {
			binary.BigEndian.PutUint32(pdu, uint32(len(pdu)))
		}
		checkDecodeBody(t, pdu)
	})
}

// TestAppendBodyEveryType: a PDU of every type pduwire decodes, with
// long strings, many entries, null identifiers and negative numbers,
// whole and with each byte of its body flipped, gives appendBody's
// bytes and errors as the body struct marshalled does.
func TestAppendBodyEveryType(t *testing.T) {
	long := []byte("a name longer than thirty-one bytes, and then some")
	ids := []pcp.ID{pcp.NewID(29, 0, 5), pcp.IDNull, pcp.NewID(511, 4095, 1023)}
	var many []pcp.ID
	for i := range 20 {
		many = append(many, pcp.NewID(uint32(i), 1, 2))
	}
	d := pduwire.Desc{ID: pcp.NewID(1, 2, 3), Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemCounter}
	d2 := pduwire.Desc{ID: pcp.IDNull, Type: pcp.Type(99), InDom: pcp.NewInDom(2, 7), Sem: pcp.Sem(7), Units: 0x10203040}
	json := []byte(`{"a":1,"hostname":"box"}`)
	var host [64]byte
	copy(host[:], "host\x00junk")
	var fqdn [64]byte
	copy(fqdn[:], long)
	msgs := []interface{ Append([]byte, int32) []byte }{
		&pduwire.ErrorPDU{Code: -12345},
		&pduwire.ErrorPDU{Code: -12345, Extended: true, Datum: 0x0203abcd},
		&pduwire.ProfilePDU{Ctx: 3, State: 1, Entries: []pduwire.ProfileEntry{
			{InDom: pcp.NewInDom(29, 2), State: 2, Insts: []int32{1, -1, 1 << 20}}, {InDom: pcp.InDomNull}}},
		&pduwire.FetchPDU{Ctx: 1, PMIDs: ids},
		&pduwire.FetchPDU{HighRes: true, Ctx: -1, PMIDs: many},
		&pduwire.DescReqPDU{PMID: pcp.IDNull},
		&pduwire.DescReqPDU{PMID: pcp.NewID(60, 0, 20)},
		&pduwire.DescPDU{Desc: d},
		&pduwire.DescsPDU{Descs: []pduwire.Desc{d, d2}},
		&pduwire.DescIDsPDU{PMIDs: many},
		&pduwire.InstanceReqPDU{InDom: pcp.NewInDom(29, 1), Inst: -1, Name: long},
		&pduwire.InstancePDU{InDom: pcp.NewInDom(29, 1), Instances: []pduwire.InstanceEntry{{Inst: 0, Name: []byte("zero")}, {Inst: 300, Name: long}}},
		&pduwire.TextReqPDU{Ident: uint32(pcp.NewID(29, 0, 5)), Kind: pduwire.TextOneline | pduwire.TextPMID},
		&pduwire.LabelReqPDU{Ident: 0xffffffff, Kind: 1},
		&pduwire.TextPDU{Ident: 0x12345678, Text: append(long, long...)},
		&pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, 0x1ff), 0xfedcba98}},
		&pduwire.PMNSIDsPDU{Status: -7, PMIDs: ids},
		&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("a.b"), long}},
		&pduwire.PMNSNamesPDU{Names: [][]byte{[]byte("a.b"), long}, Statuses: []int32{0, 1}},
		&pduwire.PMNSNamesPDU{Status: -12},
		&pduwire.PMNSChildPDU{Subtype: 1, Name: []byte("sample")},
		&pduwire.PMNSChildPDU{Traverse: true, Name: long},
		&pduwire.AttrPDU{Attr: 11, Value: long},
		&pduwire.LabelPDU{Ident: 0x7400005, Kind: 4, Sets: []pduwire.LabelSet{
			{Inst: -1, NLabels: 2, JSON: json, Labels: []pduwire.LabelEntry{{Name: 2, NameLen: 1, Flags: 1, Value: 5, ValueLen: 1}, {Name: 8, NameLen: 8, Flags: 0x42, Value: 18, ValueLen: 5}}},
			{Inst: 3, NLabels: -12}}},
		&pduwire.LogRequestPDU{Request: 2},
		&pduwire.LogControlPDU{Control: 1, State: 2, Delta: 5000, Metrics: []pduwire.LogMetric{
			{PMID: pcp.NewID(2, 3, 4), NumVal: -5}, {PMID: pcp.IDNull, Values: []pduwire.LogValue{{Inst: -1, Value: 1 << 31}, {Inst: 7, Value: 3}}}}},
		&pduwire.LogStatusV2PDU{Start: pduwire.LogTime{Sec: 1700000000, Frac: 999999}, Last: pduwire.LogTime{Sec: -1, Frac: 1},
			Now: pduwire.LogTime{Sec: 5}, State: 3, Vol: -1, Size: 1 << 40, Host: host, FQDN: fqdn},
		&pduwire.LogStatusPDU{Start: pduwire.LogTime{Sec: 1700000000, Frac: 999999999}, State: 1, Vol: 2, Size: -3,
			Strings: [6][]byte{[]byte("host"), nil, long, []byte("x\x00y"), []byte("UTC"), []byte("tz")}},
	}
	for _, m := range msgs {
		pdu := m.Append(nil, 7)
		checkDecodeBody(t, pdu)
		for i := pduwire.HeaderLen; i < len(pdu); i++ {
			b := bytes.Clone(pdu)
			b[i] ^= 0x81
			checkDecodeBody(t, b)
		}
	}
}
