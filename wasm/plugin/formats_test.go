package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

// TestPDUDecode frames both directions of a real pmcd conversation and
// checks each PDU's offset, length, type and sender against the capture's
// listing, and that every body decodes.
func TestPDUDecode(t *testing.T) {
	h := newHost(t)
	listing := pduListing(t, string(readFile(t, "conv01.pdus.txt")))
	for i, name := range []string{"conv01.client.bin", "conv01.server.bin"} {
		in := readFile(t, name)
		got := h.run("pdu_decode", in, 0)
		native := render.DecodePDUs(in, 0)
		sameBytes(t, name, got, marshal(t, &native))
		want := listing[i]
		if native.Error != nil || len(native.PDUs) != len(want) {
			t.Fatalf("%s: %d PDUs (error %v), listing has %d", name, len(native.PDUs), native.Error, len(want))
		}
		for j, raw := range native.PDUs {
			var p schema.PDUHeader
			if _, err := p.UnmarshalMsg(raw); err != nil {
				t.Fatalf("%s PDU %d: %v", name, j, err)
			}
			w := want[j]
			if p.Offset != w[0] || int64(p.Len) != w[1] || p.Type != pduwire.Type(w[2]).String() || int64(p.From) != w[3] {
				t.Errorf("%s PDU %d: %+v, listing %v", name, j, p, w)
			}
		}
	}
	// A stream cut inside a PDU: the PDUs before it, then a framing error.
	in := readFile(t, "conv01.client.bin")
	var res schema.PDUStream
	if _, err := res.UnmarshalMsg(h.run("pdu_decode", in[:len(in)-3], 0)); err != nil || res.Error == nil || len(res.PDUs) != len(listing[0])-1 {
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

// TestMMVRead reads the lab's MMV files and checks every entry of the
// structured result against what PCP's mmvdump printed for them: header,
// metrics, indoms, instances, the integer and string values, labels.
func TestMMVRead(t *testing.T) {
	h := newHost(t)
	for _, name := range []string{"sample1", "sample2", "sample3"} {
		in := readFile(t, name+".mmv")
		got := h.run("mmv_read", in, 0)
		nb := render.AppendMMV(nil, in, false)
		sameBytes(t, name, got, nb)
		var native schema.MMVFile
		if _, err := native.UnmarshalMsg(nb); err != nil {
			t.Fatalf("%s: the native result does not read back: %v", name, err)
		}
		if native.Error != nil || len(native.Metrics) == 0 || len(native.Values) == 0 {
			t.Fatalf("%s: error %v, %d metrics, %d values", name, native.Error, len(native.Metrics), len(native.Values))
		}
		want := string(readFile(t, name+".mmvdump.txt"))
		has := func(what, s string) {
			t.Helper()
			if !strings.Contains(want, s) {
				t.Errorf("%s: %s: %q not in mmvdump", name, what, s)
			}
		}
		has("version", "\nVersion    = "+strconv.Itoa(int(native.Version))+"\n")
		has("generation", "\nGenerated  = "+strconv.FormatUint(native.Gen, 10)+"\n")
		has("cluster", "\nCluster    = "+strconv.Itoa(int(native.Cluster))+"\n")
		has("process", "\nProcess    = "+strconv.Itoa(int(native.Process))+"\n")
		for _, m := range native.Metrics {
			has("metric", "] "+m.Name+"\n       type="+mmvdumpTypes[m.Type]+" (0x"+strconv.FormatInt(int64(m.Type), 16)+")")
			if m.ShortText != "" {
				has("metric shorttext", "shorttext="+m.ShortText+"\n")
			}
		}
		for _, d := range native.Indoms {
			has("indom", "["+strconv.FormatUint(uint64(d.Serial), 10)+"/")
			has("indom count", "] "+strconv.Itoa(d.Count)+" instances")
		}
		for _, in := range native.Instances {
			has("instance", "["+strconv.FormatUint(uint64(in.Indom), 10)+"/")
			has("instance", " instance = ["+strconv.Itoa(int(in.ID))+" or \""+in.Name+"\"]\n")
		}
		values := 0
		for _, v := range native.Values {
			var text string
			switch {
			case v.Int != nil:
				text = strconv.FormatInt(*v.Int, 10)
			case v.Uint != nil:
				text = strconv.FormatUint(*v.Uint, 10)
			case v.Text != nil:
				text = `"` + *v.Text + `"`
			default:
				continue // mmvdump prints floats with C's %f
			}
			values++
			if !mmvdumpHasValue(want, v.Metric, v.Instance, text) {
				t.Errorf("%s: value %s[%s] = %s not in mmvdump", name, v.Metric, v.Instance, text)
			}
		}
		if values == 0 {
			t.Errorf("%s: no integer or string value checked", name)
		}
		for _, l := range native.Labels {
			has("label", "] "+l.JSON+"\n        flags=0x"+strconv.FormatUint(uint64(l.Flags), 16)+
				", identity=0x"+strconv.FormatUint(uint64(l.Identity), 16)+
				"\n        internal=0x"+strconv.FormatUint(uint64(uint32(l.Internal)), 16)+"\n")
		}
		if strings.Contains(want, "labels offset") != (len(native.Labels) > 0) {
			t.Errorf("%s: %d labels, mmvdump's listing disagrees", name, len(native.Labels))
		}
	}
	// The wrong byte order is an error value.
	var res schema.MMVFile
	// Version 1 read big-endian is 0x01000000: the version kind, at the
	// version word.
	if _, err := res.UnmarshalMsg(h.run("mmv_read", readFile(t, "sample1.mmv"), 1)); err != nil || res.Error == nil ||
		res.Error.Kind != "version" || res.Error.Format != "mmv" || res.Error.Field != "header.version" || res.Error.Offset != 4 {
		t.Errorf("big-endian read of a little-endian file: %+v, %v", res.Error, err)
	}
}

// mmvdumpTypes are mmvdump's names for the MMV type codes it prints.
var mmvdumpTypes = map[int32]string{
	0: "32-bit int", 1: "32-bit unsigned int", 2: "64-bit int", 3: "64-bit unsigned int",
	4: "float", 5: "double", 6: "string", 9: "elapsed",
}

// mmvdumpHasValue reports whether mmvdump listed a value line for metric
// (and instance, by name, unless "") whose value text starts with text.
func mmvdumpHasValue(dump, metric, instance, text string) bool {
	for _, line := range strings.Split(dump, "\n") {
		_, rest, ok := strings.Cut(line, "] "+metric)
		if !ok || !strings.HasPrefix(line, "  [") {
			continue
		}
		if instance != "" {
			if !strings.HasPrefix(rest, "[") || !strings.Contains(rest, ` or "`+instance+`"] = `) {
				continue
			}
			rest = rest[strings.Index(rest, "] = ")+1:]
		}
		if v, ok := strings.CutPrefix(rest, " = "+text); ok && (v == "" || v[0] == ' ') {
			return true
		}
	}
	return false
}
