package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/wasm/abi"
)

// TestPDUDecode frames both directions of a real pmcd conversation and
// checks each PDU's offset, length, type and sender against the capture's
// listing, and that every body decodes.
func TestPDUDecode(t *testing.T) {
	h := newHost(t)
	listing := pduListing(t, string(readFile(t, "conv01.pdus.txt")))
	for i, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in := readFile(t, name)
		got := h.run("pdu_decode", in)
		native := abi.DecodePDUs(in)
		sameBytes(t, name, got, marshal(t, &native))
		want := listing[i]
		if native.Error != nil || len(native.PDUs) != len(want) {
			t.Fatalf("%s: %d PDUs (error %v), listing has %d", name, len(native.PDUs), native.Error, len(want))
		}
		for j, p := range native.PDUs {
			w := want[j]
			if p.Offset != w[0] || int64(p.Len) != w[1] || int64(p.Type) != w[2] || int64(p.From) != w[3] {
				t.Errorf("%s PDU %d: %+v, listing %v", name, j, p, w)
			}
			if p.Error != nil {
				t.Errorf("%s PDU %d (%s): %+v", name, j, p.TypeName, *p.Error)
			}
		}
	}
	// A stream cut inside a PDU: the PDUs before it, then a framing error.
	in := readFile(t, "conv01.client.bin")
	var res abi.PDUStream
	if _, err := res.UnmarshalMsg(h.run("pdu_decode", in[:len(in)-3])); err != nil || res.Error == nil || len(res.PDUs) != len(listing[0])-1 {
		t.Errorf("cut stream: %d PDUs, error %+v, %v", len(res.PDUs), res.Error, err)
	}
}

// pduListing parses "@OFF len=N type=0xT NAME from=F" lines per direction.
func pduListing(t *testing.T, text string) [][][4]int64 {
	var dirs [][][4]int64
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "== "):
			dirs = append(dirs, nil)
		case strings.HasPrefix(line, "@"):
			var v [4]int64
			for k, f := range strings.Fields(line) {
				var err error
				switch {
				case k == 0:
					v[0], err = strconv.ParseInt(f[1:], 10, 64)
				case strings.HasPrefix(f, "len="):
					v[1], err = strconv.ParseInt(f[4:], 10, 64)
				case strings.HasPrefix(f, "type="):
					v[2], err = strconv.ParseInt(f[5:], 0, 64)
				case strings.HasPrefix(f, "from="):
					v[3], err = strconv.ParseInt(f[5:], 10, 64)
				}
				if err != nil {
					t.Fatalf("listing line %q: %v", line, err)
				}
			}
			dirs[len(dirs)-1] = append(dirs[len(dirs)-1], v)
		}
	}
	if len(dirs) != 2 {
		t.Fatalf("listing has %d directions", len(dirs))
	}
	return dirs
}

// TestMMVRead reads the lab's MMV files and compares the dump with what
// PCP's mmvdump printed for them.
func TestMMVRead(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"sample1", "sample2", "sample3"} {
		in := readFile(t, name+".mmv")
		got := h.run("mmv_read", in, 0)
		native := abi.ReadMMV(in, false)
		sameBytes(t, name, got, marshal(t, &native))
		if native.Error != nil || len(native.Metrics) == 0 || len(native.Values) == 0 {
			t.Fatalf("%s: error %v, %d metrics, %d values", name, native.Error, len(native.Metrics), len(native.Values))
		}
		want := string(readFile(t, name+".mmvdump.txt"))
		want = want[strings.IndexByte(want, '\n'):]
		dump := native.Dump[strings.IndexByte(native.Dump, '\n'):]
		if dump != want {
			t.Errorf("%s: dump differs from mmvdump\n--- got\n%s\n--- mmvdump\n%s", name, dump, want)
		}
		for _, m := range native.Metrics {
			if !strings.Contains(want, "] "+m.Name+"\n") {
				t.Errorf("%s: metric %q not in mmvdump", name, m.Name)
			}
		}
	}
	// The wrong byte order is an error value.
	var res abi.MMVFile
	if _, err := res.UnmarshalMsg(h.run("mmv_read", readFile(t, "sample1.mmv"), 1)); err != nil || res.Error == nil {
		t.Errorf("big-endian read of a little-endian file: %+v, %v", res.Error, err)
	}
}
