package eventrec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pcp"
)

// TestLiveGoldens replays six conversations recorded by
// TestConformancePminfoEvents (pminfo -x sample.event.records
// sample.event.highres_records through a relay to pmcd 6.0.3): every
// array pmcd sent must decode to exactly what pminfo printed, and
// re-encode to the same bytes apart from pad.
func TestLiveGoldens(t *testing.T) {
	names := parseNames(t, string(readTestdata(t, "sample-event.pminfo-m.txt")))
	for i := range 6 {
		base := "live" + strconv.Itoa(i)
		t.Run(base, func(t *testing.T) {
			server := readTestdata(t, base+".server.bin")
			want := normalizePminfo(string(readTestdata(t, base+".pminfo-x.txt")))
			if got := renderPminfoX(t, server, names); got != want {
				t.Errorf("decoded arrays differ from pminfo -x\n--- ours\n%s--- pminfo\n%s", got, want)
			}
			checkReencode(t, server)
		})
	}
}

// TestConv05 checks the shared capture conv05 (pminfo -f of both event
// metrics): the arrays extracted from its HIGHRES_RESULT are the
// pre-extracted blocks, their summaries are pminfo's lines, and the
// builder re-encodes them.
func TestConv05(t *testing.T) {
	pdus, err := splitPDUs(readTestdata(t, "conv05.server.bin"))
	if err != nil {
		t.Fatal(err)
	}
	oracle := string(readTestdata(t, "conv05.out.txt"))
	var found int
	for _, pdu := range pdus {
		if pduType(pdu) != pduHighResResult {
			continue
		}
		if !bytes.Equal(pdu, readTestdata(t, "conv05.pdu0.HIGHRES_RESULT.bin")) {
			t.Error("HIGHRES_RESULT differs from bench/events copy")
		}
		blocks, err := eventBlocks(pdu)
		if err != nil {
			t.Fatal(err)
		}
		for _, blk := range blocks {
			a, err := Parse(pdu[blk.off:], Options{Base: blk.off})
			if err != nil {
				t.Fatalf("%s inst %d: %v", blk.pmid, blk.inst, err)
			}
			kind := "EVENT"
			if a.HighRes() {
				kind = "HIGHRES_EVENT"
			}
			name := fmt.Sprintf("conv05.pdu0.HIGHRES_RESULT.%s.inst%d.%s.bin", blk.pmid, blk.inst, kind)
			if !bytes.Equal(a.Bytes(), readTestdata(t, name)) {
				t.Errorf("%s: extracted array differs", name)
			}
			line := fmt.Sprintf("inst [%d or ", blk.inst)
			want := ""
			for _, l := range strings.Split(oracle, "\n") {
				if strings.Contains(l, line) && strings.Contains(l, " value [") {
					want = l[strings.Index(l, " value [")+7:]
					if blk.pmid == pcp.NewID(29, 0, 136) {
						break // records come first in the oracle
					}
				}
			}
			if got := summary(a); got != want {
				t.Errorf("%s: summary %q, pminfo %q", name, got, want)
			}
			compareModuloPad(t, a)
			found++
		}
	}
	if found != 4 {
		t.Errorf("found %d event arrays, want 4", found)
	}
}

// gadget compiles the lines of a pdu-gadget spec that this package's
// tests need: numbers, ?, PDU_RESULT, pmid(name), typelen(TYPE.len). It
// returns the PDUs keyed by spec line number.
func gadget(t *testing.T, spec string) map[int][]byte {
	t.Helper()
	pmids := map[string]pcp.ID{
		"sampledso.event.records":      pcp.NewID(30, 0, 136),
		"sampledso.event.param_string": pcp.NewID(30, 0, 134),
	}
	types := map[string]uint32{"EVENT": 9, "STRING": 6}
	out := map[int][]byte{}
	for n, line := range strings.Split(spec, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var pdu []byte
		for _, w := range f {
			var v uint32
			switch {
			case w == "?":
			case w == "PDU_RESULT":
				v = pduResult
			case strings.HasPrefix(w, "pmid("):
				id, ok := pmids[strings.TrimSuffix(strings.TrimPrefix(w, "pmid("), ")")]
				if !ok {
					t.Fatalf("line %d: unknown %s", n+1, w)
				}
				v = uint32(id)
			case strings.HasPrefix(w, "typelen("):
				tl := strings.Split(strings.TrimSuffix(strings.TrimPrefix(w, "typelen("), ")"), ".")
				l, _ := strconv.Atoi(tl[1])
				v = types[tl[0]]<<24 | uint32(l)
			default:
				x, err := strconv.ParseInt(w, 0, 64)
				if err != nil {
					t.Fatalf("line %d: word %q", n+1, w)
				}
				v = uint32(x)
			}
			pdu = binary.BigEndian.AppendUint32(pdu, v)
		}
		binary.BigEndian.PutUint32(pdu, uint32(len(pdu)))
		out[n+1] = pdu
	}
	return out
}

// TestQAResultEvent runs PCP QA's pdudata/result-event cases: the good
// PDU must decode as test 1560 prints it, and every PDU libpcp rejects
// must be rejected here too (by the value-set layer or by this package).
func TestQAResultEvent(t *testing.T) {
	pdus := gadget(t, string(readTestdata(t, "result-event")))
	oracle := string(readTestdata(t, "1560-result-event.out"))
	for _, n := range []int{10, 16, 22, 28, 34} {
		if _, ok := pdus[n]; !ok {
			t.Fatalf("spec has no PDU on line %d", n)
		}
		if !strings.Contains(oracle, strconv.Itoa(n)+": __pmDecodeResult") {
			t.Fatalf("oracle has no line %d", n)
		}
	}

	// Line 10: sts=0, one record at 12:34:56.000 flags 0x6 (start,end)
	// with one empty string parameter 30.0.134, unpacked as DPTR.
	pdu := pdus[10]
	blocks, err := eventBlocks(pdu)
	if err != nil || len(blocks) != 1 {
		t.Fatalf("line 10: %v, %d blocks", err, len(blocks))
	}
	a, err := Parse(pdu[blocks[0].off:], Options{Base: blocks[0].off, Type: pcp.TypeEvent})
	if err != nil {
		t.Fatalf("line 10: %v", err)
	}
	if s := "value " + summary(a); !strings.Contains(oracle, s) {
		t.Errorf("summary %q not in 1560.out", s)
	}
	names := map[pcp.ID]string{pcp.NewID(30, 0, 134): "x"}
	d := detail(t, a, names)
	if !strings.Contains(oracle, d[0]) {
		t.Errorf("record line %q not in 1560.out", d[0])
	}
	res := new(Unpacker).Unpack(a)
	if len(res) != 1 || len(res[0].Values) != 2 {
		t.Fatalf("unpacked %+v", res)
	}
	flags, param := res[0].Values[0], res[0].Values[1]
	if !flags.InsituFmt || Flags(flags.Insitu) != FlagStart|FlagEnd || flags.ID != DefaultFlagsID {
		t.Errorf("event.flags value %+v", flags)
	}
	// 1560.out: "30.0.134 (...): numval: 1 valfmt: 1" and value "".
	if param.ID.String()+" (" != "30.0.134 (" || param.InsituFmt || len(param.Block) != 0 || param.Inst != pcp.InNull {
		t.Errorf("parameter value %+v", param)
	}
	if !strings.Contains(oracle, param.ID.String()+" (sampledso.event.param_string): numval: 1 valfmt: 1") ||
		!strings.Contains(oracle, `value ""`) {
		t.Error("1560.out does not show the parameter as unpacked here")
	}
	compareModuloPad(t, a)

	// Line 28: nevrec 100 in a 32-byte array; libpcp: record[1] past end.
	pdu = pdus[28]
	blocks, err = eventBlocks(pdu)
	if err != nil || len(blocks) != 1 {
		t.Fatalf("line 28: %v", err)
	}
	if _, err := Parse(pdu[blocks[0].off:], Options{}); !errors.Is(err, ErrCount) {
		t.Errorf("line 28: err %v, want ErrCount", err)
	}
	// Line 34: the value word points one word into the array, at the
	// nrecords word read as a type/len word (vlen=1).
	pdu = pdus[34]
	if _, err := Parse(pdu[4*12:], Options{}); !errors.Is(err, ErrType) {
		t.Errorf("line 34: err %v, want ErrType", err)
	}
	// Line 16: the PDU ends right after the array's type/len word.
	pdu = pdus[16]
	blocks, err = eventBlocks(pdu)
	if err != nil || len(blocks) != 1 {
		t.Fatalf("line 16: %v", err)
	}
	if _, err := Parse(pdu[blocks[0].off:], Options{}); !errors.Is(err, ErrTruncated) {
		t.Errorf("line 16: err %v, want ErrTruncated", err)
	}
	// Line 22: the value word points past the PDU: there are no array
	// bytes to give this package (the value-set layer rejects it).
	if _, err := eventBlocks(pdus[22]); err == nil {
		t.Error("line 22: block inside the PDU")
	}
}

// TestQANtohEventOutOfBoundWrite feeds the 1536 reproducer: a RESULT
// whose event array claims 201326610 records and a first record with
// 342717537 parameters (libpcp: "record[0] param[0] event record past end
// of PDU buffer"). It must be rejected, and also once the record count
// is patched to 1 so that the parameter walk is reached.
func TestQANtohEventOutOfBoundWrite(t *testing.T) {
	stream := readTestdata(t, "ntohevent-array-out-of-bound-write")
	pdus, _ := splitPDUs(stream) // trailing garbage after the RESULT
	if len(pdus) < 2 || pduType(pdus[1]) != pduResult {
		t.Fatalf("no RESULT in reproducer")
	}
	pdu := pdus[1]
	// Only the first of the 50 claimed value sets is well formed; libpcp
	// stops at its event array.
	blocks, _ := eventBlocks(pdu)
	if len(blocks) == 0 {
		t.Fatal("no event array in the first value set")
	}
	off := blocks[0].off
	if _, err := Parse(pdu[off:], Options{Base: off}); !errors.Is(err, ErrCount) {
		t.Errorf("err %v, want ErrCount", err)
	}
	patched := bytes.Clone(pdu)
	binary.BigEndian.PutUint32(patched[off+4:], 1)
	_, err := Parse(patched[off:], Options{Base: off, Lenient: true, MaxParams: 1 << 30})
	pe, ok := errors.AsType[*ParseError](err)
	if !errors.Is(err, ErrTruncated) || !ok || pe.Offset != int64(off+8+12) {
		t.Errorf("patched: err %v, want ErrTruncated at er_nparams (%d)", err, off+20)
	}
	if !strings.Contains(string(readTestdata(t, "1536.out")), "record[0] param[0] event record past end") {
		t.Error("1536.out oracle changed")
	}
}
