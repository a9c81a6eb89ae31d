package pduwire_test

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
)

// mk builds a PDU of type t from body words, with len filled in.
func mk(t pduwire.Type, words ...uint32) []byte {
	b := wire.AppendU32BE(nil, uint32(12+4*len(words)))
	b = wire.AppendU32BE(b, uint32(t))
	b = wire.AppendU32BE(b, 0)
	for _, w := range words {
		b = wire.AppendU32BE(b, w)
	}
	return b
}

// withBytes appends raw bytes to a PDU built by mk and fixes its len.
func withBytes(p []byte, extra ...byte) []byte {
	p = append(p, extra...)
	wire.PutU32BE(p, 0, uint32(len(p)))
	return p
}

// setLen overwrites the len word without changing the bytes.
func setLen(p []byte, n uint32) []byte {
	q := bytes.Clone(p)
	wire.PutU32BE(q, 0, n)
	return q
}

const m1 = 0xffffffff // -1 as a word

// result builds a RESULT PDU: timestamp 0, then the given words after numpmid.
func result(numpmid uint32, words ...uint32) []byte {
	return mk(pduwire.TypeResult, append([]uint32{0, 0, numpmid}, words...)...)
}

// An event array value: RESULT with one SPTR value at word 11 (byte 44).
func eventResult(arr ...uint32) []byte {
	return result(1, append([]uint32{0x07400088, 1, 2, 0, 11}, arr...)...)
}

// TestBadInput covers every shape of docs/pcp-pdu.md §8.1 and the §8.2 checklist
// that applies to body decoders; each must fail with a specific kind.
func TestBadInput(t *testing.T) {
	const pmid = 0x07400005
	tests := []struct {
		name string
		pdu  []byte
		want error // nil: must decode
		off  int   // expected offset, -1 = not checked
	}{
		// docs/pcp-pdu.md §8.1 #1: fixed-size blocks with the wrong vlen.
		{"64-bit block vlen 8", result(1, pmid, 1, 1, m1, 11, 0x02000008, 7), pduwire.ErrValueBlock, 44},
		{"double block vlen 16", result(1, pmid, 1, 1, m1, 11, 0x05000010, 7, 7, 7), pduwire.ErrValueBlock, 44},
		{"float block vlen 4", result(1, pmid, 1, 1, m1, 11, 0x04000004), pduwire.ErrValueBlock, 44},
		{"float block ok", result(1, pmid, 1, 1, m1, 11, 0x04000008, 0x3f800000), nil, -1},
		// docs/pcp-pdu.md §8.1 #2–#5: event arrays.
		{"event params overrun array", eventResult(0x09000024, 1, 0, 0, 0, 2, pmid, 0x01000008, 7, pmid, 0x01000008), pduwire.ErrEvent, -1},
		{"event ep_len 3", eventResult(0x09000020, 1, 0, 0, 0, 1, pmid, 0x06000003, 0), pduwire.ErrEvent, -1},
		{"event U32 ep_len 12", eventResult(0x09000024, 1, 0, 0, 0, 1, pmid, 0x0100000c, 0, 0), pduwire.ErrEvent, -1},
		{"event negative nparams", eventResult(0x09000018, 1, 0, 0, 1, m1), pduwire.ErrEvent, -1},
		{"event MISSED|POINT", eventResult(0x09000018, 1, 0, 0, 0x80000001, 3), pduwire.ErrEvent, -1},
		{"event MISSED alone", eventResult(0x09000018, 1, 0, 0, 0x80000000, 3), nil, -1},
		{"event nested array param", eventResult(0x09000020, 1, 0, 0, 0, 1, pmid, 0x09000008, 0), pduwire.ErrEvent, -1},
		{"event nrecords negative", eventResult(0x09000008, m1), pduwire.ErrEvent, -1},
		{"event ea_len not a multiple of 4", eventResult(0x09000009, 0, 0), pduwire.ErrEvent, -1},
		// docs/pcp-pdu.md §8.1 #6: LABEL with a negative json offset.
		{"label negative json", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 0, 0xfffffff0, 2), '{', '}'), pduwire.ErrField, 36},
		{"label json past end", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 0, 44, 3), '{', '}'), pduwire.ErrField, 36},
		{"label huge jsonlen", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 0, 44, 0x7fffffff), '{', '}'), pduwire.ErrField, 36},
		{"label nlabels 255", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 255, 44, 2), '{', '}'), pduwire.ErrCount, 32},
		{"label span beyond jsonlen", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 1, 52, 2, 0x00010200, 0x00010001), '{', '}'), pduwire.ErrField, 44},
		{"label nsets beyond room", mk(pduwire.TypeLabel, m1, 1, 0, 2, m1, 0, 44, 0), pduwire.ErrCount, 24},
		{"label good", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 0, 44, 2), '{', '}'), nil, -1},
		{"label trailing junk", withBytes(mk(pduwire.TypeLabel, m1, 1, 0, 1, m1, 0, 44, 2), '{', '}', 0, 0, 0, 0), pduwire.ErrTrailing, -1},
		// docs/pcp-pdu.md §8.1 #7: INSTANCE whose padded advance jumps past len.
		{"instance padded advance past end", withBytes(mk(pduwire.TypeInstance, 0x07400001, 2, 0, 13), make([]byte, 13)...), pduwire.ErrTruncated, 28},
		{"instance missing final pad", withBytes(mk(pduwire.TypeInstance, 0x07400001, 1, 0, 1), 'a'), nil, -1},
		{"instance name past end", withBytes(mk(pduwire.TypeInstance, 0x07400001, 1, 0, 9), 'a', 'b', 'c', 'd'), pduwire.ErrTruncated, 28},
		{"instance numinst beyond room", mk(pduwire.TypeInstance, 0x07400001, 2, 0, 0), pduwire.ErrCount, 16},
		{"instance trailing junk", mk(pduwire.TypeInstance, 0x07400001, 1, 0, 0, 0), pduwire.ErrTrailing, 28},
		// docs/pcp-pdu.md §8.1 #8: LOG_STATUS.
		{"log_status short", mk(pduwire.TypeLogStatus, make([]uint32, 18)...), pduwire.ErrTruncated, -1},
		{"log_status negative strlen", mk(pduwire.TypeLogStatus, append(make([]uint32, 13), m1, 0, 0, 0, 0, 0)...), pduwire.ErrCount, 64},
		{"log_status strlen 257", mk(pduwire.TypeLogStatus, append(make([]uint32, 13), 257, 0, 0, 0, 0, 0)...), pduwire.ErrCount, 64},
		{"log_status string crosses len", mk(pduwire.TypeLogStatus, append(make([]uint32, 13), 8, 0, 0, 0, 0, 0, 0)...), pduwire.ErrTruncated, 88},
		// docs/pcp-pdu.md §8.1 #9: CREDS.
		{"creds len 16", mk(pduwire.TypeCreds, 1), pduwire.ErrTruncated, -1},
		{"creds numcreds 0", mk(pduwire.TypeCreds, 0, 0x01020000), pduwire.ErrCount, 12},
		{"creds numcreds 1025", mk(pduwire.TypeCreds, 1025, 0x01020000), pduwire.ErrCount, 12},
		{"creds len mismatch", mk(pduwire.TypeCreds, 2, 0x01020000), pduwire.ErrLength, 0},
		// docs/pcp-pdu.md §8.1, item 11: duplicate and overlapping block references.
		{"duplicate block reference", result(2, pmid, 1, 1, m1, 16, pmid, 1, 1, m1, 16, 0x0200000c, 0, 1, 0x0200000c, 0, 2), pduwire.ErrOverlap, 60},
		{"overlapping blocks", result(2, pmid, 1, 1, m1, 16, pmid, 1, 1, m1, 17, 0x07000008, 0x0200000c, 0, 1, 0), pduwire.ErrOverlap, 60},
		{"blocks out of order", result(2, pmid, 1, 1, m1, 19, pmid, 1, 1, m1, 16, 0x0200000c, 0, 1, 0x0200000c, 0, 2), nil, -1},
		// docs/pcp-pdu.md §8.1, item 12: TEXT.ident not matching anything is accepted.
		{"text ident host order", withBytes(mk(pduwire.TypeText, 0x05004007, 2), 'h', 'i', 0x7e, 0x7e), nil, -1},
		// docs/pcp-pdu.md §8.2: ERROR lengths.
		{"error len 12", mk(pduwire.TypeError), pduwire.ErrLength, 0},
		{"error len 24", mk(pduwire.TypeError, 0, 0, 0), pduwire.ErrLength, 0},
		// docs/pcp-pdu.md §8.2: PROFILE, FETCH, DESC_IDS.
		{"profile numprof beyond room", mk(pduwire.TypeProfile, 0, 0, 2, 0, 0x07400001, 0, 0, 0), pduwire.ErrCount, 20},
		{"profile numinst beyond room", mk(pduwire.TypeProfile, 0, 0, 1, 0, 0x07400001, 0, 2, 0, 5), pduwire.ErrCount, 36},
		{"profile trailing", mk(pduwire.TypeProfile, 0, 0, 1, 0, 0x07400001, 0, 0, 0, 5), pduwire.ErrTrailing, 44},
		{"profile negative ctx", mk(pduwire.TypeProfile, m1, 0, 0), pduwire.ErrField, 12},
		{"fetch numpmid 0", mk(pduwire.TypeFetch, 0, 0, 0, 0, pmid), pduwire.ErrCount, 24},
		{"fetch len mismatch", mk(pduwire.TypeFetch, 0, 0, 0, 1, pmid, pmid), pduwire.ErrLength, 0},
		{"fetch numpmid INT_MAX", mk(pduwire.TypeFetch, 0, 0, 0, 0x7fffffff, pmid), pduwire.ErrCount, 24},
		{"desc_ids sts 0", mk(pduwire.TypeDescIDs, 0, 1, pmid), pduwire.ErrField, 12},
		{"descs count beyond room", mk(pduwire.TypeDescs, 2, pmid, 0, m1, 3, 0), pduwire.ErrCount, 12},
		{"pmns_names trailing junk", withBytes(mk(pduwire.TypePMNSNames, 2, 0, 1, 1), 'a', 0, 0, 0, 1, 2, 3, 4), pduwire.ErrTrailing, -1},
		{"pmns_names name past end", withBytes(mk(pduwire.TypePMNSNames, 20, 0, 1, 12), 'a', 'b', 'c', 'd', 'e', 'f'), pduwire.ErrTruncated, 24},
		// A last name without its final pad, or an empty one, lies in
		// bounds and is kept; libpcp refuses these when the name is
		// shorter than 4 bytes (fuzz/RESULTS.md D14).
		{"pmns_names missing final pad", withBytes(mk(pduwire.TypePMNSNames, 16, 0, 2, 12), []byte("sample.long.\x00\x00\x00\x02ab")...), nil, -1},
		{"pmns_names empty last name, partial pad", withBytes(mk(pduwire.TypePMNSNames, 14, 2, 2, 0, 12), []byte("sample.long.\x00\x00\x00\x01\x00\x00\x00\x00\x00")...), nil, -1},
		{"pmns_names last name cut", withBytes(mk(pduwire.TypePMNSNames, 17, 0, 2, 12), []byte("sample.long.\x00\x00\x00\x03ab")...), pduwire.ErrTruncated, 40},
		{"instance_req negative namelen", mk(pduwire.TypeInstanceReq, 0, 0, 0, m1, m1), pduwire.ErrCount, 28},
		// libpcp 6.0.3 accepts a name without its final pad (fuzz/diff
		// seed c7ab339da6eeb4e5); one byte short of that is refused.
		{"instance_req missing final pad", withBytes(mk(pduwire.TypeInstanceReq, 0, 0, 0, m1, 5), 'h', 'e', 'l', 'l', 'o'), nil, -1},
		{"instance_req partial final pad", withBytes(mk(pduwire.TypeInstanceReq, 0, 0, 0, m1, 5), 'h', 'e', 'l', 'l', 'o', 0, 0), nil, -1},
		{"instance_req name cut", withBytes(mk(pduwire.TypeInstanceReq, 0, 0, 0, m1, 5), 'h', 'e', 'l', 'l'), pduwire.ErrCount, 28},
		{"text buflen past end", withBytes(mk(pduwire.TypeText, 0, 5), 'a', 'b', 'c', 'd'), pduwire.ErrCount, 16},
		{"attr value 4096", withBytes(mk(pduwire.TypeAttr, 5), make([]byte, 4096)...), pduwire.ErrLimit, 0},
		{"log_control numpmid beyond room", mk(pduwire.TypeLogControl, 13, 0, 0, 2, pmid, 0), pduwire.ErrCount, 24},
		{"log_control numval beyond room", mk(pduwire.TypeLogControl, 13, 0, 0, 1, pmid, 2, 0, 0), pduwire.ErrCount, 32},
		// docs/pcp-pdu.md §8.2: RESULT and HIGHRES_RESULT.
		{"result numpmid > len", result(1000), pduwire.ErrCount, 20},
		{"result numpmid negative", result(m1), pduwire.ErrCount, 20},
		{"highres numpmid > len", mk(pduwire.TypeHighResResult, 1000, 0, 0, 0, 0), pduwire.ErrCount, 12},
		{"result numval negative", result(1, pmid, 0xffffcf9e), nil, -1},
		{"result numval huge", result(1, pmid, 0x7fffffff, 0), pduwire.ErrCount, 28},
		{"result numval > remaining", result(1, pmid, 2, 0, 0, 0), pduwire.ErrTruncated, 24},
		{"result record header cut", result(2, pmid, 0, pmid), pduwire.ErrTruncated, 32},
		{"result valfmt 3", result(1, pmid, 1, 3, 0, 0), pduwire.ErrValueFormat, 32},
		{"result valfmt -1", result(1, pmid, 1, m1, 0, 0), pduwire.ErrValueFormat, 32},
		{"result index 0", result(1, pmid, 1, 1, m1, 0), pduwire.ErrContiguity, 44},
		{"result index into records", result(1, pmid, 1, 1, m1, 7, 0x0200000c, 0, 1), pduwire.ErrValueBlock, 28},
		{"result index at len", result(1, pmid, 1, 1, m1, 11), pduwire.ErrValueBlock, 40},
		{"result index huge", result(1, pmid, 1, 1, m1, 0x80000000), pduwire.ErrValueBlock, 40},
		{"result gap before block", result(1, pmid, 1, 1, m1, 12, 0, 0x0200000c, 0, 1), pduwire.ErrContiguity, 44},
		{"result unreferenced trailing block", result(1, pmid, 1, 1, m1, 11, 0x0200000c, 0, 1, 0x0200000c, 0, 1), pduwire.ErrContiguity, 44},
		{"result vlen 3", result(1, pmid, 1, 1, m1, 11, 0x06000003), pduwire.ErrValueBlock, 44},
		{"result vlen past end", result(1, pmid, 1, 1, m1, 11, 0x06000010, 0), pduwire.ErrValueBlock, 44},
		{"result vlen > len", result(1, pmid, 1, 1, m1, 11, 0x06ffffff, 0), pduwire.ErrValueBlock, 44},
		{"result string without NUL", result(1, pmid, 1, 1, m1, 11, 0x06000006, 0x61620000), nil, -1},
		{"result trailing after insitu", result(1, pmid, 1, 0, m1, 7, 0), pduwire.ErrTrailing, 44},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if isResult(tc.pdu) {
				checkReader(t, tc.pdu)
			}
			_, err := pduwire.Decode(tc.pdu)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			pe, ok := errors.AsType[*pduwire.ParseError](err)
			if !ok {
				t.Fatalf("%v is not a *ParseError", err)
			}
			if tc.off >= 0 && pe.Offset != int64(tc.off) {
				t.Errorf("offset %d, want %d (%v)", pe.Offset, tc.off, err)
			}
		})
	}
}

// TestFramingBadInput covers the framing items of docs/pcp-pdu.md §8.2.
func TestFramingBadInput(t *testing.T) {
	hdr := func(l uint32, typ uint32) []byte {
		return wire.AppendU32BE(wire.AppendU32BE(wire.AppendU32BE(nil, l), typ), 0)
	}
	full := func(l uint32) []byte { return append(hdr(l, 0x7000), make([]byte, max(int(l), 12)-12)...) }
	tests := []struct {
		name  string
		in    []byte
		limit int
		want  error
		n     int // PDUs before the error
	}{
		{"len 0", hdr(0, 0x7000), 0, pduwire.ErrHeaderLen, 0},
		{"len 11", hdr(11, 0x7000), 0, pduwire.ErrHeaderLen, 0},
		{"len 12", hdr(12, 0x7000), 0, nil, 1},
		{"len 13 truncated", hdr(13, 0x7000), 0, pduwire.ErrTruncated, 0},
		{"len 65535", full(65535), pduwire.ServerMaxPDULen, nil, 1},
		{"len 65536", full(65536), pduwire.ServerMaxPDULen, nil, 1},
		{"len 65537", full(65537), pduwire.ServerMaxPDULen, pduwire.ErrLimit, 0},
		{"len 0x7fffffff", hdr(0x7fffffff, 0x7001), 0, pduwire.ErrLimit, 0},
		{"len 0x80000000", hdr(0x80000000, 0x7001), 0, pduwire.ErrLimit, 0},
		{"len 0xffffffff", hdr(0xffffffff, 0x7001), 0, pduwire.ErrLimit, 0},
		{"negative type", hdr(12, 0xfffffffb), 0, pduwire.ErrType, 0},
		{"unknown type is framed", hdr(12, 0x7fff), 0, nil, 1},
		{"truncated header", hdr(12, 0x7000)[:7], 0, pduwire.ErrTruncated, 0},
		{"odd lengths back to back", append(append(withBytes(mk(pduwire.TypeAttr, 5), 'a', 'b', 'c'), hdr(13, 0x7011)...), 'x'), 0, nil, 2},
		{"second PDU cut", append(withBytes(mk(pduwire.TypeAttr, 5), 'a'), hdr(20, 0x7000)...), 0, pduwire.ErrTruncated, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := pduwire.NewScanner(tc.in, pduwire.Options{MaxPDULen: tc.limit})
			n := 0
			for s.Next() {
				n++
			}
			if !errors.Is(s.Err(), tc.want) || (tc.want == nil) != (s.Err() == nil) || n != tc.n {
				t.Fatalf("scanner: %d PDUs, err %v; want %d, %v", n, s.Err(), tc.n, tc.want)
			}
			r := pduwire.NewReader(bytes.NewReader(tc.in), pduwire.Options{MaxPDULen: tc.limit})
			n = 0
			for r.Next() {
				n++
			}
			err := r.Err()
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) || n != tc.n {
				t.Fatalf("reader: %d PDUs, err %v; want %d, %v", n, err, tc.n, tc.want)
			}
		})
	}
}

// TestHugeLenDoesNotAllocate: a header announcing 0x7fffffff bytes is
// rejected before any body buffer exists, and a large len within the
// limit that is never delivered costs only what actually arrived.
func TestHugeLenDoesNotAllocate(t *testing.T) {
	in := mk(pduwire.TypeResult)
	wire.PutU32BE(in, 0, 0x7fffffff)
	s := pduwire.NewScanner(in, pduwire.Options{})
	if a := testing.AllocsPerRun(100, func() {
		s = pduwire.NewScanner(in, pduwire.Options{MaxPDULen: pduwire.MaxPDULen})
		s.Next()
	}); a > 1 { // the one allocation is the *ParseError
		t.Errorf("scanner: %v allocs", a)
	}
	if !errors.Is(s.Err(), pduwire.ErrLimit) {
		t.Errorf("scanner: %v", s.Err())
	}
	measure := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	var err error
	if n := measure(func() {
		r := pduwire.NewReader(bytes.NewReader(in), pduwire.Options{MaxPDULen: pduwire.MaxPDULen})
		r.Next()
		err = r.Err()
	}); n > 64<<10 || !errors.Is(err, pduwire.ErrLimit) {
		t.Errorf("reader, len 0x7fffffff: %d bytes allocated, err %v", n, err)
	}
	// 60 MiB announced (within the client limit), 100 bytes delivered.
	slow := append(setLen(mk(pduwire.TypeResult, 0, 0, 0), 60<<20), make([]byte, 100)...)
	if n := measure(func() {
		r := pduwire.NewReader(bytes.NewReader(slow), pduwire.Options{MaxPDULen: pduwire.DefaultMaxPDULen})
		r.Next()
		err = r.Err()
	}); n > 256<<10 || !errors.Is(err, pduwire.ErrTruncated) {
		t.Errorf("reader, 60 MiB announced: %d bytes allocated, err %v", n, err)
	}
}
