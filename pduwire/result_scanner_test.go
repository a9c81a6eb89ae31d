package pduwire_test

import (
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
)

// appendValueSet appends what a walk reads of vs: the record and every
// value, block type and payload included.
func appendValueSet(b []byte, vs pduwire.ValueSet) []byte {
	b = wire.AppendU32BE(b, uint32(vs.PMID))
	b = wire.AppendU32BE(b, uint32(vs.NumVal))
	b = append(b, vs.ValFmt)
	for i := range vs.Len() {
		v := vs.Value(i)
		b = wire.AppendU32BE(b, uint32(v.Inst))
		b = wire.AppendU32BE(b, v.Word)
		b = append(b, byte(v.BlockType()))
		b = wire.AppendU32BE(b, uint32(len(v.Payload())))
		b = append(b, v.Payload()...)
	}
	return b
}

// checkReader reads pdu with a ResultScanner and fails unless it refuses
// exactly what ParseResult refuses (the same error text: kind, field and
// offset) and reads the same header and values from what it accepts.
// Every bad-input table (through checkVerdict) and every fuzz input
// (through checkRoundTrip) runs it.
func checkReader(t testing.TB, pdu []byte) {
	t.Helper()
	r, perr := pduwire.ParseResult(pdu)
	var want, got []byte
	if perr == nil {
		s := r.Scan()
		for s.Next() {
			want = appendValueSet(want, s.ValueSet())
		}
	}
	rr, err := pduwire.NewResultScanner(pdu)
	if err == nil {
		if rr.HighRes != r.HighRes && perr == nil || perr == nil && (rr.Sec != r.Sec || rr.Nsec != r.Nsec || rr.NumPMID != r.NumPMID) {
			t.Fatalf("reader header %v %d %d %d, view %v %d %d %d", rr.HighRes, rr.Sec, rr.Nsec, rr.NumPMID, r.HighRes, r.Sec, r.Nsec, r.NumPMID)
		}
		n := 0
		for rr.Next() {
			got = appendValueSet(got, rr.ValueSet())
			n++
		}
		if rr.Next() {
			t.Fatal("Next after the end reports a set")
		}
		if err = rr.Err(); err == nil && n != rr.NumPMID {
			t.Fatalf("read %d sets of %d", n, rr.NumPMID)
		}
	}
	if (err == nil) != (perr == nil) || err != nil && err.Error() != perr.Error() {
		t.Fatalf("ResultScanner: %v\nParseResult:  %v", err, perr)
	}
	if perr == nil && string(got) != string(want) {
		t.Fatalf("ResultScanner read other values than the view")
	}
}

// TestResultScannerSeeds: every captured and QA PDU, and the bench
// results, read the same through the reader as through the view.
func TestResultScannerSeeds(t *testing.T) {
	for _, typ := range []pduwire.Type{pduwire.TypeResult, pduwire.TypeHighResResult} {
		for _, p := range seedPDUs(t, typ) {
			checkReader(t, p)
		}
	}
}

// TestResultScannerAllocs: reading every value of the 1,000-value results
// with a ResultScanner allocates nothing.
func TestResultScannerAllocs(t *testing.T) {
	for _, f := range []string{"result-1000.bin", "result-1000-highres.bin"} {
		pdu := readFile(t, "testdata/bench/"+f)
		if n, err := readResult(pdu); err != nil || n != 1000 {
			t.Fatalf("%s: %d values, %v", f, n, err)
		}
		if a := testing.AllocsPerRun(100, func() { _, _ = readResult(pdu) }); a != 0 {
			t.Errorf("%s: %v allocs per read, want 0", f, a)
		}
	}
}

// readResult reads every value of pdu with a ResultScanner, as walkResult
// does with ParseResult and Scan.
func readResult(pdu []byte) (int, error) {
	rr, err := pduwire.NewResultScanner(pdu)
	if err != nil {
		return 0, err
	}
	n := 0
	for rr.Next() {
		vs := rr.ValueSet()
		for i := range vs.Len() {
			sink += vs.Value(i).Uint64()
			n++
		}
	}
	return n, rr.Err()
}

func BenchmarkResultScanner1000(b *testing.B) {
	pdu := readFile(b, "testdata/bench/result-1000.bin")
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readResult(pdu); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHighResResultScanner1000(b *testing.B) {
	pdu := readFile(b, "testdata/bench/result-1000-highres.bin")
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readResult(pdu); err != nil {
			b.Fatal(err)
		}
	}
}
