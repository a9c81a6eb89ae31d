//go:build conformance

package eventrec

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/pcp"
)

// TestConformanceBuilderUnpackedByLibpcp checks that libpcp unpacks what
// Builder packs exactly as this package does. A relay between pminfo and
// the live pmcd replaces every event array in pmcd's HIGHRES_RESULTs with
// an array packed by Builder (zero records, flags 0, every parameter
// type, negative numbers, a missed marker, many records, 64-bit fields at
// offsets 4 mod 8), re-encoding the PDU around it; pminfo -x must then
// print what we decode from the substituted arrays.
func TestConformanceBuilderUnpackedByLibpcp(t *testing.T) {
	names := parseNames(t, runTool(t, "pminfo", "-h", "127.0.0.1", "-m", "sample.event"))
	for variant := range 3 {
		type subst struct {
			inst int32
			b    []byte
		}
		var sent []subst // the arrays substituted, in order
		out := toolThroughRewriter(t, func(pmid pcp.ID, inst int32, typ pcp.Type) []byte {
			a := syntheticArray(t, typ, variant, int(inst))
			sent = append(sent, subst{inst, a})
			return a
		}, "-x", "sample.event.records", "sample.event.highres_records")
		if len(sent) == 0 {
			t.Fatal("no event array was substituted")
		}
		// Render the substituted arrays the way renderPminfoX renders
		// pmcd's, through a stream holding one HIGHRES_RESULT per array.
		var got bytes.Buffer
		var lastType pcp.Type
		for _, sub := range sent {
			a, err := Parse(sub.b, Options{})
			if err != nil {
				t.Fatalf("variant %d: builder output rejected: %v", variant, err)
			}
			if a.Type() != lastType {
				name := names[pcp.NewID(29, 0, 136)]
				if a.HighRes() {
					name = names[pcp.NewID(29, 0, 139)]
				}
				got.WriteString("\n" + name + "\n")
				lastType = a.Type()
			}
			got.WriteString("    inst [" + strconv.Itoa(int(sub.inst)) + "] value " + summary(a) + "\n")
			for _, l := range detail(t, a, names) {
				got.WriteString(l + "\n")
			}
		}
		if want := normalizePminfo(out); got.String() != want {
			t.Errorf("variant %d: pminfo -x of Builder arrays differs from our decoding\n--- ours\n%s--- pminfo\n%s", variant, got.String(), want)
		}
	}
}

// syntheticArray packs one of three test arrays for instance inst.
func syntheticArray(t *testing.T, typ pcp.Type, variant, inst int) []byte {
	t.Helper()
	id := func(item uint32) pcp.ID { return pcp.NewID(29, 0, item) }
	frac := func(us int64) int64 {
		if typ == pcp.TypeHighResEvent {
			return us*1000 + 789
		}
		return us
	}
	b := NewBuilder(nil, typ)
	base := int64(1700000000 + 100*variant + 10*inst)
	switch (variant + inst) % 3 {
	case 0:
		// Flags 0 and every parameter type.
		b.AddRecord(base, frac(1), 0)
		b.AddUint32(id(127), 42)
		b.AddInt32(id(128), -2147483648)
		b.AddUint32(id(129), 4294967295)
		b.AddInt64(id(130), -9007199254740993)
		b.AddUint64(id(131), 18446744073709551615)
		b.AddFloat32(id(132), -0.15625)
		b.AddFloat64(id(133), math.Pi)
		b.AddString(id(134), "")
		b.AddString(id(134), "four")
		b.AddString(id(134), "seven b")
		b.AddAggregate(id(135), []byte{1, 2, 3, 4, 5, 6, 7, 8})
		b.AddRecord(base+1, frac(999999), FlagStart|FlagID|FlagParent)
		b.AddUint64(id(131), 1)
	case 1:
		// A missed marker between records, and span flags.
		b.AddRecord(base, frac(5), FlagStart)
		b.AddString(id(134), "begin")
		b.AddMissed(base+1, frac(6), 3)
		b.AddRecord(base+2, frac(7), FlagEnd|FlagID)
		b.AddFloat64(id(133), -1e300)
		b.AddRecord(base+3, frac(8), FlagPoint)
		b.AddAggregate(id(135), []byte{0xde, 0xad, 0xbe})
	case 2:
		// Empty array for one instance, many records for the other.
		if inst == 0 {
			break
		}
		for i := range int64(40) {
			b.AddRecord(base+i, frac(i), FlagPoint)
			b.AddInt64(id(130), -i)
		}
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// toolThroughRewriter runs pminfo through a relay to pmcd that replaces
// each event array of a HIGHRES_RESULT by replace(pmid, inst, type).
func toolThroughRewriter(t *testing.T, replace func(pcp.ID, int32, pcp.Type) []byte, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	errc := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		defer c.Close()
		up, err := net.Dial("tcp", pmcdAddr)
		if err != nil {
			errc <- err
			return
		}
		go func() {
			io.Copy(up, c)
			up.Close()
		}()
		var pending []byte
		buf := make([]byte, 64<<10)
		for {
			n, err := up.Read(buf)
			pending = append(pending, buf[:n]...)
			for len(pending) >= 12 {
				l := int(binary.BigEndian.Uint32(pending))
				if l < 12 || l > len(pending) {
					break
				}
				pdu := pending[:l]
				if pduType(pdu) == pduHighResResult {
					if pdu, err = rewriteResult(pdu, replace); err != nil {
						errc <- err
						return
					}
				}
				if _, err := c.Write(pdu); err != nil {
					errc <- nil
					return
				}
				pending = pending[l:]
			}
			if err != nil {
				errc <- nil
				return
			}
		}
	}()
	cmd := exec.Command("pminfo", append([]string{"-h", ln.Addr().String()}, args...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pminfo %v: %v\n%s", args, err, stderr.Bytes())
	}
	if err := <-errc; err != nil {
		t.Fatalf("relay: %v", err)
	}
	return string(out)
}

// rewriteResult re-encodes a HIGHRES_RESULT with its event-array value
// blocks replaced; other blocks are copied. Pointers are recomputed as
// word offsets of blocks laid out after the value sets, in order.
func rewriteResult(pdu []byte, replace func(pcp.ID, int32, pcp.Type) []byte) ([]byte, error) {
	type val struct {
		inst  uint32
		word  uint32
		block []byte
	}
	type vset struct {
		pmid, numval, valfmt uint32
		vals                 []val
	}
	rd := func(off int) uint32 { return binary.BigEndian.Uint32(pdu[off:]) }
	numpmid := int(rd(12))
	off := 12 + 4 + 16
	var sets []vset
	for range numpmid {
		s := vset{pmid: rd(off), numval: rd(off + 4)}
		off += 8
		if int32(s.numval) > 0 {
			s.valfmt = rd(off)
			off += 4
			for range int(s.numval) {
				v := val{inst: rd(off), word: rd(off + 4)}
				off += 8
				if s.valfmt != 0 {
					bo := int(v.word) * 4
					hdr := rd(bo)
					vlen := int(hdr & 0xffffff)
					v.block = pdu[bo : bo+(vlen+3)&^3]
					if typ := pcp.Type(hdr >> 24); typ == pcp.TypeEvent || typ == pcp.TypeHighResEvent {
						v.block = replace(pcp.ID(s.pmid), int32(v.inst), typ)
					}
				}
				s.vals = append(s.vals, v)
			}
		}
		sets = append(sets, s)
	}
	out := append([]byte(nil), pdu[:off]...)
	var blocks []byte
	for i := range sets {
		for j := range sets[i].vals {
			v := &sets[i].vals[j]
			if v.block != nil {
				v.word = uint32(off+len(blocks)) / 4
				blocks = append(blocks, v.block...)
			}
		}
	}
	at := 12 + 4 + 16
	for _, s := range sets {
		at += 8
		if int32(s.numval) > 0 {
			at += 4
			for _, v := range s.vals {
				binary.BigEndian.PutUint32(out[at+4:], v.word)
				at += 8
			}
		}
	}
	out = append(out, blocks...)
	binary.BigEndian.PutUint32(out, uint32(len(out)))
	return out, nil
}
