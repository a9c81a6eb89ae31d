package dltkpi

import (
	"bytes"
	"errors"
	"testing"

	"sigs.k8s.io/randfill"
)

// addCaptureSeeds adds every KPI payload of the captures as a seed.
func addCaptureSeeds(f *testing.F) {
	for _, name := range captures {
		for _, cm := range readCapture(f, name) {
			if cm.isKPI() {
				f.Add(cm.payload)
			}
		}
	}
}

// sameFields compares the decoded fields of two datasets (not Raw: a
// re-encoding drops leading zeros and "-0").
func sameFields(a, b Dataset) bool {
	return a.Kind == b.Kind && a.Truncated == b.Truncated && a.PID == b.PID && a.PPID == b.PPID &&
		bytes.Equal(a.Cmd, b.Cmd) && a.CPU == b.CPU && a.RSS == b.RSS && a.Ctx == b.Ctx &&
		a.IO == b.IO && a.IOWait == b.IOWait && bytes.Equal(a.IRQ, b.IRQ) && a.CPUs == b.CPUs &&
		sameCounts(a, b)
}

func sameCounts(a, b Dataset) bool {
	ca, cb := a.AppendCounts(nil), b.AppendCounts(nil)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i].Count != cb[i].Count {
			return false
		}
	}
	return true
}

// FuzzParse: Parse never panics; what parses re-encodes to a payload
// that parses to the same message and the same datasets.
func FuzzParse(f *testing.F) {
	addCaptureSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		in = in[:len(in):len(in)]
		for _, be := range []bool{false, true} {
			m, err := Parser{Order: byteOrder(be)}.Parse(in)
			if err != nil {
				continue
			}
			var re []byte
			n := 0
			for a := range m.Args() {
				if bytes.IndexByte(a, 0) >= 0 || len(a) >= 0xfffe {
					return // VARI names or embedded NULs do not round-trip
				}
				re = AppendArgument(re, a)
				n++
			}
			if n != m.Arguments {
				t.Fatalf("Args yielded %d, Arguments %d", n, m.Arguments)
			}
			m2, err := Parse(re)
			if err != nil {
				t.Fatalf("re-encoded payload: %v", err)
			}
			if m2.Kind != m.Kind || m2.Sync != m.Sync || m2.Datasets != m.Datasets || m2.Fragments != m.Fragments || m2.Bytes != m.Bytes {
				t.Fatalf("round trip: %+v vs %+v", m2, m)
			}
			s1, s2 := m.Scanner(), m2.Scanner()
			for s1.Next() {
				if !s2.Next() {
					t.Fatal("fewer datasets after round trip")
				}
				d1p, e1 := s1.Dataset()
				d2p, e2 := s2.Dataset()
				d1, d2 := *d1p, *d2p
				if (e1 == nil) != (e2 == nil) || !bytes.Equal(d1.Raw, d2.Raw) {
					t.Fatalf("dataset %q / %q: %v / %v", d1.Raw, d2.Raw, e1, e2)
				}
				if e1 != nil || d1.Truncated {
					continue
				}
				// Encode the decoded fields and decode again.
				d3, err := ParseDataset(d1.Kind, AppendDataset(nil, d1))
				if err != nil || !sameFields(d1, d3) {
					t.Fatalf("dataset %q: re-encoded %q: %v", d1.Raw, AppendDataset(nil, d1), err)
				}
				if c := d1.Clone(); !sameFields(c, d1) || !bytes.Equal(c.Raw, d1.Raw) {
					t.Fatalf("Clone of %q differs", d1.Raw)
				}
			}
			if s2.Next() {
				t.Fatal("more datasets after round trip")
			}
		}
	})
}

// FuzzReassembler feeds random message sequences (each input byte picks a
// kind, a sync code or data, counter and session changes) and checks the
// reassembler and the tracker never panic and stay within their limits.
func FuzzReassembler(f *testing.F) {
	f.Add([]byte{0x10, 0x01, 0x02, 0x20, 0x03, 0x11, 0x41, 0x81})
	f.Add([]byte("\x13\x03\x03\x03\x03\x23\x14\x04\x24\xff\x00"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		l := Options{MaxGroupDatasets: 5, MaxGroupBytes: 200, MaxGroupAge: 50, FloodRun: 2, MaxSessions: 2}
		tl := Options{MaxProcesses: 8, MaxIRQs: 4, MaxIRQCPUs: 2, MaxTombstones: 4}
		r := NewReassembler(l)
		tr := NewTracker(tl)
		var snaps Snapshots
		var src Source
		var buf []byte
		events := 0
		for i, op := range ops {
			k := Kinds[int(op&7)%len(Kinds)]
			src.TMSP += uint32(op >> 5)
			src.MCNT++
			if op&0x80 != 0 && i%3 == 0 {
				src.MCNT += 2 // a gap
			}
			if op == 0xff {
				src.SEID++
			}
			src.ECU[0] = op & 0x40 >> 6 * byte(i%3)
			buf = buf[:0]
			switch op >> 3 & 3 {
			case 0:
				buf = AppendSync(buf, k, SyncBegin)
			case 1:
				buf = AppendSync(buf, k, SyncEnd)
			default:
				b := NewPayloadBuilder(buf, k, 0)
				for j := 0; j < int(op>>4)+1; j++ {
					pid := int32(op) + int32(j)
					var ds []byte
					switch k {
					case KindNEW:
						ds = AppendNew(nil, pid, 1, []byte("cmd"))
					case KindCHK:
						ds = AppendCheck(nil, pid, []byte("(k)"))
					case KindSTP:
						ds = AppendStop(nil, pid)
					case KindACT:
						ds = AppendAct(nil, pid, uint64(op), int64(i), int64(i), uint64(j), 0)
					case KindIRQ:
						ds = AppendIRQ(nil, []byte{'a' + byte(j)}, []int64{int64(i) - 2, int64(op)})
					}
					if op&0x20 != 0 && j == 0 {
						ds = append(ds, TruncationMarker...)
					}
					b.Add(ds)
				}
				buf = b.Payload()
			}
			if op == 0xfe {
				buf = append(buf, 1, 2, 3)
			}
			r.PushPayload(src, buf, nil)
			for r.Next() {
				ev := r.Event()
				events++
				if ev.Group.Datasets > l.MaxGroupDatasets || ev.Group.Bytes > l.MaxGroupBytes {
					t.Fatalf("group beyond limits: %+v", ev.Group)
				}
				tr.Apply(ev)
				if snap, ok := snaps.Apply(ev); ok && (len(snap.Datasets) != snap.Group.Datasets || !snap.Group.Complete) {
					t.Fatalf("snapshot of %d datasets for %+v", len(snap.Datasets), snap.Group)
				}
				for k := range snaps.ds {
					if len(snaps.ds[k]) > l.MaxGroupDatasets || len(snaps.text[k]) > l.MaxGroupBytes {
						t.Fatalf("snapshot buffer beyond limits: %d datasets", len(snaps.ds[k]))
					}
				}
			}
			if r.OpenGroups() > l.MaxSessions*NumKinds || len(r.sessions) > l.MaxSessions {
				t.Fatalf("%d open groups in %d sessions", r.OpenGroups(), len(r.sessions))
			}
			if tr.Len() > tl.MaxProcesses || len(tr.irqs) > tl.MaxIRQs || tr.tombs.n > tl.MaxTombstones || len(tr.rows) > tl.MaxIRQs {
				t.Fatalf("tracker beyond limits: %d processes, %d irqs, %d tombstones", tr.Len(), len(tr.irqs), tr.tombs.n)
			}
		}
		r.Flush()
		for r.Next() {
			tr.Apply(r.Event())
		}
		if r.OpenGroups() != 0 {
			t.Fatal("groups open after Flush")
		}
		for _, p := range tr.Processes() {
			if p.HasDelta && p.CtxDelta < 0 {
				t.Fatalf("negative delta: %+v", p)
			}
		}
		for _, q := range tr.IRQs() {
			if q.HasDelta && q.Delta < 0 || q.Count < 0 {
				t.Fatalf("negative IRQ value applied: %+v", q)
			}
		}
		st := r.Stats()
		if st.Messages+st.Invalid != len(ops) {
			t.Fatalf("%d messages + %d invalid, pushed %d", st.Messages, st.Invalid, len(ops))
		}
	})
}

// encodable is what randfill fills for the encoder round trip: the fields
// of one dataset of every kind.
type encodable struct {
	Kind            uint8
	PID, PPID       int32
	Cmd             []byte
	CPU, IO, IOWait uint64
	RSS, Ctx        int64
	IRQ             []byte
	Counts          []int64
	Datasets        uint8
	BufLen          uint16
}

// FuzzEncodeRoundTrip fills datasets with randfill, encodes a group with
// EncodeGroup (libdlt's splitting) and checks that parsing the payloads
// gives back exactly the datasets, in order, without fragments leaking in.
func FuzzEncodeRoundTrip(f *testing.F) {
	f.Add([]byte("seed-one"))
	f.Add(bytes.Repeat([]byte{7, 200, 3}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		var e encodable
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 40).Fill(&e)
		k := Kinds[int(e.Kind)%len(Kinds)]
		clean := func(b []byte, drop byte) []byte {
			out := b[:0:0]
			for _, c := range b {
				if c != 0 && c != drop {
					out = append(out, c)
				}
			}
			return out
		}
		e.Cmd = clean(e.Cmd, 0)
		if IsFragment(e.Cmd) {
			e.Cmd = e.Cmd[:len(e.Cmd)-1]
		}
		e.IRQ = clean(e.IRQ, ';')
		if len(e.IRQ) == 0 {
			e.IRQ = []byte("LOC")
		}
		bufLen := 100 + int(e.BufLen)%2000
		var want []Dataset
		var texts [][]byte
		for i := range int(e.Datasets%20) + 1 {
			var ds []byte
			pid := e.PID + int32(i)
			switch k {
			case KindNEW:
				ds = AppendNew(nil, pid, e.PPID, e.Cmd)
			case KindCHK:
				ds = AppendCheck(nil, pid, e.Cmd)
			case KindSTP:
				ds = AppendStop(nil, pid)
			case KindACT:
				ds = AppendAct(nil, pid, e.CPU, e.RSS, e.Ctx, e.IO, e.IOWait)
			case KindIRQ:
				ds = AppendIRQ(nil, e.IRQ, e.Counts)
			}
			d, err := ParseDataset(k, ds)
			if err != nil {
				t.Fatalf("%v %q: %v", k, ds, err)
			}
			want = append(want, d)
			texts = append(texts, ds)
		}
		payloads, err := EncodeGroup(k, texts, bufLen)
		if err != nil {
			for _, ds := range texts {
				if !FitsMessage(len(ds), bufLen) {
					return
				}
			}
			t.Fatalf("EncodeGroup: %v", err)
		}
		var got []Dataset
		for i, p := range payloads {
			if len(p) > bufLen {
				t.Fatalf("payload %d: %d bytes > buffer %d", i, len(p), bufLen)
			}
			m, err := Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			if (i == 0) != (m.Sync == SyncBegin) || (i == len(payloads)-1) != (m.Sync == SyncEnd) {
				t.Fatalf("payload %d: sync %v", i, m.Sync)
			}
			for d, err := range m.All() {
				if err != nil {
					t.Fatal(err)
				}
				if !d.Truncated {
					got = append(got, d)
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d datasets back, want %d", len(got), len(want))
		}
		for i := range got {
			if !sameFields(got[i], want[i]) {
				t.Fatalf("dataset %d: %q, want %q", i, got[i].Raw, want[i].Raw)
			}
		}
		if k == KindIRQ {
			c := got[0].AppendCounts(nil)
			for i, n := range e.Counts {
				if c[i].CPU != i || c[i].Count != n {
					t.Fatalf("IRQ counts %+v, want %v", c, e.Counts)
				}
			}
		}
	})
}

// slowDataset decodes a dataset with the exact readers only (the slow
// paths), the reference for the fast paths of ParseDataset.
func slowDataset(k Kind, arg []byte) (Dataset, error) {
	d := Dataset{Kind: k, Raw: arg}
	if IsFragment(arg) {
		d.Truncated = true
		return d, nil
	}
	switch k {
	case KindACT:
		return d, d.parseACTSlow(arg)
	case KindNEW, KindCHK, KindSTP:
		return d, d.parseProcessSlow(k, arg)
	case KindIRQ:
		name := bytes.IndexByte(arg, ';')
		if name <= 0 {
			return d, newError("IRQ.name", 0, ErrSyntax)
		}
		d.IRQ = arg[:name:name]
		for off := name + 1; off < len(arg); d.CPUs++ {
			var err error
			if _, _, off, err = irqEntry(arg, off); err != nil {
				d.CPUs = 0
				return d, newError("IRQ.count", off, err)
			}
		}
		return d, nil
	}
	return d, newError("identifier", 0, ErrType)
}

// sameError reports whether two dataset errors are the same: both nil, or
// the same kind, field and offset.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	pa, oka := errors.AsType[*ParseError](a)
	pb, okb := errors.AsType[*ParseError](b)
	return oka && okb && pa.Err == pb.Err && pa.Field == pb.Field && pa.Offset == pb.Offset
}

// FuzzParseDataset checks the fast paths of every kind against the slow,
// exact readers: same fields, same error kind, field and offset.
func FuzzParseDataset(f *testing.F) {
	for _, name := range captures {
		for _, cm := range readCapture(f, name) {
			if !cm.isKPI() {
				continue
			}
			m, err := Parse(cm.payload)
			if err != nil {
				continue
			}
			for d := range m.All() {
				f.Add(uint8(m.Kind), d.Raw)
			}
		}
	}
	for _, s := range []string{"1;2;3;4;5;6;", "1;-2;3;4;5;6", "1;2;3;4;18446744073709551616;6", "24;cpu0:-9223372036854775809;",
		"24;cpu0:9223372036854775808;", "24;cpu1234567890:1;", "1;2;", "-1;-2;x", "0000000001;2;c"} {
		for _, k := range Kinds {
			f.Add(uint8(k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, arg []byte) {
		arg = arg[:len(arg):len(arg)]
		kind := Kind(k % uint8(NumKinds))
		got, gerr := ParseDataset(kind, arg)
		want, werr := slowDataset(kind, arg)
		if !sameError(gerr, werr) {
			t.Fatalf("%v %q: error %v, slow path %v", kind, arg, gerr, werr)
		}
		if !sameFields(got, want) || !bytes.Equal(got.Raw, want.Raw) {
			t.Fatalf("%v %q: %+v, slow path %+v", kind, arg, got, want)
		}
	})
}
