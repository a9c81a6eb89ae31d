package eventrec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
)

// This file holds test-only helpers: a minimal PDU splitter and RESULT /
// HIGHRES_RESULT value-block extractor (pduwire is another package's
// job), and printers reproducing what pminfo prints for event arrays, so
// decoded arrays can be compared with the real tools' text.

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	pduResult        = 0x7001
	pduHighResResult = 0x7015
)

// splitPDUs cuts a byte stream into PDUs using only the header's len word.
func splitPDUs(stream []byte) ([][]byte, error) {
	var out [][]byte
	for len(stream) > 0 {
		if len(stream) < 12 {
			return out, errors.New("short PDU header")
		}
		n := binary.BigEndian.Uint32(stream)
		if n < 12 || uint64(n) > uint64(len(stream)) {
			return out, fmt.Errorf("bad PDU len %d", n)
		}
		out = append(out, stream[:n:n])
		stream = stream[n:]
	}
	return out, nil
}

func pduType(pdu []byte) uint32 { return binary.BigEndian.Uint32(pdu[4:]) }

// eventBlock is one pointer value of a RESULT whose block is an event
// array.
type eventBlock struct {
	pmid  pcp.ID
	inst  int32
	off   int  // byte offset of the block in the PDU
	first bool // the first block of its PDU, as highResBlocks gives it
}

// eventBlocks lists the event-array value blocks of a RESULT or
// HIGHRES_RESULT PDU, in value-set order. It trusts nothing: every read
// is bounds-checked, and on error the blocks found so far are returned.
func eventBlocks(pdu []byte) ([]eventBlock, error) {
	var out []eventBlock
	off := 0
	switch pduType(pdu) {
	case pduResult:
		off = 12 + 8
	case pduHighResResult:
		off = 12
	default:
		return out, errors.New("not a RESULT")
	}
	u32 := func(at int) (uint32, error) {
		if at < 0 || at+4 > len(pdu) {
			return 0, fmt.Errorf("read past PDU end at %d", at)
		}
		return binary.BigEndian.Uint32(pdu[at:]), nil
	}
	numpmid, err := u32(off)
	if err != nil {
		return out, err
	}
	off += 4
	if pduType(pdu) == pduHighResResult {
		off += 16
	}
	for i := uint32(0); i < numpmid; i++ {
		pmid, err := u32(off)
		if err != nil {
			return out, err
		}
		nv, err := u32(off + 4)
		if err != nil {
			return out, err
		}
		numval := int32(nv)
		off += 8
		if numval <= 0 {
			continue
		}
		valfmt, err := u32(off)
		if err != nil {
			return out, err
		}
		off += 4
		for j := int32(0); j < numval; j++ {
			inst, err := u32(off)
			if err != nil {
				return out, err
			}
			w, err := u32(off + 4)
			if err != nil {
				return out, err
			}
			off += 8
			if valfmt == 0 {
				continue
			}
			hdr, err := u32(int(w) * 4)
			if err != nil {
				return out, err
			}
			if t := pcp.Type(hdr >> 24); t == pcp.TypeEvent || t == pcp.TypeHighResEvent {
				out = append(out, eventBlock{pmid: pcp.ID(pmid), inst: int32(inst), off: int(w) * 4})
			}
		}
	}
	return out, nil
}

// stamp formats a record time as pmPrintStamp / pmPrintHighResStamp do
// in UTC: HH:MM:SS.mmm (microseconds truncated) or HH:MM:SS.nnnnnnnnn.
func stamp(sec, frac int64, highRes bool) string {
	t := time.Unix(sec, 0).UTC()
	if highRes {
		return fmt.Sprintf("%02d:%02d:%02d.%09d", t.Hour(), t.Minute(), t.Second(), frac)
	}
	return fmt.Sprintf("%02d:%02d:%02d.%03d", t.Hour(), t.Minute(), t.Second(), frac/1000)
}

// summary formats an array as the bracketed value pminfo -f prints
// (libpcp's print_event_summary): the record count, the missed count
// and the first and "last" timestamps. libpcp finds the last stamp by
// walking the first n-1 records, and its walk does not step over a
// missed marker (it stays on it and keeps adding its count), so with a
// marker among the first n-1 records the stamp it prints is the marker's
// (seen live: 5 records, marker at [3], stamp of [3] printed). The walk
// is emulated here on the raw bytes, on a validated array.
func summary(a Array) string {
	b, n, hdr := a.Bytes(), a.Len(), recordHeaderLen
	if a.HighRes() {
		hdr = hrRecordHeaderLen
	}
	s := fmt.Sprintf("[%d event record", n)
	if n != 1 {
		s += "s"
	}
	recAt := func(off int) Record {
		sc := Array{b: b, typ: a.Type(), n: 1}.Scanner()
		sc.off = off
		if !sc.Next() {
			panic("bad record in validated array")
		}
		return sc.Record()
	}
	base, missed := arrayHeaderLen, 0
	for r := 0; r < n-1; r++ {
		rec := recAt(base)
		if m, ok := rec.Missed(); ok {
			missed += int(m)
			continue
		}
		base += hdr + len(rec.params)
	}
	if missed > 0 {
		s += fmt.Sprintf(" (%d missed)", missed)
	}
	if n > 0 {
		first := recAt(arrayHeaderLen)
		s += " timestamp"
		if n > 1 {
			s += "s"
		}
		s += " " + stamp(first.Seconds(), first.Fraction(), a.HighRes())
		if n > 1 {
			last := recAt(base)
			s += "..." + stamp(last.Seconds(), last.Fraction(), a.HighRes())
		}
	}
	return s + "]"
}

// printValue formats an unpacked value as pmPrintValue does for the
// types the sample PMDA sends.
func printValue(t testing.TB, v Value) string {
	t.Helper()
	switch {
	case v.InsituFmt && v.Type == pcp.Type32:
		return fmt.Sprint(int32(v.Insitu))
	case v.InsituFmt:
		return fmt.Sprint(v.Insitu)
	}
	b := v.Block
	switch v.Type {
	case pcp.Type64:
		return fmt.Sprint(int64(binary.BigEndian.Uint64(b)))
	case pcp.TypeU64:
		return fmt.Sprint(binary.BigEndian.Uint64(b))
	case pcp.TypeFloat:
		return fmt.Sprintf("%.8g", math.Float32frombits(binary.BigEndian.Uint32(b)))
	case pcp.TypeDouble:
		return fmt.Sprintf("%.16g", math.Float64frombits(binary.BigEndian.Uint64(b)))
	case pcp.TypeString:
		return `"` + string(b) + `"`
	case pcp.TypeAggregate:
		// pmPrintValue shows an aggregate's first 8 bytes as a host-order
		// (little-endian here) u64 and double, then all bytes in hex.
		if len(b) >= 8 {
			u := binary.LittleEndian.Uint64(b)
			return fmt.Sprintf("%d %.16g [%x]", u, math.Float64frombits(u), b)
		}
		return fmt.Sprintf("[%x]", b)
	}
	t.Fatalf("no printer for type %d", v.Type)
	return ""
}

// detail formats the records of a as pminfo -x prints them below the
// summary line; names maps PMIDs to metric names.
func detail(t testing.TB, a Array, names map[pcp.ID]string) []string {
	t.Helper()
	var out []string
	var u Unpacker
	results := u.Unpack(a)
	i := 0
	for r := range a.Records() {
		line := fmt.Sprintf("    --- event record [%d] timestamp %s", i, stamp(r.Seconds(), r.Fraction(), a.HighRes()))
		if r.Flags() != 0 {
			line += fmt.Sprintf(" flags 0x%x (%s)", uint32(r.Flags()), r.Flags())
		}
		out = append(out, line+" ---")
		var params []Param
		for p := range r.Params() {
			params = append(params, p)
		}
		for _, v := range results[i].Values {
			if v.ID != DefaultFlagsID && v.ID != DefaultMissedID {
				// Param.AppendText must print what pminfo prints.
				text, _ := params[0].AppendText(nil)
				if want := printValue(t, v); string(text) != want {
					t.Errorf("Param.AppendText = %q, pmPrintValue model %q", text, want)
				}
				params = params[1:]
			}
			switch v.ID {
			case DefaultFlagsID:
			case DefaultMissedID:
				out = append(out, fmt.Sprintf("        ==> %d missed event records", v.Insitu))
			default:
				out = append(out, fmt.Sprintf("    %s (%s)", names[v.ID], v.ID), "        value "+printValue(t, v))
			}
		}
		i++
	}
	return out
}

// parseNames reads `pminfo -m` output ("name PMID: d.c.i" lines) into a
// PMID → name map.
func parseNames(t testing.TB, text string) map[pcp.ID]string {
	t.Helper()
	names := map[pcp.ID]string{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var name string
		var d, c, i uint32
		if _, err := fmt.Sscanf(line, "%s PMID: %d.%d.%d", &name, &d, &c, &i); err != nil {
			t.Fatalf("pminfo -m line %q: %v", line, err)
		}
		names[pcp.NewID(d, c, i)] = name
	}
	return names
}

// renderPminfoX decodes every event array in the HIGHRES_RESULT PDUs of a
// server→client stream and prints them as `pminfo -x` does, with
// instance names dropped ("inst [N]"); see normalizePminfo.
func renderPminfoX(t testing.TB, stream []byte, names map[pcp.ID]string) string {
	t.Helper()
	var lines []string
	var last pcp.ID
	for pdu, blk := range highResBlocks(t, stream) {
		if blk.first || blk.pmid != last {
			lines = append(lines, "", names[blk.pmid])
			last = blk.pmid
		}
		a, err := Parse(pdu[blk.off:], Options{Base: blk.off})
		if err != nil {
			t.Fatalf("%s inst %d: %v", blk.pmid, blk.inst, err)
		}
		lines = append(lines, fmt.Sprintf("    inst [%d] value %s", blk.inst, summary(a)))
		lines = append(lines, detail(t, a, names)...)
	}
	return strings.Join(lines, "\n") + "\n"
}

// highResBlocks walks the event-array values of every HIGHRES_RESULT
// PDU of a server→client stream: each PDU with one of its blocks, first
// set on a PDU's first block. The test fails on a stream or PDU that
// does not split.
func highResBlocks(t testing.TB, stream []byte) iter.Seq2[[]byte, eventBlock] {
	t.Helper()
	pdus, err := splitPDUs(stream)
	if err != nil {
		t.Fatal(err)
	}
	return func(yield func([]byte, eventBlock) bool) {
		for _, pdu := range pdus {
			if pduType(pdu) != pduHighResResult {
				continue
			}
			blocks, err := eventBlocks(pdu)
			if err != nil {
				t.Fatal(err)
			}
			for i, blk := range blocks {
				blk.first = i == 0
				if !yield(pdu, blk) {
					return
				}
			}
		}
	}
}

// normalizePminfo drops instance names (` or "fungus"`) from pminfo
// output; the event arrays do not carry them.
func normalizePminfo(text string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, ` or "`); i >= 0 && strings.HasPrefix(line, "    inst [") {
			if j := strings.Index(line[i+5:], `"]`); j >= 0 {
				line = line[:i] + line[i+5+j+1:]
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// padMask marks the bytes of an array that are parameter pad (after a
// value, up to the 4-byte boundary): the only bytes whose content the
// format leaves free, and the only ones allowed to differ when the
// builder re-encodes a decoded array.
func padMask(a Array) []bool {
	mask := make([]bool, len(a.Bytes()))
	for r := range a.Records() {
		off := r.Offset() + recordHeaderLen
		if a.HighRes() {
			off = r.Offset() + hrRecordHeaderLen
		}
		for p := range r.Params() {
			end := off + paramHeaderLen + len(p.Value)
			padded := off + 4 + (4+len(p.Value)+3)&^3
			for i := end; i < padded; i++ {
				mask[i] = true
			}
			off = padded
		}
	}
	return mask
}

// checkReencode re-encodes every event array of the RESULTs in a stream
// and compares with the original bytes, pad excepted.
func checkReencode(t testing.TB, stream []byte) {
	t.Helper()
	pdus, err := splitPDUs(stream)
	if err != nil {
		t.Fatal(err)
	}
	for _, pdu := range pdus {
		if typ := pduType(pdu); typ != pduHighResResult && typ != pduResult {
			continue
		}
		blocks, err := eventBlocks(pdu)
		if err != nil {
			t.Fatal(err)
		}
		for _, blk := range blocks {
			a, err := Parse(pdu[blk.off:], Options{Base: blk.off})
			if err != nil {
				t.Fatal(err)
			}
			compareModuloPad(t, a)
		}
	}
}

func compareModuloPad(t testing.TB, a Array) {
	t.Helper()
	orig := a.Bytes()
	got, err := AppendArray(nil, a)
	if err != nil {
		t.Fatalf("AppendArray: %v", err)
	}
	if len(got) != len(orig) {
		t.Fatalf("re-encoded %d bytes, original %d", len(got), len(orig))
	}
	mask := padMask(a)
	for i := range orig {
		if mask[i] {
			if got[i] != 0 {
				t.Errorf("pad byte %d: builder wrote %#x, want 0", i, got[i])
			}
			continue
		}
		if got[i] != orig[i] {
			t.Errorf("byte %d: re-encoded %#x, original %#x", i, got[i], orig[i])
		}
	}
}
