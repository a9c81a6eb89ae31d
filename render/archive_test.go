package render

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// extractValue is archiveValueOfRef through pcp.Extract, whose conversions
// are held to libpcp's pmExtractValue by pcp's oracle tests.
func extractValue(o *schema.ArchiveValue, v pduwire.Value, t pcp.Type) {
	a, err := pcp.Extract(v.Raw(), t, t)
	var b []byte
	switch {
	case err != nil:
	case t == pcp.Type32:
		b = msgp.AppendInt32(nil, a.Int32())
	case t == pcp.TypeU32:
		b = msgp.AppendUint32(nil, a.Uint32())
	case t == pcp.Type64:
		b = msgp.AppendInt64(nil, a.Int64())
	case t == pcp.TypeU64:
		b = msgp.AppendUint64(nil, a.Uint64())
	case t == pcp.TypeFloat && !math.IsNaN(float64(a.Float32())) && !math.IsInf(float64(a.Float32()), 0):
		b = msgp.AppendFloat32(nil, a.Float32())
	case t == pcp.TypeFloat:
		b = AppendFloat(nil, float64(a.Float32()))
	case t == pcp.TypeDouble:
		b = AppendFloat(nil, a.Float64())
	case t == pcp.TypeString:
		b = msgp.AppendString(nil, string(a.Bytes()))
	}
	if b != nil {
		o.Value = raw(b)
		return
	}
	h := hex.EncodeToString(v.Payload())
	if !v.Block() {
		h = hex32(v.Word)[2:]
	}
	o.Hex = &h
}

// TestArchiveValueOfIsExtract: appendNumber and valueHex, through
// archiveValueOfRef: every value of the bundled v2 and v3 archives
// (numbers of each type, strings, aggregates), read as each type in turn
// so that values stored the wrong way for a type are covered too, gives
// what pcp.Extract gives.
func TestArchiveValueOfIsExtract(t *testing.T) {
	n := 0
	for _, base := range []string{"m2", "m3"} {
		a, err := archive.OpenFS(os.DirFS("../archive/testdata"), base, archive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := a.NewScanner()
		for s.Next() {
			vss := s.Record().Result.Scan()
			for vss.Next() {
				vs := vss.ValueSet()
				for j := range vs.Len() {
					v := vs.Value(j)
					for _, typ := range []pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat,
						pcp.TypeDouble, pcp.TypeString, pcp.TypeAggregate} {
						var got, want schema.ArchiveValue
						archiveValueOfRef(&got, v, typ)
						extractValue(&want, v, typ)
						g, _ := got.MarshalMsg(nil)
						w, _ := want.MarshalMsg(nil)
						if !bytes.Equal(g, w) {
							t.Fatalf("%s %v as %v: %x, pcp.Extract gives %x", base, vs.PMID, typ, g, w)
						}
						n++
					}
				}
			}
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		a.Close()
	}
	if n < 5000 {
		t.Errorf("%d values compared", n)
	}
}

// An archive session's first batch lists the .meta's metrics as pmdumplog
// -a prints their descriptors (pmID, name, semantics, units)
// and their help text as pmdumplog -h prints it; later batches list none.
func TestArchiveSessionMetrics(t *testing.T) {
	dir := "../archive/testdata/"
	s := NewArchiveSession(m3Input(t))
	first, second := s.Next(1), s.Next(1)
	if len(first.Records) != 1 || len(second.Records) != 1 || len(second.Metrics) != 0 {
		t.Fatalf("batches of %d and %d records, the second listing %d metrics", len(first.Records), len(second.Records), len(second.Metrics))
	}
	dumpA, err := os.ReadFile(dir + "m3.pmdumplog-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	desc := regexp.MustCompile(`(?m)^PMID: (\S+) \((\S+)(?: or [^)]*)?\)\n    Data Type: .*\n    Semantics: (\S+)  Units: (.*)$`)
	for _, m := range desc.FindAllStringSubmatch(string(dumpA), -1) {
		want = append(want, strings.Join(m[1:], " | "))
	}
	var got []string
	for _, m := range first.Metrics {
		units := pcp.Units(m.PMUnits).String()
		if units == "" {
			units = "none"
		}
		got = append(got, strings.Join([]string{m.PMID, m.Name, m.Sem, units}, " | "))
	}
	// pmdumplog lists them in its hash table's order.
	slices.Sort(got)
	slices.Sort(want)
	if len(want) < 20 || !slices.Equal(got, want) {
		t.Errorf("metrics:\n%s\npmdumplog -a:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// pmdumplog -h: "PMID: ID [one-line]", then "PMID: ID" and the help
	// text up to the next "PMID:" or "InDom:" line.
	dumpH, err := os.ReadFile(dir + "m3.pmdumplog-h.txt")
	if err != nil {
		t.Fatal(err)
	}
	one, help := map[string]string{}, map[string]string{}
	var cur string
	var text []string
	flush := func() {
		if cur != "" {
			help[cur] = strings.Join(text, "\n")
		}
		cur, text = "", nil
	}
	for line := range strings.SplitSeq(strings.TrimSuffix(string(dumpH), "\n"), "\n") {
		if m := regexp.MustCompile(`^PMID: (\S+) \[(.*)\]$`).FindStringSubmatch(line); m != nil {
			flush()
			one[m[1]] = m[2]
			continue
		}
		if strings.HasPrefix(line, "PMID: ") || strings.HasPrefix(line, "InDom: ") {
			flush()
			if strings.HasPrefix(line, "PMID: ") {
				cur = strings.TrimPrefix(line, "PMID: ")
			}
			continue
		}
		if cur != "" {
			text = append(text, line)
		}
	}
	flush()
	with := 0
	for _, m := range first.Metrics {
		if m.OneLine != one[m.PMID] || m.Help != help[m.PMID] {
			t.Errorf("%s: help %q %q; pmdumplog -h %q %q", m.Name, m.OneLine, m.Help, one[m.PMID], help[m.PMID])
		}
		if m.OneLine != "" {
			with++
		}
	}
	if with < 15 {
		t.Errorf("%d metrics with help text", with)
	}
}

// The first batch's labels are every label set of m3's .meta, each an
// array [ns, type, ident, inst, json]: the sets, their objects and the
// times of their records are those pmdumplog -e printed for it.
func TestArchiveSessionLabels(t *testing.T) {
	dir := "../archive/testdata/"
	s := NewArchiveSession(m3Input(t))
	first, second := s.Next(1), s.Next(1)
	if len(second.Labels) != 0 {
		t.Errorf("the second batch lists %d label sets", len(second.Labels))
	}
	// The batch as a host reads it.
	enc, _ := first.MarshalMsg(nil)
	var read schema.ArchiveRead
	if _, err := read.UnmarshalMsg(enc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range read.Labels {
		b := []byte(r)
		n, b, err := msgp.ReadArrayHeaderBytes(b)
		if err != nil || n != 5 {
			t.Fatalf("label set %x: %d elements, %v", []byte(r), n, err)
		}
		ns, b, err1 := msgp.ReadInt64Bytes(b)
		typ, b, err2 := msgp.ReadUint32Bytes(b)
		ident, b, err3 := msgp.ReadUint32Bytes(b)
		inst, b, err4 := msgp.ReadInt32Bytes(b)
		js, b, err5 := msgp.ReadStringBytes(b)
		if err := errors.Join(err1, err2, err3, err4, err5); err != nil || len(b) != 0 {
			t.Fatalf("label set %x: %v, %d bytes left", []byte(r), err, len(b))
		}
		var who string
		switch typ {
		case pduwire.LabelContext:
			who = "Context"
		case pduwire.LabelDomain:
			who = "Domain " + strconv.Itoa(int(ident))
		case pduwire.LabelInDom:
			who = "InDom " + pcp.InDom(ident).String()
		case pduwire.LabelInstances:
			who = "InDom " + pcp.InDom(ident).String() + "[" + strconv.Itoa(int(inst)) + "]"
		case pduwire.LabelCluster:
			who = "Cluster " + pcp.ID(ident).String()[:strings.LastIndexByte(pcp.ID(ident).String(), '.')]
		case pduwire.LabelItem:
			who = "PMID " + pcp.ID(ident).String()
		}
		if typ != pduwire.LabelInstances && inst != -1 {
			t.Errorf("%s: inst %d", who, inst)
		}
		clock := time.Unix(0, ns).UTC().Format("15:04:05.000000000")
		got = append(got, clock+" "+who+" "+js)
	}
	dump, err := os.ReadFile(dir + "m3.pmdumplog-e.txt")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	clock := ""
	for _, l := range strings.Split(string(dump), "\n") {
		if regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{9}$`).MatchString(l) {
			clock = l
		} else if m := regexp.MustCompile(`^    (.*) labels \(\d+ bytes\): (.*)$`).FindStringSubmatch(l); m != nil {
			want = append(want, clock+" "+m[1]+" "+m[2])
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) < 20 || !slices.Equal(got, want) {
		t.Errorf("label sets\n%s\npmdumplog -e\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// m3Input is archive/testdata's m3 archive as a host passes it.
func m3Input(t *testing.T) schema.ArchiveInput {
	t.Helper()
	var in schema.ArchiveInput
	for _, f := range []string{"m3.meta", "m3.index", "m3.0", "m3.1", "m3.2"} {
		b, err := os.ReadFile("../archive/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		in.Names, in.Files = append(in.Names, f), append(in.Files, b)
	}
	return in
}

// AppendArchiveRecord, archive_next's in-place writer, gives the bytes of
// archiveRecordRef's marshalled record on every record of the bundled v2
// and v3 archives, and of copies of them with damaged volumes (values
// of unknown metrics and types, errors for values, marks).
func TestAppendArchiveRecord(t *testing.T) {
	dir := "../archive/testdata/"
	rng := rand.New(rand.NewPCG(18, 3))
	n := 0
	for _, base := range []string{"m2", "m3"} {
		meta, err := os.ReadFile(dir + base + ".meta")
		if err != nil {
			t.Fatal(err)
		}
		var vols [][]byte
		for i := 0; ; i++ {
			v, err := os.ReadFile(dir + base + "." + strconv.Itoa(i))
			if err != nil {
				break
			}
			vols = append(vols, v)
		}
		for try := range 300 {
			var files []archive.File
			for i, v := range vols {
				if try > 0 {
					// Damage: a few words of each volume past its label set at random.
					v = slices.Clone(v)
					for range 4 {
						o := 900 + rng.IntN(len(v)-904)&^3
						binary.BigEndian.PutUint32(v[o:], []uint32{0, 1, 0xffffffff, 0x80000000, rng.Uint32(), uint32(rng.IntN(64))}[rng.IntN(6)])
					}
				}
				files = append(files, archive.BytesFile(base+"."+strconv.Itoa(i), v))
			}
			a, err := archive.Open(archive.BytesFile(base+".meta", meta), nil, files, archive.Options{KeepOutOfOrder: true})
			if err != nil {
				t.Fatal(err)
			}
			s := a.NewScanner()
			for s.Next() {
				rec := archiveRecordRef(a, s.Record())
				want, _ := rec.MarshalMsg([]byte{0xc0})
				if got := AppendArchiveRecord([]byte{0xc0}, a, s.Record()); !bytes.Equal(got, want) {
					t.Fatalf("%s try %d record at %d: %x, want %x", base, try, s.Record().Offset, got, want)
				}
				n++
			}
		}
	}
	if n < 7000 {
		t.Errorf("%d records compared", n)
	}
	// What the damage does not give: a mark, value sets without values
	// (none, and an error code) of a counter metric and of an unknown
	// metric, and a value of a metric whose instance has no name.
	a, err := archive.OpenFS(os.DirFS(dir), "m3", archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var counter, indom pcp.ID
	for _, m := range a.Meta.Metrics {
		if m.Sem == pcp.SemCounter {
			counter = m.ID
		}
		if m.InDom != pcp.InDomNull && m.Type == pcp.Type32 {
			indom = m.ID
		}
	}
	errCode := int32(pcp.ErrPMID)
	errWord := uint32(errCode)
	body := make([]byte, 16)
	for _, w := range []uint32{uint32(counter), errWord, 0x7ffffffe, 0,
		uint32(counter), 0, uint32(indom), 1, 0, 999999, 7} {
		body = binary.BigEndian.AppendUint32(body, w)
	}
	res, err := pduwire.ParseResultBody(body, 16, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []archive.Record{{Time: archive.Timestamp{Sec: 1e9}, Mark: true}, {Time: archive.Timestamp{Sec: 2e9, Nsec: 5}, Result: res}} {
		rec := archiveRecordRef(a, &r)
		want, _ := rec.MarshalMsg(nil)
		if got := AppendArchiveRecord(nil, a, &r); !bytes.Equal(got, want) {
			t.Errorf("%+v: %x, want %x", r, got, want)
		}
	}
}

// refArchiveRead is an archive session's batches as ArchiveRead values,
// the way archive_next built them before it wrote them in place: the
// reference of TestArchiveSessionBytes.
type refArchiveRead struct {
	a           *archive.Archive
	s           *archive.Scanner
	err         error
	done, first bool
}

func newRefArchiveRead(in schema.ArchiveInput) *refArchiveRead {
	r := &refArchiveRead{first: true}
	if len(in.Names) != len(in.Files) {
		r.err = schema.ABIError(schema.ErrBadInput)
		return r
	}
	files := make([]archive.File, len(in.Names))
	for i := range files {
		files[i] = archive.BytesFile(in.Names[i], in.Files[i])
	}
	if r.a, r.err = archive.OpenFiles(files, archive.Options{}); r.err == nil {
		r.s = r.a.NewScanner()
	}
	return r
}

func (r *refArchiveRead) next(max int) schema.ArchiveRead {
	res := schema.ArchiveRead{Records: []schema.Raw{}}
	if r.first && r.a != nil {
		r.first = false
		for _, m := range r.a.Meta.Metrics {
			o := schema.ArchiveMetric{PMID: m.ID.String(), Type: TypeName(m.Type), InDom: m.InDom.String(), Sem: semName(m.Sem), PMUnits: uint32(m.Units)}
			o.Name = o.PMID
			if len(m.Names) > 0 {
				o.Name = m.Names[0]
			}
			o.OneLine, _ = r.a.Meta.Text(archive.TextPMID|archive.TextOneLine, uint32(m.ID))
			o.Help, _ = r.a.Meta.Text(archive.TextPMID|archive.TextHelp, uint32(m.ID))
			res.Metrics = append(res.Metrics, o)
		}
		res.Labels = []schema.Raw{}
		for _, l := range r.a.Meta.Labels {
			for _, s := range l.Sets {
				b := msgp.AppendArrayHeader(nil, 5)
				b = append(b, 0xd3)
				b = binary.BigEndian.AppendUint64(b, uint64(l.Time.Sec*1e9+int64(l.Time.Nsec)))
				b = append(b, 0xce)
				b = binary.BigEndian.AppendUint32(b, l.Type)
				b = append(b, 0xce)
				b = binary.BigEndian.AppendUint32(b, l.Ident)
				b = append(b, 0xd2)
				b = binary.BigEndian.AppendUint32(b, uint32(s.Inst))
				b = append(b, 0xdb)
				b = binary.BigEndian.AppendUint32(b, uint32(len(s.JSON)))
				res.Labels = append(res.Labels, append(b, s.JSON...))
			}
		}
	}
	size := 0
	for !r.done && r.err == nil && len(res.Records) < max && size < ArchiveBatchBytes {
		if !r.s.Next() {
			r.done, r.err = true, r.s.Err()
			break
		}
		rec := archiveRecordRef(r.a, r.s.Record())
		b, _ := rec.MarshalMsg(nil)
		res.Records = append(res.Records, b)
		size += len(b)
	}
	if r.s != nil {
		res.Skipped = r.s.Skipped()
	}
	res.Done, res.Error = r.done || r.err != nil, schema.ErrorOf(r.err)
	return res
}

// archive_next's batches, written in place, are the bytes of the
// ArchiveRead values the session built before: of m3 whole in batches
// of 1, 7 and all records; with a volume damaged partway; without its
// .meta; with a name too few; and past the end.
func TestArchiveSessionBytes(t *testing.T) {
	whole := m3Input(t)
	damaged := m3Input(t)
	damaged.Files[2] = slices.Clone(damaged.Files[2])
	off := 808 // the fourth record's length: too large
	for range 3 {
		off += int(binary.BigEndian.Uint32(damaged.Files[2][off:]))
	}
	binary.BigEndian.PutUint32(damaged.Files[2][off:], 0x7fffffff)
	cut := schema.ArchiveInput{Names: whole.Names[1:], Files: whole.Files[1:]}
	short := schema.ArchiveInput{Names: whole.Names[1:], Files: whole.Files}
	for _, tc := range []struct {
		name string
		in   schema.ArchiveInput
		max  int
	}{{"whole", whole, 1}, {"whole", whole, 7}, {"whole", whole, 0}, {"damaged", damaged, 5},
		{"no meta", cut, 3}, {"names", short, 3}} {
		s, ref := NewArchiveSession(tc.in), newRefArchiveRead(tc.in)
		for batch := 0; ; batch++ {
			max := tc.max
			if max <= 0 {
				max = ArchiveBatch
			}
			want := ref.next(max)
			w, _ := want.MarshalMsg([]byte{0xc0})
			got := s.AppendNext([]byte{0xc0}, tc.max)
			if !bytes.Equal(got, w) {
				t.Fatalf("%s, %d at a time, batch %d:\n%x\nwant\n%x", tc.name, tc.max, batch, got, w)
			}
			if want.Done && batch > 0 && len(want.Records) == 0 {
				// A batch past the end compared too; only the whole
				// archive ends without an error.
				if (want.Error == nil) != (tc.name == "whole") {
					t.Errorf("%s: ends with error %v", tc.name, want.Error)
				}
				break
			}
			if batch > 10000 {
				t.Fatal("no end")
			}
		}
	}
}

// Next is AppendNext's batch, decoded: the tests' view of a batch.
func (s *ArchiveSession) Next(max int) schema.ArchiveRead {
	var r schema.ArchiveRead
	if _, err := r.UnmarshalMsg(s.AppendNext(nil, max)); err != nil {
		panic(err) // AppendNext wrote it
	}
	if r.Records == nil {
		r.Records = []schema.Raw{}
	}
	return r
}
