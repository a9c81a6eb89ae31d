package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const captureDir = "../../pduwire/testdata/captures/"

// TestPDUCapture decodes a real pmcd stream and checks the JSON against
// pminfo's output for the same conversation (sample.colour = 123 224 325).
func TestPDUCapture(t *testing.T) {
	out := runOK(t, "pdu", captureDir+"conv04.server.bin")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d JSON lines, want the 12 PDUs of conv04's server stream", len(lines))
	}
	type val struct {
		Inst  int32  `json:"inst"`
		Fmt   string `json:"fmt"`
		Value int64  `json:"value"`
	}
	var seen bool
	for _, l := range lines {
		var p struct {
			Offset    int64  `json:"offset"`
			Len       int    `json:"len"`
			Type      string `json:"type"`
			From      int32  `json:"from"`
			ValueSets []struct {
				PMID   string `json:"pmid"`
				Values []val  `json:"values"`
			} `json:"value_sets"`
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if p.Type == "HIGHRES_RESULT" && !seen {
			seen = true
			vs := p.ValueSets[0]
			got := []val{}
			got = append(got, vs.Values...)
			want := []val{{0, "insitu", 123}, {1, "insitu", 224}, {2, "insitu", 325}}
			if vs.PMID != "29.0.5" || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
				t.Errorf("first result: %s %+v, pminfo says 29.0.5 = 123 224 325", vs.PMID, got)
			}
		}
	}
	if !seen {
		t.Fatal("no HIGHRES_RESULT")
	}
}

// TestPDUAllCaptures: every bundled stream decodes without error.
func TestPDUAllCaptures(t *testing.T) {
	files, _ := filepath.Glob(captureDir + "conv*.bin")
	if len(files) != 34 {
		t.Fatalf("%d capture files", len(files))
	}
	out := runOK(t, append([]string{"pdu"}, files...)...)
	if n := strings.Count(out, "\n"); n != 391 {
		t.Errorf("%d PDUs, want 391", n)
	}
}

// TestPDUBadInput: what decodes is printed, then exit 1 with the file
// and the byte offset of the failure.
func TestPDUBadInput(t *testing.T) {
	good := readTestFile(t, captureDir+"conv11.server.bin")
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data, want string
		lines            int
	}{
		{"cut.bin", string(good[:len(good)-3]), "at offset 140", 4},
		// The second PDU claims numids 2 but carries one id.
		{"bad.bin", string(good[:20]) + "\x00\x00\x00\x18\x00\x00\x70\x0d\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x07\x40\x00\x0a", "at offset 36", 1},
		{"huge.bin", "\x7f\xff\xff\xff\x00\x00\x70\x01\x00\x00\x00\x00", "header.len: over the limit (value 2147483647, limit 67108864) at offset 0", 0}, // the len and the limit it broke
	} {
		f := writeTestFile(t, dir, tc.name, []byte(tc.data))
		var out, errb bytes.Buffer
		if code := run([]string{"pdu", f}, &out, &errb); code != 1 {
			t.Errorf("%s: exit %d, want 1", tc.name, code)
		}
		msg := errb.String()
		if !strings.Contains(msg, f+": ") || !strings.Contains(msg, tc.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line naming the file and %q", tc.name, msg, tc.want)
		}
		if n := strings.Count(out.String(), "\n"); n != tc.lines {
			t.Errorf("%s: %d PDUs printed before the error, want %d", tc.name, n, tc.lines)
		}
	}
}

func TestPDUUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"pdu"}, &out, &errb); code != 2 {
		t.Errorf("no files: exit %d, want 2", code)
	}
	if code := run([]string{"pdu", "-limit", "0", "x"}, &out, &errb); code != 2 {
		t.Errorf("-limit 0: exit %d, want 2", code)
	}
	if code := run([]string{"pdu", "-h"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: perfwire pdu") {
		t.Errorf("-h: exit %d, %q", code, out.String())
	}
}

// Event arrays in a RESULT print as records; their counts and first/last
// timestamps must be what pminfo printed for the same bytes (conv05).
func TestPDUEventRecordsMatchPminfo(t *testing.T) {
	oracle := readTestFile(t, captureDir+"conv05.out.txt")
	out := runOK(t, "pdu", captureDir+"conv05.server.bin")
	type rec struct {
		Sec, Nsec int64
		Missed    *int32
	}
	type pdu struct {
		Type      string
		ValueSets []struct {
			Values []struct {
				Inst    int32
				Type    string
				Records []rec
			}
		} `json:"value_sets"`
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var p pdu
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		for _, vs := range p.ValueSets {
			for _, v := range vs.Values {
				if v.Type != "event" && v.Type != "highres_event" {
					continue
				}
				// pminfo: [N event records timestamps HH:MM:SS.frac...HH:MM:SS.frac],
				// milliseconds for event, nanoseconds for highres_event.
				stamp := func(r rec) string {
					s := time.Unix(r.Sec, r.Nsec).UTC().Format("15:04:05.000")
					if v.Type == "highres_event" {
						s = time.Unix(r.Sec, r.Nsec).UTC().Format("15:04:05.000000000")
					}
					return s
				}
				n := len(v.Records)
				var want string
				switch n {
				case 0:
					want = "[0 event records]"
				case 1:
					want = "[1 event record timestamp " + stamp(v.Records[0]) + "]"
				default:
					want = "[" + strconv.Itoa(n) + " event records timestamps " + stamp(v.Records[0]) + "..." + stamp(v.Records[n-1]) + "]"
				}
				if !strings.Contains(string(oracle), "] value "+want+"\n") {
					t.Errorf("instance %d (%s): %s not in pminfo's output", v.Inst, v.Type, want)
				}
				checked++
			}
		}
	}
	if checked != 4 {
		t.Fatalf("checked %d event arrays, conv05 holds 4", checked)
	}
}
