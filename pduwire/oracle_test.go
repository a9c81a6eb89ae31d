package pduwire_test

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// conversation is what a client learned from pmcd in one capture, built
// by pairing each client request with pmcd's reply (lock-step; PROFILE
// has no reply; positive ERROR codes are state changes, not replies).
type conversation struct {
	hello    pduwire.ServerHello
	ids      map[string]pcp.ID
	names    map[pcp.ID][]string
	descs    map[pcp.ID]pduwire.Desc
	insts    map[pcp.InDom]map[int32]string
	results  []*pduwire.ResultPDU
	stores   []*pduwire.ResultPDU // client RESULTs (pmstore)
	storeAck []int32              // ERROR code answering each store
	texts    map[uint32]string
	traverse []string
}

func decodeAll(t *testing.T, s stream) []pduwire.Message {
	t.Helper()
	var ms []pduwire.Message
	for _, p := range s.pdus {
		m, err := pduwire.Decode(p.Bytes)
		if err != nil {
			t.Fatalf("%s %s @%d: %v", s.conv, s.dir, p.Offset, err)
		}
		ms = append(ms, m)
	}
	return ms
}

func loadConversation(t *testing.T, conv string) *conversation {
	t.Helper()
	cs, ss := loadStream(t, conv, "client"), loadStream(t, conv, "server")
	client, server := decodeAll(t, cs), decodeAll(t, ss)
	c := &conversation{
		ids: map[string]pcp.ID{}, names: map[pcp.ID][]string{}, descs: map[pcp.ID]pduwire.Desc{},
		insts: map[pcp.InDom]map[int32]string{}, texts: map[uint32]string{},
	}
	var err error
	if c.hello, err = pduwire.ParseServerHello(ss.pdus[0].Bytes); err != nil {
		t.Fatal(err)
	}
	if _, ok := client[0].(*pduwire.CredsPDU); !ok {
		t.Fatalf("%s: first client PDU is %v", conv, client[0].Type())
	}
	si := 1
	for _, req := range client[1:] {
		if req.Type() == pduwire.TypeProfile {
			continue
		}
		for si < len(server) {
			if e, ok := server[si].(*pduwire.ErrorPDU); ok && e.Code > 0 {
				si++
				continue
			}
			break
		}
		if si >= len(server) {
			t.Fatalf("%s: no reply to %v", conv, req.Type())
		}
		rep := server[si]
		si++
		switch q := req.(type) {
		case *pduwire.PMNSNamesPDU:
			if r, ok := rep.(*pduwire.PMNSIDsPDU); ok {
				for i, n := range q.Names {
					c.ids[string(n)] = r.PMIDs[i]
				}
			}
		case *pduwire.PMNSIDsPDU:
			if r, ok := rep.(*pduwire.PMNSNamesPDU); ok {
				for _, n := range r.Names {
					c.names[q.PMIDs[0]] = append(c.names[q.PMIDs[0]], string(n))
				}
			}
		case *pduwire.PMNSChildPDU:
			if r, ok := rep.(*pduwire.PMNSNamesPDU); ok && q.Traverse {
				for _, n := range r.Names {
					c.traverse = append(c.traverse, string(n))
				}
			}
		case *pduwire.ResultPDU:
			c.stores = append(c.stores, q)
			c.storeAck = append(c.storeAck, rep.(*pduwire.ErrorPDU).Code)
		case *pduwire.TextReqPDU:
			if r, ok := rep.(*pduwire.TextPDU); ok {
				c.texts[q.Ident] = string(r.Text)
			}
		case *pduwire.InstanceReqPDU:
			if r, ok := rep.(*pduwire.InstancePDU); ok {
				if c.insts[q.InDom] == nil {
					c.insts[q.InDom] = map[int32]string{}
				}
				for _, e := range r.Instances {
					c.insts[q.InDom][e.Inst] = string(e.Name)
				}
			}
		}
		switch r := rep.(type) {
		case *pduwire.DescPDU:
			c.descs[r.Desc.ID] = r.Desc
		case *pduwire.DescsPDU:
			for _, d := range r.Descs {
				c.descs[d.ID] = d
			}
		case *pduwire.ResultPDU:
			c.results = append(c.results, r)
		}
	}
	if si != len(server) {
		t.Fatalf("%s: %d server PDUs not paired with a request", conv, len(server)-si)
	}
	return c
}

// lastValues returns the value set of pmid in the latest result.
func (c *conversation) lastValues(pmid pcp.ID) (pduwire.ValueSetData, bool) {
	for i := len(c.results) - 1; i >= 0; i-- {
		for _, vs := range c.results[i].Sets {
			if vs.PMID == pmid {
				return vs, true
			}
		}
	}
	return pduwire.ValueSetData{}, false
}

var pminfoTypes = map[pcp.Type]string{
	pcp.Type32: "32-bit int", pcp.TypeU32: "32-bit unsigned int", pcp.Type64: "64-bit int",
	pcp.TypeU64: "64-bit unsigned int", pcp.TypeFloat: "float", pcp.TypeDouble: "double",
	pcp.TypeString: "string", pcp.TypeAggregate: "aggregate", pcp.TypeEvent: "event record array",
	pcp.TypeHighResEvent: "highres event record array",
}

var pminfoSems = map[pcp.Sem]string{pcp.SemCounter: "counter", pcp.SemInstant: "instant", pcp.SemDiscrete: "discrete"}

// formatValue renders a value the way pminfo -f prints it (for the
// types in the captures; event arrays only as a record count).
func formatValue(t pcp.Type, v pduwire.ValueData) string {
	p := v.Payload
	switch t {
	case pcp.Type32:
		return strconv.Itoa(int(int32(v.Word)))
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(v.Word), 10)
	case pcp.Type64:
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(p)), 10)
	case pcp.TypeU64:
		return strconv.FormatUint(binary.BigEndian.Uint64(p), 10)
	case pcp.TypeFloat:
		return strconv.FormatFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(p))), 'g', -1, 32)
	case pcp.TypeDouble:
		return strconv.FormatFloat(math.Float64frombits(binary.BigEndian.Uint64(p)), 'g', -1, 64)
	case pcp.TypeString:
		return strconv.Quote(strings.TrimSuffix(string(p), "\x00"))
	case pcp.TypeAggregate:
		return `"` + string(p) + `" [` + hex.EncodeToString(p) + "]"
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		n := binary.BigEndian.Uint32(p)
		if n == 1 {
			return "[1 event record"
		}
		return "[" + strconv.Itoa(int(n)) + " event records"
	}
	return "?"
}

// TestCapturesPminfoOracle checks descriptors and values decoded from
// the pminfo conversations against pminfo's own output.
func TestCapturesPminfoOracle(t *testing.T) {
	checked := 0
	for _, conv := range []string{"conv01", "conv03", "conv04", "conv05", "conv13", "conv16", "conv17"} {
		c := loadConversation(t, conv)
		out, err := os.ReadFile("testdata/captures/" + conv + ".out.txt")
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(strings.TrimSpace(string(out)), "\n\n") {
			lines := strings.Split(block, "\n")
			name, _, _ := strings.Cut(lines[0], " PMID: ")
			pmid, ok := c.ids[name]
			if !ok {
				t.Errorf("%s: no pmid looked up for %q", conv, name)
				continue
			}
			if _, pm, ok := strings.Cut(lines[0], " PMID: "); ok && pm != pmid.String() {
				t.Errorf("%s %s: PMID %s, pminfo says %s", conv, name, pmid, pm)
			}
			d, haveDesc := c.descs[pmid]
			vs, _ := c.lastValues(pmid)
			for _, l := range lines[1:] {
				l = strings.TrimSpace(l)
				switch {
				case strings.HasPrefix(l, "Data Type: "):
					want := "Data Type: " + pminfoTypes[d.Type] + "  InDom: " + d.InDom.String() +
						" 0x" + strconv.FormatUint(uint64(d.InDom), 16)
					if !haveDesc || l != want {
						t.Errorf("%s %s: %q, decoded %q", conv, name, l, want)
					}
					checked++
				case strings.HasPrefix(l, "Semantics: "):
					if !strings.HasPrefix(l, "Semantics: "+pminfoSems[d.Sem]+"  ") {
						t.Errorf("%s %s: %q, decoded sem %d", conv, name, l, d.Sem)
					}
				case strings.HasPrefix(l, "value "), strings.HasPrefix(l, "inst [") && strings.Contains(l, "] value "):
					inst := pcp.InNull
					text := strings.TrimPrefix(l, "value ")
					if strings.HasPrefix(l, "inst [") {
						num, _, _ := strings.Cut(l[len("inst ["):], " ")
						n, _ := strconv.Atoi(num)
						inst = int32(n)
						_, text, _ = strings.Cut(l, "] value ")
					}
					typ := d.Type
					if !haveDesc {
						typ = pcp.Type32 // pminfo -f without -d still fetched the descriptor
					}
					found := false
					for _, v := range vs.Values {
						if v.Inst == inst {
							found = true
							if got := formatValue(typ, v); !strings.HasPrefix(text, got) {
								t.Errorf("%s %s inst %d: pminfo %q, decoded %q", conv, name, inst, text, got)
							}
							checked++
						}
					}
					if !found {
						t.Errorf("%s %s: no decoded value for inst %d", conv, name, inst)
					}
				}
			}
		}
	}
	if checked < 80 {
		t.Fatalf("only %d oracle lines checked", checked)
	}
	t.Logf("%d descriptor and value lines match pminfo", checked)
}

// TestCapturesToolOracles checks the pmprobe, pmval, pmstore and pminfo
// -t/-m conversations against those tools' output.
func TestCapturesToolOracles(t *testing.T) {
	read := func(conv string) []string {
		b, err := os.ReadFile("testdata/captures/" + conv + ".out.txt")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	// pmprobe -i: value count and internal instance ids.
	c := loadConversation(t, "conv09")
	for _, l := range read("conv09") {
		f := strings.Fields(l)
		vs, ok := c.lastValues(c.ids[f[0]])
		if !ok || strconv.Itoa(int(vs.NumVal)) != f[1] {
			t.Errorf("conv09 %s: numval %d, pmprobe %s", f[0], vs.NumVal, f[1])
			continue
		}
		for i, v := range vs.Values {
			want := "?" + strconv.Itoa(int(v.Inst))
			if v.Inst == pcp.InNull {
				want = "PM_IN_NULL"
			}
			if f[2+i] != want {
				t.Errorf("conv09 %s value %d: %s, pmprobe %s", f[0], i, want, f[2+i])
			}
		}
	}
	// pmprobe -I: external instance names from INSTANCE replies.
	c = loadConversation(t, "conv10")
	for _, l := range read("conv10") {
		f := strings.Fields(l)
		pmid := c.ids[f[0]]
		vs, _ := c.lastValues(pmid)
		in := c.descs[pmid].InDom
		for i, v := range vs.Values {
			if got := strconv.Quote(c.insts[in][v.Inst]); got != f[2+i] {
				t.Errorf("conv10 %s: instance %d named %s, pmprobe %s", f[0], v.Inst, got, f[2+i])
			}
		}
	}
	// pmprobe -v: the value before the store.
	c = loadConversation(t, "conv11")
	if vs, _ := c.lastValues(c.ids["sample.write_me"]); len(vs.Values) != 1 || vs.Values[0].Word != 2 ||
		read("conv11")[0] != "sample.write_me 1 2" {
		t.Errorf("conv11: write_me = %+v", vs)
	}
	// pmstore: the stored RESULT carries 42, pmcd acks with ERROR(0);
	// the refused store gets PM_ERR_PERMISSION.
	c = loadConversation(t, "conv12")
	if len(c.stores) != 1 || c.stores[0].Sets[0].Values[0].Word != 42 || c.storeAck[0] != 0 ||
		read("conv12")[0] != "sample.write_me old value=2 new value=42" {
		t.Errorf("conv12: stores %+v acks %v", c.stores, c.storeAck)
	}
	if vs, _ := c.lastValues(c.ids["sample.write_me"]); vs.Values[0].Word != 2 {
		t.Errorf("conv12: old value %d, pmstore says 2", vs.Values[0].Word)
	}
	c = loadConversation(t, "conv21")
	if len(c.storeAck) != 1 || c.storeAck[0] != -12387 || !strings.Contains(read("conv21")[0], "No permission") {
		t.Errorf("conv21: store acks %v, want PM_ERR_PERMISSION -12387", c.storeAck)
	}
	// pmval: three fetches of sample.colour, one row per fetch.
	c = loadConversation(t, "conv14")
	lines := read("conv14")
	rows := lines[len(lines)-3:]
	if len(c.results) != 4 {
		t.Fatalf("conv14: %d results, want 1 + 3 samples", len(c.results))
	}
	for i, r := range c.results[1:] {
		var got []string
		for _, v := range r.Sets[0].Values {
			got = append(got, strconv.Itoa(int(int32(v.Word))))
		}
		if strings.Join(got, " ") != strings.Join(strings.Fields(rows[i]), " ") {
			t.Errorf("conv14 sample %d: %v, pmval %q", i, got, rows[i])
		}
	}
	// pminfo -t -m: PMIDs and one-line help texts.
	c = loadConversation(t, "conv08")
	for _, l := range read("conv08") {
		name, rest, _ := strings.Cut(l, " PMID: ")
		pm, help, _ := strings.Cut(rest, " [")
		pmid := c.ids[name]
		if pmid.String() != pm {
			t.Errorf("conv08 %s: pmid %v, pminfo %s", name, pmid, pm)
		}
		found := false
		for ident, text := range c.texts {
			// TEXT.ident is in the PMDA's byte order; match either order.
			if (ident == uint32(pmid) || ident == swap32(uint32(pmid))) && text == strings.TrimSuffix(help, "]") {
				found = true
			}
		}
		if !found {
			t.Errorf("conv08 %s: help %q not among decoded texts %v", name, help, c.texts)
		}
	}
	// pminfo sample.event: the traversal's leaf names.
	c = loadConversation(t, "conv19")
	if strings.Join(c.traverse, "\n") != strings.Join(read("conv19"), "\n") {
		t.Errorf("conv19: traversal %q", c.traverse)
	}
	// The handshake: pmcd 6.0.3's features word.
	if c.hello.Status != 0 || c.hello.Features.Flags() != 0x0e44 || !c.hello.Features.HighResFetch() ||
		!c.hello.Features.DescIDs() || c.hello.Features.Version() != 2 {
		t.Errorf("hello %+v", c.hello)
	}
}

func swap32(v uint32) uint32 { return v>>24 | v>>8&0xff00 | v<<8&0xff0000 | v<<24 }
