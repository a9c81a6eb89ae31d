package pduwire_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// qaPMIDs resolves the metric names the QA specs use (README table).
var qaPMIDs = map[string]pcp.ID{
	"sampledso.long.one": pcp.NewID(30, 0, 10), "sampledso.long.ten": pcp.NewID(30, 0, 11),
	"sampledso.long.hundred": pcp.NewID(30, 0, 12), "sampledso.long.million": pcp.NewID(30, 0, 13),
	"sampledso.longlong.million": pcp.NewID(30, 0, 23), "sampledso.double.one": pcp.NewID(30, 0, 25),
	"sampledso.double.bin": pcp.NewID(30, 0, 113), "sampledso.event.param_string": pcp.NewID(30, 0, 134),
	"sampledso.event.records": pcp.NewID(30, 0, 136),
}

var qaTypes = map[string]uint32{
	"S32": 0, "U32": 1, "S64": 2, "U64": 3, "FLOAT": 4, "DOUBLE": 5, "STRING": 6,
	"AGGREGATE": 7, "AGGREGATE_STATIC": 8, "EVENT": 9, "HIGHRES_EVENT": 10,
}

// qaPDU is one compiled spec line.
type qaPDU struct {
	line  int
	bytes []byte
}

// strWords packs text (with \x escapes) NUL-padded to a word boundary.
func strWords(b []byte, text string) []byte {
	var s []byte
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) {
			i++
		}
		s = append(s, text[i])
	}
	start := len(b)
	b = append(b, s...)
	return wire.AppendPad4(b, start)
}

// compileSpec is a small re-implementation of PCP's qa/src/pdu-gadget
// word language (see testdata/qa/README.md).
func compileSpec(t testing.TB, name string) []qaPDU {
	t.Helper()
	f, err := os.Open("testdata/qa/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []qaPDU
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		var b []byte
		autoLen := false
		for i, w := range strings.Fields(line) {
			arg := func(prefix string) (string, bool) {
				if strings.HasPrefix(w, prefix+"(") && strings.HasSuffix(w, ")") {
					return w[len(prefix)+1 : len(w)-1], true
				}
				return "", false
			}
			nums := func(s string) []int64 {
				var v []int64
				for _, p := range strings.Split(s, ".") {
					x, err := strconv.ParseInt(p, 0, 64)
					if err != nil {
						t.Fatalf("%s:%d: bad number %q", name, n, p)
					}
					v = append(v, x)
				}
				return v
			}
			if a, ok := arg("pmid"); ok {
				id, ok := qaPMIDs[a]
				if !ok {
					v := nums(a)
					id = pcp.NewID(uint32(v[0]), uint32(v[1]), uint32(v[2]))
				}
				b = wire.AppendU32BE(b, uint32(id))
			} else if a, ok := arg("indom"); ok {
				v := nums(a)
				b = wire.AppendU32BE(b, uint32(pcp.NewInDom(uint32(v[0]), uint32(v[1]))))
			} else if a, ok := arg("lenstr"); ok {
				b = wire.AppendU32BE(b, uint32(len(a)))
				b = strWords(b, a)
			} else if a, ok := arg("str"); ok {
				b = strWords(b, a)
			} else if a, ok := arg("typelen"); ok {
				tn, l, _ := strings.Cut(a, ".")
				ty, ok := qaTypes[tn]
				if !ok {
					ty = uint32(nums(tn)[0])
				}
				b = wire.AppendU32BE(b, ty<<24|uint32(nums(l)[0]))
			} else if a, ok := arg("units"); ok {
				v := nums(a)
				u := pcp.NewUnits(int(v[0]), int(v[1]), int(v[2]), uint(v[3]), uint(v[4]), int(v[5]))
				b = wire.AppendU32BE(b, uint32(u)|uint32(v[6]&0x1f)<<3|uint32(v[7]&7))
			} else if a, ok := arg("label"); ok {
				v := nums(a)
				b = binary.BigEndian.AppendUint16(b, uint16(v[0]))
				b = append(b, byte(v[1]), byte(v[2]))
				b = binary.BigEndian.AppendUint16(b, uint16(v[3]))
				b = binary.BigEndian.AppendUint16(b, uint16(v[4]))
			} else if strings.HasPrefix(w, "PDU_") {
				ty, ok := pduTypes[w[4:]]
				if !ok {
					t.Fatalf("%s:%d: unknown %s", name, n, w)
				}
				b = wire.AppendU32BE(b, uint32(ty))
			} else if w == "?" && i == 0 {
				autoLen = true
				b = wire.AppendU32BE(b, 0)
			} else {
				x, err := strconv.ParseInt(w, 0, 64)
				if err != nil {
					t.Fatalf("%s:%d: bad word %q", name, n, w)
				}
				b = wire.AppendU32BE(b, uint32(x))
			}
		}
		if autoLen {
			wire.PutU32BE(b, 0, uint32(len(b)))
		}
		out = append(out, qaPDU{line: n, bytes: b})
	}
	return out
}

var pduTypes = func() map[string]pduwire.Type {
	m := map[string]pduwire.Type{"AUTH": pduwire.TypeAttr}
	for t := pduwire.TypeError; t <= pduwire.TypeDescs; t++ {
		m[t.String()] = t
	}
	return m
}()

// qaOutcome is one decoder's verdict on one spec line in 1560.out.
type qaOutcome struct {
	ok   bool
	text string // the fields after "sts=0 ", or the failure message
	diag string // for failures, libpcp's diagnostic line before it
}

// load1560 returns, per spec file, line → decoder → outcome.
func load1560(t *testing.T) map[string]map[int]map[string]*qaOutcome {
	t.Helper()
	data, err := os.ReadFile("testdata/qa/1560.out")
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]map[int]map[string]*qaOutcome{}
	okRe := regexp.MustCompile(`^(\d+): (__pmDecode\w+): sts=0 ?(.*)$`)
	failRe := regexp.MustCompile(`^(\d+): (__pmDecode\w+) failed: (.*)$`)
	var sect, diag string
	var last *qaOutcome
	for _, l := range strings.Split(string(data), "\n") {
		if s, ok := strings.CutPrefix(l, "=== pdudata/"); ok {
			sect = strings.TrimSuffix(s, " ===")
			res[sect] = map[int]map[string]*qaOutcome{}
			continue
		}
		m := okRe.FindStringSubmatch(l)
		ok := m != nil
		if !ok {
			m = failRe.FindStringSubmatch(l)
		}
		if m == nil {
			isDiag := strings.HasPrefix(l, "__pm") && strings.Contains(l, ": PM_ERR_")
			if isDiag {
				diag = l
			}
			if last != nil && l != "" && !isDiag {
				last.text += "\n" + l
			}
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if res[sect][n] == nil {
			res[sect][n] = map[string]*qaOutcome{}
		}
		last = &qaOutcome{ok: ok, text: m[3]}
		if !ok {
			last = nil
			res[sect][n][m[2]] = &qaOutcome{text: m[3], diag: diag}
			continue
		}
		res[sect][n][m[2]] = last
	}
	return res
}

// libpcpDecoder names the libpcp function 1560 uses for each PDU type.
var libpcpDecoder = map[pduwire.Type]string{
	pduwire.TypeError: "__pmDecodeError", pduwire.TypeCreds: "__pmDecodeCreds", pduwire.TypeAttr: "__pmDecodeAttr",
	pduwire.TypeDesc: "__pmDecodeDesc", pduwire.TypeDescIDs: "__pmDecodeIDList2", pduwire.TypePMNSIDs: "__pmDecodeIDList",
	pduwire.TypeDescReq: "__pmDecodeDescReq", pduwire.TypeFetch: "__pmDecodeFetch", pduwire.TypeProfile: "__pmDecodeProfile",
	pduwire.TypeInstanceReq: "__pmDecodeInstanceReq", pduwire.TypeLabelReq: "__pmDecodeLabelReq",
	pduwire.TypePMNSNames: "__pmDecodeNameList", pduwire.TypeResult: "__pmDecodeResult", pduwire.TypeTextReq: "__pmDecodeTextReq",
}

var qaTypeNames = map[pcp.Type]string{pcp.TypeDouble: "double", pcp.Type32: "32", pcp.Type64: "64"}
var qaSemNames = map[pcp.Sem]string{pcp.SemInstant: "instant", pcp.SemCounter: "counter", pcp.SemDiscrete: "discrete"}

func idsText(ids []pcp.ID) string {
	s := "numpmid=" + strconv.Itoa(len(ids)) + " pmids:"
	for _, id := range ids {
		s += " " + id.String()
	}
	return s
}

// describe renders a decoded message as 1560.out prints the fields
// libpcp decoded; the second result is false for the parts we compare by
// prefix only (DESC units need pmUnitsStr; RESULT is checked structurally).
func describe(m pduwire.Message, from int32) (string, bool) {
	switch m := m.(type) {
	case *pduwire.ErrorPDU:
		return "code=" + strconv.Itoa(int(m.Code)), true
	case *pduwire.CredsPDU:
		s := "sender=" + strconv.Itoa(int(from)) + " credcount=" + strconv.Itoa(len(m.Creds)) + " ..."
		for i, c := range m.Creds {
			s += "\n    #" + strconv.Itoa(i) + " = { type=0x" + strconv.FormatUint(uint64(c.Kind()), 16) +
				" a=0x" + strconv.FormatUint(uint64(c.Version()), 16) + " b=0x" + strconv.FormatUint(uint64(c.Flags()>>8), 16) +
				" c=0x" + strconv.FormatUint(uint64(c.Flags()&0xff), 16) + " }"
		}
		return s, true
	case *pduwire.AttrPDU:
		return "attr=" + strconv.Itoa(int(m.Attr)) + " vlen=" + strconv.Itoa(len(m.Value)) + ` value="` + string(m.Value) + `"`, true
	case *pduwire.DescPDU:
		d := m.Desc
		return "desc: pmid==" + d.ID.String() + " type=" + qaTypeNames[d.Type] + " indom=" + d.InDom.String() +
			" semantics=" + qaSemNames[d.Sem] + " units=", false
	case *pduwire.DescIDsPDU:
		return idsText(m.PMIDs), true
	case *pduwire.PMNSIDsPDU:
		return "pmid=" + m.PMIDs[0].String() + " asts=" + strconv.Itoa(int(m.Status)), true
	case *pduwire.DescReqPDU:
		return "pmid=" + m.PMID.String(), true
	case *pduwire.FetchPDU:
		return "ctxnum=" + strconv.Itoa(int(m.Ctx)) + " unused=0.000000 " + idsText(m.PMIDs), true
	case *pduwire.ProfilePDU:
		st := map[int32]string{0: "INCLUDE", 1: "EXCLUDE"}
		s := "ctxnum=" + strconv.Itoa(int(m.Ctx)) + " ...\nDump Instance Profile state=" + st[m.State] + ", " +
			strconv.Itoa(len(m.Entries)) + " profiles"
		for i, e := range m.Entries {
			s += "\n\tProfile [" + strconv.Itoa(i) + "] indom=" + strconv.Itoa(int(e.InDom)) + " [" + e.InDom.String() +
				"] state=" + st[e.State] + " " + strconv.Itoa(len(e.Insts)) + " instances\n\t\tInstances:"
			for _, in := range e.Insts {
				s += " [" + strconv.Itoa(int(in)) + "]"
			}
		}
		return s, true
	case *pduwire.InstanceReqPDU:
		name := "NULL"
		if len(m.Name) > 0 {
			name = string(m.Name)
		}
		return "indom=" + m.InDom.String() + " inst=" + strconv.Itoa(int(m.Inst)) + " name=" + name, true
	case *pduwire.LabelReqPDU:
		s := "type=0x" + strconv.FormatUint(uint64(m.Kind), 16) + " ident="
		switch m.Kind {
		case pduwire.LabelDomain:
			return s + strconv.Itoa(int(m.Ident)) + " (int)", true
		case pduwire.LabelItem, pduwire.LabelCluster:
			return s + pcp.ID(m.Ident).String() + " (pmID)", true
		case pduwire.LabelInDom, pduwire.LabelInstances:
			return s + pcp.InDom(m.Ident).String() + " (pmInDom)", true
		}
		// libpcp replaces the ident of CONTEXT and unknown types by -1;
		// we keep the wire word, so only the type is compared.
		return s, false
	case *pduwire.PMNSNamesPDU:
		s := "numnamesp=" + strconv.Itoa(len(m.Names)) + " ..."
		for i, n := range m.Names {
			s += "\n  [" + strconv.Itoa(i) + "] " + string(n)
			if m.Statuses != nil {
				s += " (" + strconv.Itoa(int(m.Statuses[i])) + ")"
			}
		}
		return s, true
	case *pduwire.TextReqPDU:
		if m.Kind&pduwire.TextInDom != 0 {
			return "pmInDom=" + pcp.InDom(m.Ident).String() + " type=0x" + strconv.FormatUint(uint64(m.Kind), 16), true
		}
		return "pmID=" + pcp.ID(m.Ident).String() + " type=0x" + strconv.FormatUint(uint64(m.Kind), 16), true
	case *pduwire.ResultPDU:
		s := "numpmid: " + strconv.Itoa(len(m.Sets))
		for _, vs := range m.Sets {
			s += "\x00" + vs.PMID.String() + " (\x00numval: " + strconv.Itoa(len(vs.Values)) + " valfmt: " + strconv.Itoa(int(vs.ValFmt))
			for _, v := range vs.Values {
				if v.BlockType == pcp.TypeEvent {
					s += "\x00inst [" + strconv.Itoa(int(v.Inst)) + " or"
					s += "\x00value [" + strconv.Itoa(int(binary.BigEndian.Uint32(v.Payload))) + " event record"
				}
			}
		}
		return s, false
	}
	return "?", false
}

// TestQAPDUData compiles every PCP QA PDU spec and checks each PDU's
// decode against libpcp's verdict in 1560.out: the same fields on
// success, a rejection where libpcp rejects.
func TestQAPDUData(t *testing.T) {
	want := load1560(t)
	compared := 0
	for sect, lines := range want {
		for _, p := range compileSpec(t, sect) {
			outs := lines[p.line]
			if outs == nil {
				t.Errorf("%s:%d: no verdict in 1560.out", sect, p.line)
				continue
			}
			h := pduwire.Header{Type: pduwire.Type(binary.BigEndian.Uint32(p.bytes[4:])), From: int32(binary.BigEndian.Uint32(p.bytes[8:]))}
			exp := outs[libpcpDecoder[h.Type]]
			if exp == nil {
				t.Errorf("%s:%d: no %s verdict", sect, p.line, libpcpDecoder[h.Type])
				continue
			}
			// The declared len decides how many bytes form the PDU; a
			// spec may declare more than it provides (truncated PDU).
			declared := binary.BigEndian.Uint32(p.bytes)
			pdu := p.bytes
			if uint64(declared) < uint64(len(pdu)) {
				pdu = pdu[:declared]
			}
			var m pduwire.Message
			var err error
			if uint64(declared) > uint64(len(p.bytes)) {
				err = splitErr(p.bytes)
			} else {
				m, err = pduwire.Decode(pdu)
			}
			compared++
			switch {
			case exp.text == "Functionality not yet implemented":
				nl, ok := m.(*pduwire.PMNSNamesPDU)
				if err != nil || !ok || nl.Status != -21344 {
					t.Errorf("%s:%d: want status PM_ERR_NYI, got %v %+v", sect, p.line, err, m)
				}
			case strings.Contains(exp.diag, "!= numids from caller 1"):
				// A caller-side check (pmcd asks a PMDA for one name):
				// the PDU is well formed, and the count is what differs.
				ids, ok := m.(*pduwire.PMNSIDsPDU)
				if err != nil || !ok || len(ids.PMIDs) == 1 {
					t.Errorf("%s:%d: want a well-formed list of != 1 ids, got %v %+v", sect, p.line, err, m)
				}
			case !exp.ok:
				if err == nil {
					t.Errorf("%s:%d: libpcp rejects (%s), we decoded %+v", sect, p.line, exp.text, m)
				} else if _, ok := errors.AsType[*pduwire.ParseError](err); !ok {
					t.Errorf("%s:%d: error %v is not a *ParseError", sect, p.line, err)
				}
			case err != nil:
				t.Errorf("%s:%d: libpcp decodes %q, we fail: %v", sect, p.line, exp.text, err)
			default:
				got, full := describe(m, h.From)
				if full && got != exp.text || !full && !containsAll(exp.text, got) {
					t.Errorf("%s:%d: decoded\n%s\nlibpcp\n%s", sect, p.line, got, exp.text)
				}
				if h.Type == pduwire.TypeError {
					checkXtend(t, sect, p, outs["__pmDecodeXtendError"])
				}
			}
		}
	}
	if compared < 90 {
		t.Fatalf("only %d spec PDUs compared", compared)
	}
	t.Logf("%d spec PDUs agree with 1560.out", compared)
}

// checkXtend compares ParseServerHello with libpcp's extended ERROR
// decoder, which also translates the V1 status.
func checkXtend(t *testing.T, sect string, p qaPDU, exp *qaOutcome) {
	t.Helper()
	h, err := pduwire.ParseServerHello(p.bytes)
	switch {
	case exp == nil:
		t.Errorf("%s:%d: no XtendError verdict", sect, p.line)
	case !exp.ok && err == nil:
		t.Errorf("%s:%d: XtendError rejects, we accept %+v", sect, p.line, h)
	case exp.ok && err != nil:
		t.Errorf("%s:%d: XtendError accepts, we fail %v", sect, p.line, err)
	case exp.ok:
		got := "code=" + strconv.Itoa(int(h.Status)) + " datum=0x" + strconv.FormatUint(uint64(h.Features), 16)
		if got != exp.text {
			t.Errorf("%s:%d: %s, libpcp %s", sect, p.line, got, exp.text)
		}
	}
}

// TestQABinaryReproducers feeds the raw reproducer streams (bad value
// block index, event array overrun) to the framer and decoders: each
// must stop with an error at the malicious RESULT, never decode it.
func TestQABinaryReproducers(t *testing.T) {
	for _, name := range []string{"decode-value-set-out-of-bound-write", "ntohevent-array-out-of-bound-write"} {
		data, err := os.ReadFile("testdata/qa/" + name)
		if err != nil {
			t.Fatal(err)
		}
		rejected := false
		for p, err := range pduwire.All(data, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen}) {
			if err != nil {
				rejected = true
				break
			}
			if _, err := pduwire.Decode(p.Bytes); err != nil {
				if p.Header.Type != pduwire.TypeResult {
					t.Errorf("%s: %v PDU rejected: %v", name, p.Header.Type, err)
				}
				t.Logf("%s: %v @%d rejected: %v", name, p.Header.Type, p.Offset, err)
				rejected = true
			}
		}
		if !rejected {
			t.Errorf("%s: nothing rejected", name)
		}
	}
}

// splitErr frames b and returns the framing error.
func splitErr(b []byte) error {
	s := pduwire.NewScanner(b, pduwire.Options{})
	for s.Next() {
	}
	return s.Err()
}

// containsAll reports whether text contains every NUL-separated fragment.
func containsAll(text, frags string) bool {
	for _, f := range strings.Split(frags, "\x00") {
		if !strings.Contains(text, f) {
			return false
		}
	}
	return true
}

// TestQAContainerInjection: libpcp's decoder accepts the ATTR of
// label-req-container-json-injection (1560.out line 13); the value check
// that must precede its use in label JSON rejects it.
func TestQAContainerInjection(t *testing.T) {
	pdus := compileSpec(t, "label-req-container-json-injection")
	var a pduwire.AttrPDU
	if err := a.UnmarshalBinary(pdus[1].bytes); err != nil || a.Attr != pduwire.AttrContainer {
		t.Fatalf("decode: %v %+v", err, a)
	}
	if !strings.Contains(string(a.Value), `"evilkey"`) {
		t.Fatalf("value %q", a.Value)
	}
	if err := pduwire.CheckAttrValue(a.Attr, a.Value); !errors.Is(err, pduwire.ErrField) {
		t.Errorf("injected container name accepted: %v", err)
	}
	for _, tc := range []struct {
		attr int32
		v    string
		ok   bool
	}{
		{pduwire.AttrContainer, "web-1.prod_a", true},
		{pduwire.AttrContainer, "web-1\x00", true},
		{pduwire.AttrContainer, "", false},
		{pduwire.AttrUsername, "-root", false},
		{pduwire.AttrUsername, "pcp", true},
		{pduwire.AttrUserID, "1000", true},
		{pduwire.AttrProcessID, "12a", false},
		{pduwire.AttrPassword, "any \"thing\"", true},
	} {
		if err := pduwire.CheckAttrValue(tc.attr, []byte(tc.v)); (err == nil) != tc.ok {
			t.Errorf("attr %d %q: %v", tc.attr, tc.v, err)
		}
	}
}
