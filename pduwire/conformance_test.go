//go:build conformance

package pduwire_test

import (
	"encoding/binary"
	"math"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// pmcdSession is a client connection to the live pmcd, speaking only
// through this package's encoders and decoders.
type pmcdSession struct {
	t     *testing.T
	conn  net.Conn
	r     *pduwire.Reader
	hello pduwire.ServerHello
}

func dialPmcd(t *testing.T) *pmcdSession {
	t.Helper()
	conn, err := net.DialTimeout("tcp", "127.0.0.1:44321", 5*time.Second)
	if err != nil {
		t.Fatalf("pmcd is not listening on 127.0.0.1:44321 (the conformance run starts it): %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	s := &pmcdSession{t: t, conn: conn, r: pduwire.NewReader(conn, pduwire.Options{})}
	if !s.r.Next() {
		t.Fatalf("reading pmcd's hello: %v", s.r.Err())
	}
	if s.hello, err = pduwire.ParseServerHello(s.r.PDU().Bytes); err != nil {
		t.Fatalf("pmcd's hello: %v", err)
	}
	if s.hello.Status != 0 {
		t.Fatalf("pmcd refused the connection: status %d", s.hello.Status)
	}
	flags := pduwire.ClientFlags(s.hello.Features)
	if flags&^pduwire.ClientFlagsAllowed != 0 || flags&(pduwire.FlagLabels|pduwire.FlagHighRes|pduwire.FlagDescs) != 0 {
		t.Fatalf("client flags %#x echo one-way features", flags)
	}
	s.send(pduwire.AppendClientCreds(nil, int32(os.Getpid()), flags))
	return s
}

func (s *pmcdSession) send(pdu []byte) {
	s.t.Helper()
	if _, err := s.conn.Write(pdu); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

// call sends a request and returns the reply, skipping state-change
// ERRORs (positive codes), as a client must.
func (s *pmcdSession) call(m pduwire.Message) pduwire.Message {
	s.t.Helper()
	s.send(m.Append(nil, 0))
	for {
		if !s.r.Next() {
			s.t.Fatalf("reply to %v: %v", m.Type(), s.r.Err())
		}
		p := s.r.PDU()
		rep, err := pduwire.Decode(p.Bytes)
		if err != nil {
			s.t.Fatalf("decoding pmcd's %v reply to %v: %v", p.Header.Type, m.Type(), err)
		}
		if e, ok := rep.(*pduwire.ErrorPDU); ok && e.Code > 0 {
			continue
		}
		return rep
	}
}

// TestConformancePmcdFetch performs the handshake with our encoder,
// resolves names, fetches sample metrics and compares the values with
// what pmprobe reads from the same pmcd.
func TestConformancePmcdFetch(t *testing.T) {
	s := dialPmcd(t)
	if s.hello.Features.Version() != 2 || !s.hello.Features.HighResFetch() || !s.hello.Features.DescIDs() {
		t.Errorf("features %#x: pmcd 6.0.3 advertises version 2, HIGHRES and DESCS", uint32(s.hello.Features))
	}
	names := []string{"sample.long.one", "sample.long.hundred", "sample.colour", "sample.string.hullo", "sample.double.ten"}
	req := &pduwire.PMNSNamesPDU{}
	for _, n := range names {
		req.Names = append(req.Names, []byte(n))
	}
	ids, ok := s.call(req).(*pduwire.PMNSIDsPDU)
	if !ok || len(ids.PMIDs) != len(names) || ids.Status != int32(len(names)) {
		t.Fatalf("name lookup: %+v", ids)
	}
	if ids.PMIDs[0] != pcp.NewID(29, 0, 10) {
		t.Errorf("sample.long.one = %v, want 29.0.10", ids.PMIDs[0])
	}
	// Descriptors, in one DESC_IDS as advertised.
	descs, ok := s.call(&pduwire.DescIDsPDU{PMIDs: ids.PMIDs}).(*pduwire.DescsPDU)
	if !ok || len(descs.Descs) != len(names) {
		t.Fatalf("DESC_IDS reply: %+v", descs)
	}
	wantTypes := []pcp.Type{pcp.Type32, pcp.Type32, pcp.Type32, pcp.TypeString, pcp.TypeDouble}
	for i, d := range descs.Descs {
		if d.ID != ids.PMIDs[i] || d.Type != wantTypes[i] {
			t.Errorf("%s: desc %+v", names[i], d)
		}
	}
	// A profile, then one fetch of everything.
	s.send((&pduwire.ProfilePDU{}).Append(nil, 0))
	rep := s.call(&pduwire.FetchPDU{HighRes: true, PMIDs: ids.PMIDs})
	res, ok := rep.(*pduwire.ResultPDU)
	if !ok || !res.HighRes || len(res.Sets) != len(names) {
		t.Fatalf("fetch reply: %v %+v", rep.Type(), rep)
	}
	got := map[string]string{}
	for i, vs := range res.Sets {
		var vals []string
		for _, v := range vs.Values {
			switch descs.Descs[i].Type {
			case pcp.TypeString:
				vals = append(vals, strings.TrimSuffix(string(v.Payload), "\x00"))
			case pcp.TypeDouble:
				vals = append(vals, strconv.FormatFloat(math.Float64frombits(binary.BigEndian.Uint64(v.Payload)), 'g', -1, 64))
			default:
				vals = append(vals, strconv.Itoa(int(int32(v.Word))))
			}
		}
		got[names[i]] = strings.Join(vals, " ")
	}
	if got["sample.long.one"] != "1" || got["sample.long.hundred"] != "100" || got["sample.string.hullo"] != "hullo world!" ||
		got["sample.double.ten"] != "10" {
		t.Errorf("fetched %q", got)
	}
	// The oracle: pmprobe -v against the same pmcd.
	out, err := exec.Command("pmprobe", "-h", "127.0.0.1", "-v", "sample.long.one", "sample.long.hundred").CombinedOutput()
	if err != nil {
		t.Fatalf("pmprobe: %v\n%s", err, out)
	}
	if string(out) != "sample.long.one 1 "+got["sample.long.one"]+"\nsample.long.hundred 1 "+got["sample.long.hundred"]+"\n" {
		t.Errorf("pmprobe says %q, we fetched %q", out, got)
	}
	// sample.colour has three instances; the INSTANCE reply names them.
	colour := res.Sets[2]
	inst, ok := s.call(&pduwire.InstanceReqPDU{InDom: descs.Descs[2].InDom, Inst: pcp.InNull}).(*pduwire.InstancePDU)
	if !ok || len(colour.Values) != 3 || len(inst.Instances) != 3 || string(inst.Instances[1].Name) != "green" {
		t.Errorf("sample.colour: %+v, instances %+v", colour, inst)
	}
	// A request pmcd cannot satisfy comes back as an ERROR value.
	if e, ok := s.call(&pduwire.DescReqPDU{PMID: pcp.NewID(77, 0, 1)}).(*pduwire.ErrorPDU); !ok || e.Code != -12358 {
		t.Errorf("DESC_REQ for an unknown domain: %+v, want ERROR(PM_ERR_PMID)", e)
	}
}

// TestConformancePmcdRejectsEchoedFeatures: pmcd refuses CREDS that echo
// a one-way feature, which is why ClientFlags never does.
func TestConformancePmcdRejectsEchoedFeatures(t *testing.T) {
	conn, err := net.DialTimeout("tcp", "127.0.0.1:44321", 5*time.Second)
	if err != nil {
		t.Fatalf("pmcd is not listening on 127.0.0.1:44321: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := pduwire.NewReader(conn, pduwire.Options{})
	if !r.Next() {
		t.Fatal(r.Err())
	}
	c := pduwire.CredsPDU{Creds: []pduwire.Credential{pduwire.NewVersionCred(2, pduwire.FlagLabels)}}
	conn.Write(c.Append(nil, int32(os.Getpid())))
	if !r.Next() {
		t.Fatalf("no reply to CREDS with LABELS: %v", r.Err())
	}
	p := r.PDU()
	var e pduwire.ErrorPDU
	if err := e.UnmarshalBinary(p.Bytes); err != nil || e.Code != -12366 {
		t.Errorf("reply %v %+v, want ERROR(PM_ERR_IPC)", err, e)
	}
}

// TestConformancePmcdNamespaceAndHelp compares a PMNS traversal and a
// one-line help text fetched with our PDUs against pminfo.
func TestConformancePmcdNamespaceAndHelp(t *testing.T) {
	s := dialPmcd(t)
	names, ok := s.call(&pduwire.PMNSChildPDU{Traverse: true, Name: []byte("sample.event")}).(*pduwire.PMNSNamesPDU)
	if !ok || len(names.Names) == 0 {
		t.Fatalf("traverse: %+v", names)
	}
	var got []string
	for _, n := range names.Names {
		got = append(got, string(n))
	}
	out, err := exec.Command("pminfo", "-h", "127.0.0.1", "sample.event").Output()
	if err != nil {
		t.Fatalf("pminfo: %v", err)
	}
	if strings.Join(got, "\n")+"\n" != string(out) {
		t.Errorf("traverse %q, pminfo %q", got, out)
	}
	id := pcp.NewID(29, 0, 10)
	txt, ok := s.call(&pduwire.TextReqPDU{Ident: uint32(id), Kind: pduwire.TextOneline | pduwire.TextPMID}).(*pduwire.TextPDU)
	if !ok {
		t.Fatalf("TEXT_REQ reply: %+v", txt)
	}
	out, err = exec.Command("pminfo", "-h", "127.0.0.1", "-t", "sample.long.one").Output()
	if err != nil {
		t.Fatalf("pminfo -t: %v", err)
	}
	if want := "sample.long.one [" + string(txt.Text) + "]\n"; string(out) != want {
		t.Errorf("help %q, pminfo %q", want, out)
	}
	// Context labels arrive as a LABEL PDU whose JSON names the host.
	lab, ok := s.call(&pduwire.LabelReqPDU{Ident: 0xffffffff, Kind: pduwire.LabelContext}).(*pduwire.LabelPDU)
	if !ok || len(lab.Sets) != 1 || !strings.Contains(string(lab.Sets[0].JSON), `"hostname":`) {
		t.Errorf("context labels: %+v", lab)
	}
}
