package mmv_test

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"sigs.k8s.io/randfill"
)

// canon describes a file's metadata and values in an order-independent
// text, for comparing two files with the same contents.
func canon(r *mmv.File) string {
	var lines []string
	for m := range r.Metrics() {
		if m.Singular() {
			m.Indom = 0 // 0 and 0xffffffff both mean "no indom"
		}
		lines = append(lines, "M "+string(m.Name)+" "+strconv.Itoa(int(m.Item))+" "+m.Type.String()+" "+
			strconv.Itoa(int(m.Sem))+" "+strconv.FormatUint(uint64(m.Units), 16)+" "+strconv.FormatUint(uint64(m.Indom), 10)+
			" "+string(m.ShortText)+"|"+string(m.HelpText))
	}
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		s := "I " + strconv.FormatUint(uint64(d.Serial), 10) + " " + string(d.ShortText) + "|" + string(d.HelpText)
		for in := range r.Instances(d) {
			s += " " + strconv.Itoa(int(in.ID)) + "=" + string(in.Name)
		}
		lines = append(lines, s)
	}
	for v := range r.Values() {
		s := "V " + string(r.Metric(v.Metric).Name)
		if v.Instance >= 0 {
			s += "[" + strconv.Itoa(int(r.Instance(v.Instance).ID)) + "]"
		}
		if v.Type == mmv.TypeString {
			s += " " + strconv.Quote(string(v.Text()))
		} else {
			s += " " + strconv.FormatUint(v.Raw(), 16)
		}
		if v.Type == mmv.TypeElapsed {
			// Only an open interval (extra < 0) means something; the
			// writer cannot store a bad positive extra.
			s += " " + strconv.FormatInt(min(v.Extra(), 0), 10)
		}
		lines = append(lines, s)
	}
	for l := range r.Labels() {
		if l.Flags.Level() != mmv.LabelInstances {
			l.Internal = -1 // unused, and the writer stores -1
		}
		lines = append(lines, "L "+strconv.FormatUint(uint64(l.Flags), 16)+" "+strconv.FormatUint(uint64(l.Identity), 10)+
			" "+strconv.Itoa(int(l.Internal))+" "+string(l.Payload))
	}
	slices.Sort(lines)
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}

// oneValueEach reports whether the file has exactly one value per
// singular metric and per instance of each metric's indom, with unique
// metric and instance names, and no text the writer refuses: the only
// shape the writer produces. (Readers take a STRING of 255 bytes, the
// slot's whole room; the writer, like libpcp_mmv, stores at most 254.)
func oneValueEach(r *mmv.File) bool {
	want := 0
	names := map[string]bool{}
	for m := range r.Metrics() {
		if names[string(m.Name)] {
			return false // the writer's lookups go by name
		}
		names[string(m.Name)] = true
		want++
		if d, ok := r.IndomOf(m); ok {
			want += d.Count - 1
		}
	}
	seen := map[string]bool{}
	for v := range r.Values() {
		if len(v.Text()) >= mmv.StringSize-1 {
			return false
		}
		k := strconv.Itoa(v.Metric)
		if v.Instance >= 0 {
			k += "/" + string(r.Instance(v.Instance).Name)
		}
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return len(seen) == want
}

// FuzzReader mutates real files: the reader must never panic, and a file
// it accepts must dump, re-encode through the writer when the writer
// can express it, and read back the same.
func FuzzReader(f *testing.F) {
	for _, name := range realFiles(f) {
		f.Add(readFile(f, name))
	}
	f.Fuzz(checkReader)
}

// checkReader is FuzzReader's body.
func checkReader(t *testing.T, b []byte) {
	if r, err := mmv.Parse(b, mmv.Options{Order: binary.BigEndian, RepeatedItems: true}); err == nil {
		_ = mmv.AppendDump(nil, &r, "fuzz", 0)
		_, _ = mmv.Assign([]mmv.Source{{Name: "f", File: &r}})
	}
	{
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			if _, ok := errorsAsParse(err); !ok {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		_ = mmv.AppendDump(nil, &r, "fuzz", 0)
		for v := range r.Values() {
			_, _, _, _ = v.Int(), v.Float(), v.Text(), v.Missing()
		}
		if !oneValueEach(&r) {
			return // the writer lays out one value per metric and instance
		}
		want := canon(&r)
		reg := r.Registry()
		p, err := reg.Plan()
		if err != nil {
			return
		}
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			out := p.AppendFile(nil, order)
			if err := p.CopyValues(out, order, &r); err != nil {
				t.Fatal(err)
			}
			r2, err := mmv.Parse(out, mmv.Options{Order: order})
			if err != nil {
				t.Fatalf("re-encoded file rejected: %v", err)
			}
			if got := canon(&r2); got != want {
				t.Fatalf("round trip differs:\nwant %s\ngot  %s", want, got)
			}
		}
	}
}

func errorsAsParse(err error) (*mmv.ParseError, bool) {
	pe, ok := err.(*mmv.ParseError)
	return pe, ok
}

// fuzzFile is what randfill fills for the writer round trip.
type fuzzFile struct {
	Big     bool
	Version uint8
	Flags   uint8
	Cluster uint16
	Gen     uint64
	Indoms  []struct {
		Serial    uint16
		Short     string
		Instances []struct {
			ID   int32
			Name string
		}
	}
	Metrics []struct {
		Name  string
		Type  uint8
		Sem   uint8
		Units uint32
		Indom uint8
		Short string
		Help  string
		Value uint64
		Text  string
	}
	Labels []struct {
		Level    uint8
		Optional bool
		Identity uint16
		Internal int32
		Name     string
		Value    int64
	}
}

// clean keeps the letters, digits and '_' of s, at most max bytes, after
// a leading letter.
func clean(lead, s string, max int) string {
	b := []byte(lead)
	for i := 0; i < len(s) && len(b) < max; i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b = append(b, c)
		}
	}
	return string(b)
}

var fuzzTypes = []mmv.Type{mmv.TypeI32, mmv.TypeU32, mmv.TypeI64, mmv.TypeU64, mmv.TypeFloat, mmv.TypeDouble, mmv.TypeString, mmv.TypeElapsed}
var fuzzSems = []pcp.Sem{pcp.SemCounter, pcp.SemInstant, pcp.SemDiscrete}
var fuzzLevels = []mmv.LabelFlags{mmv.LabelCluster, mmv.LabelInDom, mmv.LabelItem, mmv.LabelInstances}

// FuzzWriterRoundTrip fills a random registry with randfill, writes it
// in a random byte order, sets every value through slots, and checks
// the reader returns exactly what was defined and stored.
func FuzzWriterRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add(bytes.Repeat([]byte{0x5a, 0x01, 0xff, 0x10}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ff fuzzFile
		randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 6).Fill(&ff)
		reg := &mmv.Registry{Flags: mmv.Flags(ff.Flags & 7), Cluster: uint32(ff.Cluster) & 0xfff, Gen: ff.Gen | 1}
		if ff.Version%4 != 0 {
			reg.Version = 3 // any explicit version must at least fit; 3 always does
		}
		for i, d := range ff.Indoms {
			def := mmv.IndomDef{Serial: uint32(i + 1 + int(d.Serial)%100*8), ShortText: clean("", d.Short, 255)}
			for k, in := range d.Instances {
				def.Instances = append(def.Instances, mmv.InstanceDef{ID: in.ID&^0xff | int32(k), Name: clean("i"+strconv.Itoa(k), in.Name, 255)})
			}
			reg.Indoms = append(reg.Indoms, def)
		}
		for i, m := range ff.Metrics {
			def := mmv.MetricDef{Name: clean("m"+strconv.Itoa(i), m.Name, 255), Item: uint32(i * 97 % 1024),
				Type: fuzzTypes[int(m.Type)%len(fuzzTypes)], Sem: fuzzSems[int(m.Sem)%len(fuzzSems)],
				Units: pcp.Units(m.Units &^ 0xff), ShortText: clean("", m.Short, 255), HelpText: clean("", m.Help, 255)}
			if len(reg.Indoms) > 0 && m.Indom%2 == 1 {
				def.Indom = reg.Indoms[int(m.Indom/2)%len(reg.Indoms)].Serial
			}
			reg.Metrics = append(reg.Metrics, def)
		}
		for _, l := range ff.Labels {
			flags := fuzzLevels[int(l.Level)%len(fuzzLevels)]
			if l.Optional {
				flags |= mmv.LabelOptional
			}
			reg.Labels = append(reg.Labels, mmv.LabelDef{Flags: flags, Identity: uint32(l.Identity), Internal: l.Internal,
				Name: clean("l", l.Name, 40), Value: strconv.FormatInt(l.Value, 10)})
		}
		p, err := reg.Plan()
		if err != nil {
			t.Fatalf("sanitised registry rejected: %v", err)
		}
		var order binary.ByteOrder = binary.LittleEndian
		if ff.Big {
			order = binary.BigEndian
		}
		b := p.AppendFile(nil, order)
		if len(b) != p.Size() {
			t.Fatalf("size %d, plan says %d", len(b), p.Size())
		}
		for i, m := range reg.Metrics {
			n := 1
			if m.Indom != 0 {
				for _, d := range reg.Indoms {
					if d.Serial == m.Indom {
						n = len(d.Instances)
					}
				}
			}
			for k := range n {
				s, err := p.Slot(b, order, i, k)
				if err != nil {
					t.Fatal(err)
				}
				v := ff.Metrics[i].Value + uint64(k)
				switch m.Type {
				case mmv.TypeString:
					if err := s.SetString(clean("", ff.Metrics[i].Text, 254)); err != nil {
						t.Fatal(err)
					}
				case mmv.TypeFloat, mmv.TypeDouble:
					s.SetFloat(float64(int32(v)))
				default:
					s.SetUint(v)
				}
			}
		}
		r, err := mmv.Parse(b, mmv.Options{Order: order})
		if err != nil {
			t.Fatalf("our own file rejected: %v", err)
		}
		if got, want := r.Header().Version, p.Version(); got != want {
			t.Fatalf("version %d, want %d", got, want)
		}
		if r.NumMetrics() != len(reg.Metrics) || r.NumIndoms() != len(reg.Indoms) || r.NumLabels() != len(reg.Labels) {
			t.Fatalf("counts differ")
		}
		back := r.Registry()
		back.Version, reg.Version = 0, 0
		if got, want := dumpRegistry(back), dumpRegistry(reg); got != want {
			t.Fatalf("registry round trip:\nwant %s\ngot  %s", want, got)
		}
		for v := range r.Values() {
			m := reg.Metrics[v.Metric]
			k := 0
			if v.Instance >= 0 {
				k = v.Instance - r.Indom(r.Instance(v.Instance).Indom).First
			}
			want := ff.Metrics[v.Metric].Value + uint64(k)
			switch m.Type {
			case mmv.TypeString:
				if got := string(v.Text()); got != clean("", ff.Metrics[v.Metric].Text, 254) {
					t.Fatalf("%s = %q", m.Name, got)
				}
			case mmv.TypeFloat, mmv.TypeDouble:
				f := float64(int32(want))
				if m.Type == mmv.TypeFloat {
					f = float64(float32(f))
				}
				if got := v.Float(); got != f {
					t.Fatalf("%s = %v, want %v", m.Name, got, f)
				}
			case mmv.TypeI32, mmv.TypeU32:
				if got := uint32(v.Uint()); got != uint32(want) {
					t.Fatalf("%s = %d, want %d", m.Name, got, uint32(want))
				}
			default:
				if got := v.Uint(); got != want {
					t.Fatalf("%s = %d, want %d", m.Name, got, want)
				}
			}
		}
	})
}

// dumpRegistry prints a registry for comparison.
func dumpRegistry(reg *mmv.Registry) string {
	s := strconv.Itoa(int(reg.Flags)) + " " + strconv.Itoa(int(reg.Cluster)) + " " + strconv.FormatUint(reg.Gen, 10) + "\n"
	for _, d := range reg.Indoms {
		s += "indom " + strconv.Itoa(int(d.Serial)) + " " + d.ShortText + "|" + d.HelpText
		for _, in := range d.Instances {
			s += " " + strconv.Itoa(int(in.ID)) + "=" + in.Name
		}
		s += "\n"
	}
	for _, m := range reg.Metrics {
		s += "metric " + m.Name + " " + strconv.Itoa(int(m.Item)) + " " + m.Type.String() + " " + strconv.Itoa(int(m.Sem)) +
			" " + strconv.Itoa(int(m.Units)) + " " + strconv.Itoa(int(m.Indom)) + " " + m.ShortText + "|" + m.HelpText + "\n"
	}
	for _, l := range reg.Labels {
		internal := l.Internal
		if l.Flags.Level() != mmv.LabelInstances {
			internal = -1
		}
		s += "label " + strconv.Itoa(int(l.Flags)) + " " + strconv.Itoa(int(l.Identity)) + " " + strconv.Itoa(int(internal)) +
			" " + l.Name + "=" + l.Value + "\n"
	}
	return s
}
