package pmda

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

const testDomain = 253

var (
	idCount  = pcp.NewID(testDomain, 0, 0)
	idColour = pcp.NewID(testDomain, 0, 1)
	idTime   = pcp.NewID(testDomain, 1, 2)
	idName   = pcp.NewID(testDomain, 1, 3)
	idEvents = pcp.NewID(testDomain, 2, 0)
	idPanic  = pcp.NewID(testDomain, 3, 0)
	idSleep  = pcp.NewID(testDomain, 3, 1)
	colours  = pcp.NewInDom(testDomain, 0)
)

// testAgent declares one metric of each kind the tests need.
func testAgent(t testing.TB, mod func(*Options)) *Agent {
	var count atomic.Uint32
	o := Options{
		Domain:       testDomain,
		Name:         "test",
		DomainLabels: `{"role":"testing"}`,
		Metrics: []Metric{
			{Name: "test.count", PMID: pcp.NewID(0, 0, 0), Type: pcp.TypeU32, Sem: pcp.SemCounter, InDom: pcp.InDomNull, OneLine: "fetches", Help: "Fetches\nso far.", Writable: true},
			{Name: "test.colour", PMID: pcp.NewID(0, 0, 1), Type: pcp.Type32, Sem: pcp.SemInstant, InDom: pcp.NewInDom(0, 0), Labels: `{"model":"RGB"}`},
			{Name: "test.time", PMID: pcp.NewID(0, 1, 2), Type: pcp.TypeDouble, Sem: pcp.SemCounter, InDom: pcp.InDomNull, Units: pcp.NewUnits(0, 1, 0, 0, pcp.TimeSec, 0)},
			{Name: "test.name", PMID: pcp.NewID(0, 1, 3), Type: pcp.TypeString, Sem: pcp.SemDiscrete, InDom: pcp.InDomNull},
			{Name: "test.events", PMID: pcp.NewID(0, 2, 0), Type: pcp.TypeEvent, Sem: pcp.SemDiscrete, InDom: pcp.InDomNull},
			{Name: "test.panic", PMID: pcp.NewID(0, 3, 0), Type: pcp.TypeU32, InDom: pcp.InDomNull},
			{Name: "test.sleep", PMID: pcp.NewID(0, 3, 1), Type: pcp.TypeU32, InDom: pcp.InDomNull},
		},
		InDoms: []InDom{{
			InDom:     pcp.NewInDom(0, 0),
			Instances: []Instance{{ID: 0, Name: "red"}, {ID: 1, Name: "green"}, {ID: 2, Name: "blue sky", Labels: `{"sky":true}`}},
			OneLine:   "colours",
			Labels:    `{"indom_name":"color"}`,
		}},
		Refresh: func(ctx context.Context, pmids []pcp.ID) error {
			count.Add(1)
			return nil
		},
		Fetch: func(ctx context.Context, m *Metric, inst int32, v *Value) error {
			switch m.PMID {
			case idCount:
				v.SetUint32(count.Load())
			case idColour:
				v.SetInt32(100*inst + 7)
			case idTime:
				v.SetFloat64(1.5)
			case idName:
				v.SetString("hello")
			case idEvents:
				b := v.Events()
				b.AddRecord(1700000000, 5, eventrec.FlagPoint)
				b.AddUint32(idCount, 42)
				b.AddString(idName, "bingo")
			case idPanic:
				panic("test panic")
			case idSleep:
				select {
				case <-ctx.Done():
				case <-time.After(5 * time.Second):
				}
				v.SetUint32(1)
			}
			return nil
		},
		Store: func(ctx context.Context, m *Metric, vs pduwire.ValueSet) error {
			if vs.Len() != 1 {
				return pcp.ErrBadStore
			}
			_, word := vs.Word(0)
			count.Store(word)
			return nil
		},
		Limits: Limits{CallTimeout: 300 * time.Millisecond},
		Logf:   func(string, ...any) {},
	}
	if mod != nil {
		mod(&o)
	}
	return mustNew(t, o)
}

func fetch(f *fakePMCD, ids ...pcp.ID) pduwire.Result {
	f.t.Helper()
	f.send(&pduwire.FetchPDU{Ctx: 0, PMIDs: ids}, 0)
	b := f.recv()
	r, err := pduwire.ParseResult(b)
	if err != nil {
		f.t.Fatalf("RESULT does not parse: %v\n% x", err, b)
	}
	return r
}

func TestStartup(t *testing.T) {
	for _, attrs := range []bool{false, true} {
		f := startAgent(t, testAgent(t, func(o *Options) { o.Attributes = attrs }))
		if len(f.creds.Creds) != 1 || f.creds.Creds[0].Kind() != pduwire.CredVersion || f.creds.Creds[0].Version() != 2 {
			t.Fatalf("CREDS %+v", f.creds)
		}
		want := uint16(0)
		if attrs {
			want = pduwire.FlagAuth | pduwire.FlagContainer
		}
		if got := f.creds.Creds[0].Flags(); got != want {
			t.Errorf("attributes %v: CREDS flags %#x, want %#x", attrs, got, want)
		}
		if err := f.close(); err != nil {
			t.Errorf("Serve after pmcd closed: %v", err)
		}
	}
}

func TestFetch(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	f.send(&pduwire.ProfilePDU{}, 0)
	r := fetch(f, idCount, idColour, idTime, idName, pcp.NewID(testDomain, 9, 9), idEvents)
	if r.NumPMID != 6 || r.Sec != 0 || r.Nsec != 0 {
		t.Fatalf("result %+v", r)
	}
	var sets []pduwire.ValueSet
	for vs := range r.ValueSets() {
		sets = append(sets, vs)
	}
	if v := sets[0].Value(0); sets[0].NumVal != 1 || v.Inst != pcp.InNull || v.Word != 1 || sets[0].ValFmt != pduwire.ValInsitu {
		t.Errorf("count: %+v %+v", sets[0], v)
	}
	if sets[1].NumVal != 3 {
		t.Fatalf("colour numval %d", sets[1].NumVal)
	}
	for i := range 3 {
		if v := sets[1].Value(i); v.Inst != int32(i) || int32(v.Word) != 100*int32(i)+7 {
			t.Errorf("colour[%d] = %+v", i, v)
		}
	}
	if v := sets[2].Value(0); v.BlockType() != pcp.TypeDouble || v.Float64() != 1.5 {
		t.Errorf("time: %v %v", v.BlockType(), v.Float64())
	}
	if v := sets[3].Value(0); v.BlockType() != pcp.TypeString || string(v.Payload()) != "hello\x00" {
		t.Errorf("name: %q", v.Payload())
	}
	if sets[4].NumVal != int32(pcp.ErrPMID) {
		t.Errorf("unknown metric numval %d, want PM_ERR_PMID", sets[4].NumVal)
	}
	ev, err := sets[5].Value(0).Events()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, err := range ev.All() {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if rec.Seconds() != 1700000000 || rec.NumParams() != 2 {
			t.Errorf("event record %+v", rec)
		}
	}
	if n != 1 {
		t.Errorf("%d event records", n)
	}
}

func TestProfile(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	// Everything excluded but instance 2 of the colours.
	f.send(&pduwire.ProfilePDU{State: pduwire.ProfileInclude, Entries: []pduwire.ProfileEntry{{InDom: colours, State: pduwire.ProfileExclude, Insts: []int32{2}}}}, 3)
	r := fetch(f, idColour)
	for vs := range r.ValueSets() {
		if vs.NumVal != 1 || vs.Value(0).Inst != 2 {
			t.Errorf("profile for instance 2: %+v", vs)
		}
	}
	// A profile for an unknown indom changes nothing for the others.
	f.send(&pduwire.ProfilePDU{Entries: []pduwire.ProfileEntry{{InDom: pcp.NewInDom(7, 7), State: pduwire.ProfileExclude}}}, 3)
	r = fetch(f, idColour)
	for vs := range r.ValueSets() {
		if vs.NumVal != 3 {
			t.Errorf("profile for another indom: numval %d", vs.NumVal)
		}
	}
}

func TestDescTextInstance(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	var d pduwire.DescPDU
	f.send(&pduwire.DescReqPDU{PMID: idTime}, 0)
	f.recvInto(&d)
	want := pcp.Desc{ID: idTime, Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 1, 0, 0, pcp.TimeSec, 0)}
	if d.Desc != want {
		t.Errorf("desc %v, want %v", d.Desc, want)
	}
	f.send(&pduwire.DescReqPDU{PMID: pcp.NewID(testDomain, 5, 5)}, 0)
	if c := f.recvError(); c != pcp.ErrPMID {
		t.Errorf("unknown desc: %v", c)
	}

	var tx pduwire.TextPDU
	f.send(&pduwire.TextReqPDU{Ident: uint32(idCount), Kind: pduwire.TextHelp | pduwire.TextPMID}, 0)
	f.recvInto(&tx)
	if string(tx.Text) != "Fetches\nso far." {
		t.Errorf("help %q", tx.Text)
	}
	f.send(&pduwire.TextReqPDU{Ident: uint32(colours), Kind: pduwire.TextOneline | pduwire.TextInDom}, 0)
	f.recvInto(&tx)
	if string(tx.Text) != "colours" {
		t.Errorf("indom one-line %q", tx.Text)
	}
	f.send(&pduwire.TextReqPDU{Ident: uint32(idTime), Kind: pduwire.TextHelp | pduwire.TextPMID}, 0)
	if c := f.recvError(); c != pcp.ErrText {
		t.Errorf("missing help: %v", c)
	}

	var in pduwire.InstancePDU
	f.send(&pduwire.InstanceReqPDU{InDom: colours, Inst: pcp.InNull}, 0)
	f.recvInto(&in)
	if len(in.Instances) != 3 || string(in.Instances[2].Name) != "blue sky" {
		t.Errorf("instances %+v", in.Instances)
	}
	f.send(&pduwire.InstanceReqPDU{InDom: colours, Inst: pcp.InNull, Name: []byte("blue")}, 0)
	f.recvInto(&in)
	if len(in.Instances) != 1 || in.Instances[0].Inst != 2 {
		t.Errorf("by first word: %+v", in.Instances)
	}
	f.send(&pduwire.InstanceReqPDU{InDom: colours, Inst: 1}, 0)
	f.recvInto(&in)
	if len(in.Instances) != 1 || in.Instances[0].Inst != pcp.InNull || string(in.Instances[0].Name) != "green" {
		t.Errorf("by number: %+v", in.Instances)
	}
	f.send(&pduwire.InstanceReqPDU{InDom: colours, Inst: 9}, 0)
	if c := f.recvError(); c != pcp.ErrInst {
		t.Errorf("unknown instance: %v", c)
	}
	f.send(&pduwire.InstanceReqPDU{InDom: pcp.NewInDom(testDomain, 9), Inst: pcp.InNull}, 0)
	if c := f.recvError(); c != pcp.ErrInDom {
		t.Errorf("unknown indom: %v", c)
	}
}

func TestLabels(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	var l pduwire.LabelPDU
	f.send(&pduwire.LabelReqPDU{Ident: testDomain, Kind: pduwire.LabelDomain}, 0)
	f.recvInto(&l)
	if len(l.Sets) != 1 || string(l.Sets[0].JSON) != `{"role":"testing"}` || l.Sets[0].Labels[0].Flags != pduwire.LabelDomain {
		t.Errorf("domain labels %+v", l.Sets)
	}
	f.send(&pduwire.LabelReqPDU{Ident: uint32(idColour), Kind: pduwire.LabelItem}, 0)
	f.recvInto(&l)
	if len(l.Sets) != 1 || string(l.Sets[0].JSON) != `{"model":"RGB"}` {
		t.Errorf("item labels %+v", l.Sets)
	}
	f.send(&pduwire.LabelReqPDU{Ident: uint32(idCount), Kind: pduwire.LabelCluster}, 0)
	f.recvInto(&l)
	if len(l.Sets) != 0 {
		t.Errorf("cluster labels %+v", l.Sets)
	}
	f.send(&pduwire.LabelReqPDU{Ident: uint32(colours), Kind: pduwire.LabelInstances}, 0)
	f.recvInto(&l)
	if len(l.Sets) != 3 || l.Sets[0].NLabels != 0 || l.Sets[2].Inst != 2 || string(l.Sets[2].JSON) != `{"sky":true}` {
		t.Errorf("instance labels %+v", l.Sets)
	}
}

func TestStore(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	store := func(id pcp.ID, v uint32) pcp.Code {
		f.send(&pduwire.ResultPDU{Sets: []pduwire.ValueSetData{{PMID: id, ValFmt: pduwire.ValInsitu, Values: []pduwire.ValueData{{Inst: pcp.InNull, Word: v}}}}}, 0)
		return f.recvError()
	}
	if c := store(idCount, 42); c != 0 {
		t.Fatalf("store: %v", c)
	}
	r := fetch(f, idCount)
	for vs := range r.ValueSets() {
		if vs.Value(0).Word != 43 { // the store, then this fetch's Refresh
			t.Errorf("after the store: %d", vs.Value(0).Word)
		}
	}
	if c := store(idTime, 1); c != pcp.ErrPermission {
		t.Errorf("read-only store: %v", c)
	}
	if c := store(pcp.NewID(testDomain, 8, 8), 1); c != pcp.ErrPMID {
		t.Errorf("unknown store: %v", c)
	}
}

func TestCallbackFailures(t *testing.T) {
	f := startAgent(t, testAgent(t, nil))
	f.send(&pduwire.FetchPDU{PMIDs: []pcp.ID{idPanic}}, 0)
	if c := f.recvError(); c != pcp.ErrAgain {
		t.Errorf("panicking callback: %v", c)
	}
	start := time.Now()
	f.send(&pduwire.FetchPDU{PMIDs: []pcp.ID{idSleep}}, 0)
	if c := f.recvError(); c != pcp.ErrAgain {
		t.Errorf("blocking callback: %v", c)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the overrun was answered after %v", d)
	}
	// The agent lives on.
	if r := fetch(f, idCount); r.NumPMID != 1 {
		t.Errorf("after failures: %+v", r)
	}
}

func TestDynamicInstances(t *testing.T) {
	a := testAgent(t, nil)
	f := startAgent(t, a)
	if err := a.SetInstances(colours, []Instance{{ID: 5, Name: "violet"}}); err != nil {
		t.Fatal(err)
	}
	a.NotifyLabelsChanged()
	r := fetch(f, idColour)
	if r.Sec != changeLabels {
		t.Errorf("tv_sec %#x, want the label change bit", r.Sec)
	}
	for vs := range r.ValueSets() {
		if vs.NumVal != 1 || vs.Value(0).Inst != 5 {
			t.Errorf("after SetInstances: %+v", vs)
		}
	}
	if r := fetch(f, idColour); r.Sec != 0 {
		t.Errorf("the change bit was sent twice")
	}
	if err := a.SetInstances(colours, []Instance{{ID: 1}, {ID: 1}}); err == nil {
		t.Error("duplicate instance numbers accepted")
	}
	if err := a.SetInstances(pcp.NewInDom(0, 9), nil); err == nil {
		t.Error("undeclared indom accepted")
	}
}

func TestNotReady(t *testing.T) {
	a := testAgent(t, nil)
	f := startAgent(t, a)
	a.SetReady(false)
	f.send(&pduwire.DescReqPDU{PMID: idCount}, 0)
	if c := f.recvError(); c != pcp.ErrPMDANotReady {
		t.Errorf("busy: %v", c)
	}
	errc := make(chan error, 1)
	go func() { errc <- a.SetReady(true) }()
	if c := f.recvError(); c != pcp.ErrPMDAReady {
		t.Errorf("ready notice: %v", c)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestAttributes(t *testing.T) {
	got := make(chan *Client, 1)
	a := testAgent(t, func(o *Options) {
		o.Attributes = true
		o.Refresh = func(ctx context.Context, _ []pcp.ID) error {
			got <- ClientOf(ctx)
			return nil
		}
	})
	f := startAgent(t, a)
	f.send(&pduwire.AttrPDU{Attr: pduwire.AttrUsername, Value: []byte("alice\x00")}, 4)
	f.send(&pduwire.AttrPDU{Attr: pduwire.AttrContainer, Value: []byte("web-1\x00")}, 4)
	f.send(&pduwire.AttrPDU{Attr: pduwire.AttrContainer, Value: []byte("bad name\x00")}, 4)
	f.send(&pduwire.FetchPDU{Ctx: 4, PMIDs: []pcp.ID{idCount}}, 4)
	f.recv()
	c := <-got
	if c == nil || c.UserName != "alice" || c.Container != "web-1" || c.Ctx != 4 {
		t.Errorf("client %+v", c)
	}
	f.send(&pduwire.ErrorPDU{Code: int32(pcp.ErrNotConn)}, 4)
	f.send(&pduwire.FetchPDU{Ctx: 4, PMIDs: []pcp.ID{idCount}}, 4)
	f.recv()
	if c := <-got; c != nil {
		t.Errorf("client after its end: %+v", c)
	}
}

// A value of the wrong kind is left out with PM_ERR_TYPE and does not
// disturb the payloads already built.
func TestWrongKind(t *testing.T) {
	a := testAgent(t, func(o *Options) {
		fetch := o.Fetch
		o.Fetch = func(ctx context.Context, m *Metric, inst int32, v *Value) error {
			if m.PMID == idName {
				v.SetUint32(5)
				return nil
			}
			if m.PMID == idTime {
				v.SetString("not a number")
				return nil
			}
			return fetch(ctx, m, inst, v)
		}
	})
	f := startAgent(t, a)
	r := fetch(f, idEvents, idName, idTime, idEvents)
	var sets []pduwire.ValueSet
	for vs := range r.ValueSets() {
		sets = append(sets, vs)
	}
	if sets[1].NumVal != int32(pcp.ErrType) || sets[2].NumVal != int32(pcp.ErrType) {
		t.Errorf("wrong kinds: numval %d %d", sets[1].NumVal, sets[2].NumVal)
	}
	for _, i := range []int{0, 3} {
		ev, err := sets[i].Value(0).Events()
		if err != nil || ev.Len() != 1 {
			t.Errorf("events %d: %v %v", i, ev.Len(), err)
		}
	}
}
