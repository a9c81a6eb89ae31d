package mmv_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// TestWriterMatchesMmvdump writes the sample registry in each version and
// checks the file against the text the real mmvdump printed for it.
func TestWriterMatchesMmvdump(t *testing.T) {
	for _, v := range []int32{1, 2, 3} {
		p, err := sampleRegistry(v, v > 1).Plan()
		if err != nil {
			t.Fatal(err)
		}
		if p.Version() != v {
			t.Errorf("version %d, want %d", p.Version(), v)
		}
		b := p.AppendFile(nil, binary.LittleEndian)
		fillSample(p, b)
		r, err := mmv.Parse(b, mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		name := "sample" + itoa(int(v)) + ".mmv"
		want := string(readFile(t, "testdata/lab/sample"+itoa(int(v))+".mmvdump.txt"))
		if got := string(mmv.AppendDump(nil, &r, name, 0)); got != want {
			t.Errorf("v%d: %s", v, diff(want, got))
		}
	}
}

// TestWriterSimpleLayout checks libpcp_mmv's mmv_simple example (docs/pcp-mmv.md
// §8): a 208-byte v1 file, item at byte 136, value at 176.
func TestWriterSimpleLayout(t *testing.T) {
	reg := &mmv.Registry{Cluster: 123, Gen: 1, Metrics: []mmv.MetricDef{{Name: "simple.counter", Item: 1,
		Type: mmv.TypeU32, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0)}}}
	p, err := reg.Plan()
	if err != nil {
		t.Fatal(err)
	}
	b := p.AppendFile(nil, binary.LittleEndian)
	s, _ := p.Slot(b, binary.LittleEndian, 0, 0)
	s.SetUint(42)
	if len(b) != 208 {
		t.Fatalf("size %d, want 208", len(b))
	}
	le := binary.LittleEndian
	for _, c := range []struct {
		off  int
		want uint64
		size int
	}{
		{4, 1, 4}, {24, 2, 4}, {36, 0x7b, 4},
		{40, 3, 4}, {44, 1, 4}, {48, 72, 8}, {56, 4, 4}, {60, 1, 4}, {64, 176, 8},
		{136, 1, 4}, {140, 1, 4}, {144, 1, 4}, {148, 0x00100000, 4}, {152, 0, 4},
		{176, 42, 8}, {184, 0, 8}, {192, 72, 8}, {200, 0, 8},
	} {
		got := uint64(le.Uint32(b[c.off:]))
		if c.size == 8 {
			got = le.Uint64(b[c.off:])
		}
		if got != c.want {
			t.Errorf("byte %d: %#x, want %#x", c.off, got, c.want)
		}
	}
}

// TestWriterSizeFormula checks the spec's file size formula (docs/pcp-mmv.md §8).
func TestWriterSizeFormula(t *testing.T) {
	for _, v := range []int32{1, 2, 3} {
		reg := sampleRegistry(v, v > 1)
		p, err := reg.Plan()
		if err != nil {
			t.Fatal(err)
		}
		isz, msz := 80, 104
		if v > 1 {
			isz, msz = 24, 48
		}
		r, err := mmv.Parse(p.AppendFile(nil, nil), mmv.Options{})
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header()
		want := 40 + 16*int(h.TOCs) + 32*r.NumIndoms() + isz*r.NumInstances() + msz*r.NumMetrics() +
			32*r.NumValues() + 256*r.NumStrings() + 256*r.NumLabels()
		if p.Size() != want {
			t.Errorf("v%d: size %d, formula %d", v, p.Size(), want)
		}
	}
}

// TestRegistryErrors checks every registry the writer must refuse.
func TestRegistryErrors(t *testing.T) {
	long := strings.Repeat("x", 256)
	cases := []struct {
		name string
		edit func(r *mmv.Registry)
		kind error
	}{
		{"zero generation", func(r *mmv.Registry) { r.Gen = 0 }, mmv.ErrGeneration},
		{"cluster 4096", func(r *mmv.Registry) { r.Cluster = 4096 }, mmv.ErrRange},
		{"serial 0", func(r *mmv.Registry) { r.Indoms[0].Serial = 0 }, mmv.ErrField},
		{"serial 0xffffffff", func(r *mmv.Registry) { r.Indoms[0].Serial = 0xffffffff }, mmv.ErrField},
		{"duplicate serial", func(r *mmv.Registry) { r.Indoms = append(r.Indoms, r.Indoms[0]) }, mmv.ErrInDom},
		{"unknown indom", func(r *mmv.Registry) { r.Metrics[0].Indom = 99 }, mmv.ErrInDom},
		{"empty instance name", func(r *mmv.Registry) { r.Indoms[0].Instances[0].Name = "" }, mmv.ErrName},
		{"long instance name", func(r *mmv.Registry) { r.Indoms[0].Instances[0].Name = long }, mmv.ErrTooLong},
		{"duplicate instance id", func(r *mmv.Registry) { r.Indoms[0].Instances[1].ID = 1 }, mmv.ErrInstance},
		{"duplicate instance name", func(r *mmv.Registry) { r.Indoms[0].Instances[1].Name = "red" }, mmv.ErrInstance},
		{"empty metric name", func(r *mmv.Registry) { r.Metrics[0].Name = "" }, mmv.ErrName},
		{"metric name with dash", func(r *mmv.Registry) { r.Metrics[0].Name = "a-b" }, mmv.ErrName},
		{"metric name starting with digit", func(r *mmv.Registry) { r.Metrics[0].Name = "1a" }, mmv.ErrName},
		{"long metric name", func(r *mmv.Registry) { r.Metrics[0].Name = long }, mmv.ErrTooLong},
		{"item 1024", func(r *mmv.Registry) { r.Metrics[0].Item = 1024 }, mmv.ErrRange},
		{"repeated item", func(r *mmv.Registry) { r.Metrics[1].Item = r.Metrics[0].Item }, mmv.ErrItem},
		{"type 7", func(r *mmv.Registry) { r.Metrics[0].Type = 7 }, mmv.ErrType},
		{"type nosupport", func(r *mmv.Registry) { r.Metrics[0].Type = mmv.TypeNoSupport }, mmv.ErrType},
		{"semantics 0", func(r *mmv.Registry) { r.Metrics[0].Sem = 0 }, mmv.ErrField},
		{"long help", func(r *mmv.Registry) { r.Metrics[0].HelpText = long }, mmv.ErrTooLong},
		{"long indom help", func(r *mmv.Registry) { r.Indoms[0].ShortText = long }, mmv.ErrTooLong},
		{"v1 with long name", func(r *mmv.Registry) { r.Version = 1; r.Metrics[0].Name = strings.Repeat("n", 64) }, mmv.ErrVersion},
		{"v2 with labels", func(r *mmv.Registry) { r.Version = 2 }, mmv.ErrVersion},
		{"version 4", func(r *mmv.Registry) { r.Version = 4 }, mmv.ErrVersion},
		{"label level", func(r *mmv.Registry) { r.Labels[0].Flags = mmv.LabelCluster | mmv.LabelItem }, mmv.ErrLabel},
		{"label name", func(r *mmv.Registry) { r.Labels[0].Name = "_x" }, mmv.ErrLabel},
		{"label too long", func(r *mmv.Registry) { r.Labels[0].Value = `"` + strings.Repeat("v", 230) + `"` }, mmv.ErrTooLong},
	}
	// Label values that libpcp_mmv rejects (qa/1294) must be refused too.
	for _, v := range []string{`string2"`, `"string3`, `"stri"n"g4"`, `True`, `12.13.13`, `1,2,3]`, `[1,2,3`,
		`[1,2 3]`, `"a":1,"b":2}`, `{"a":1,"b":2`, `{a":1,"b":2}`, `{a:1,"b":2}`, `0x10`, `inf`} {
		cases = append(cases, struct {
			name string
			edit func(r *mmv.Registry)
			kind error
		}{"label value " + v, func(r *mmv.Registry) { r.Labels[0].Value = v }, mmv.ErrLabel})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := sampleRegistry(3, false)
			tc.edit(reg)
			_, err := reg.Plan()
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want %v", err, tc.kind)
			}
		})
	}
	// And the ones it accepts.
	for _, v := range []string{`"string1"`, `"stri"`, `2.0`, `2.2`, `1`, `-12`, `null`, `[1,2,3]`, `["123",12]`,
		`{"a":1,"b":2}`, `true`, `false`, `[ 1, 2 ]`} {
		reg := sampleRegistry(3, false)
		reg.Labels[0].Value = v
		if _, err := reg.Plan(); err != nil {
			t.Errorf("label value %s: %v", v, err)
		}
	}
}

// TestVersionChoice checks libpcp_mmv's rule: 1, 2 for long names, 3
// for labels.
func TestVersionChoice(t *testing.T) {
	for _, c := range []struct {
		long, labels bool
		want         int32
	}{{false, false, 1}, {true, false, 2}, {false, true, 3}, {true, true, 3}} {
		v := int32(1)
		if c.labels {
			v = 3
		}
		reg := sampleRegistry(v, c.long)
		reg.Version = 0
		if c.long {
			reg.Indoms[0].Instances[0].Name = strings.Repeat("i", 64) // an instance name alone also needs v2
			reg.Metrics = reg.Metrics[:len(reg.Metrics)-1]
		}
		p, err := reg.Plan()
		if err != nil {
			t.Fatal(err)
		}
		if p.Version() != c.want {
			t.Errorf("long=%v labels=%v: version %d, want %d", c.long, c.labels, p.Version(), c.want)
		}
	}
}

func TestRegistryLimits(t *testing.T) {
	reg := &mmv.Registry{Gen: 1}
	for i := range 1024 {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{Name: "m" + itoa(i), Item: uint32(i), Type: mmv.TypeU32, Sem: pcp.SemCounter})
	}
	if _, err := reg.Plan(); !errors.Is(err, mmv.ErrLimit) {
		t.Errorf("1024 metrics: %v", err)
	}
	reg.Metrics = reg.Metrics[:1023]
	p, err := reg.Plan()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mmv.Parse(p.AppendFile(nil, nil), mmv.Options{}); err != nil {
		t.Errorf("1023 metrics rejected by the reader: %v", err)
	}
	reg = sampleRegistry(3, false)
	for len(reg.Labels) <= 255 {
		reg.Labels = append(reg.Labels, reg.Labels[0])
	}
	if _, err := reg.Plan(); !errors.Is(err, mmv.ErrLimit) {
		t.Errorf("256 labels: %v", err)
	}
	for _, v := range []string{`"a\qb"`, `"\u12"`, `"\u12g4"`} {
		reg := sampleRegistry(3, false)
		reg.Labels[0].Value = v
		if _, err := reg.Plan(); !errors.Is(err, mmv.ErrLabel) {
			t.Errorf("label value %s: %v", v, err)
		}
	}
	reg = sampleRegistry(3, false)
	reg.Labels[0].Value = `"tab\there \u00e9 \"q\""`
	if _, err := reg.Plan(); err != nil {
		t.Errorf("escapes: %v", err)
	}
}
