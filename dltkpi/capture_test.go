package dltkpi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// capMsg is one message of a .dlt capture, read by the minimal
// storage-header reader below. It is test-only and independent of the
// dlt package so that this package's tests stand on their own.
type capMsg struct {
	index      int
	ecu        [4]byte
	seid       uint32
	mcnt       uint8
	tmsp       uint32
	verbose    bool
	bigEndian  bool
	noar       int
	apid, ctid [4]byte
	payload    []byte
}

func (m capMsg) source() Source {
	return Source{ECU: m.ecu, AppID: m.apid, ContextID: m.ctid, SEID: m.seid, MCNT: m.mcnt, TMSP: m.tmsp}
}

func (m capMsg) isKPI() bool {
	return m.verbose && string(m.apid[:]) == "PROC" && string(m.ctid[:]) == "PROC"
}

var captures = []string{"kpi-odd", "kpi-huge-argv0", "excerpt-irq-strtok-race"}

func readCapture(t testing.TB, name string) []capMsg {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".dlt")
	if err != nil {
		t.Fatal(err)
	}
	var out []capMsg
	for off := 0; off < len(b); {
		if len(b)-off < 20 || string(b[off:off+4]) != "DLT\x01" {
			t.Fatalf("%s: bad storage header at %d", name, off)
		}
		h := b[off+16:]
		htyp := h[0]
		n := int(binary.BigEndian.Uint16(h[2:]))
		m := capMsg{index: len(out), mcnt: h[1], bigEndian: htyp&2 != 0}
		copy(m.ecu[:], b[off+12:off+16])
		p := 4
		if htyp&4 != 0 {
			copy(m.ecu[:], h[p:p+4])
			p += 4
		}
		if htyp&8 != 0 {
			m.seid = binary.BigEndian.Uint32(h[p:])
			p += 4
		}
		if htyp&16 != 0 {
			m.tmsp = binary.BigEndian.Uint32(h[p:])
			p += 4
		}
		if htyp&1 != 0 {
			m.verbose = h[p]&1 != 0
			m.noar = int(h[p+1])
			copy(m.apid[:], h[p+2:p+6])
			copy(m.ctid[:], h[p+6:p+10])
			p += 10
		}
		m.payload = h[p:n:n]
		out = append(out, m)
		off += 16 + n
	}
	return out
}

// oracleLine is one line of a `dlt-convert -a` file: the header words and
// the bracketed argument text.
type oracleLine struct {
	fields []string
	args   []byte
}

func readOracle(t testing.TB, name string) []oracleLine {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".ascii.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []oracleLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var l oracleLine
		rest := line
		for range 12 {
			rest = bytes.TrimLeft(rest, " ")
			i := bytes.IndexByte(rest, ' ')
			if i < 0 {
				t.Fatalf("%s: short oracle line %q", name, line)
			}
			l.fields = append(l.fields, string(rest[:i]))
			rest = rest[i+1:]
		}
		l.args = bytes.Clone(rest)
		out = append(out, l)
	}
	return out
}

// readHexOracle returns the payload bytes of every line of a
// `dlt-convert -x` file.
func readHexOracle(t testing.TB, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".hex.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for line := range strings.Lines(string(b)) {
		i := strings.IndexByte(line, '[')
		j := strings.LastIndexByte(line, ']')
		p, err := hex.DecodeString(strings.ReplaceAll(line[i+1:j], " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func (m capMsg) sourceWithNOAR() Source {
	s := m.source()
	s.NOAR = m.noar
	return s
}
