package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/schema"
)

// checkAppendMMVServe holds mmv_serve's in-place writer to the
// reference's bytes (serveMMVImagesRef), after whatever dst holds, and
// through the module's call.
func checkAppendMMVServe(t *testing.T, name string, in *schema.MMVServeInput) {
	t.Helper()
	r := serveMMVImagesRef(in)
	want, _ := r.MarshalMsg([]byte("prefix"))
	if got := AppendMMVServe([]byte("prefix"), in); !bytes.Equal(got, want) {
		t.Errorf("%s (strict %v): AppendMMVServe\n%x\nreference\n%x", name, in.Strict, got, want)
		return
	}
}

// TestAppendMMVServe: every MMV file of the repository alone, all of them
// at once (clusters shared and assigned, names clashing), in both byte
// orders, strict or not, files damaged byte by byte among good ones, and
// a version 3 file with labels at every level, missing values and every
// type, served next to a file that repeats its names and cluster.
func TestAppendMMVServe(t *testing.T) {
	files, _ := filepath.Glob("../mmv/testdata/*/*")
	more, _ := filepath.Glob("testdata/*.mmv")
	var all []schema.MMVImage
	for _, f := range append(files, more...) {
		if filepath.Ext(f) == ".txt" || filepath.Ext(f) == ".md" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		all = append(all, schema.MMVImage{Path: f, Name: filepath.Base(f), Image: b})
	}
	if len(all) < 10 {
		t.Fatalf("%d MMV files", len(all))
	}
	serve := func(name string, files ...schema.MMVImage) {
		for _, strict := range []bool{false, true} {
			checkAppendMMVServe(t, name, &schema.MMVServeInput{Files: files, Strict: strict, Now: 1764000000000000})
		}
	}
	for _, f := range all {
		serve(f.Path, f)
		be := f
		be.BigEndian = true
		serve(f.Path+" big-endian", be)
		if len(f.Image) > 100000 {
			continue
		}
		for i := 0; i < len(f.Image); i += 11 {
			d := f
			d.Image = bytes.Clone(f.Image)
			d.Image[i] ^= 0x5a
			serve(f.Path+" damaged", all[0], d, all[1])
		}
	}
	serve("all", all...)
	checkAppendMMVServe(t, "validate only", &schema.MMVServeInput{Files: all, ValidateOnly: true})
	checkAppendMMVServe(t, "none", &schema.MMVServeInput{})

	reg := &mmv.Registry{Cluster: 7, Gen: 3, Flags: mmv.FlagSentinel, Process: 42,
		Indoms: []mmv.IndomDef{{Serial: 1, ShortText: "short", HelpText: "help text",
			Instances: []mmv.InstanceDef{{ID: 1, Name: "one"}, {ID: -5, Name: "minus five"}}}},
		Labels: []mmv.LabelDef{{Flags: mmv.LabelCluster, Identity: 7, Name: "a", Value: `"b"`},
			{Flags: mmv.LabelItem | mmv.LabelOptional, Identity: 2, Name: "i", Value: "2"},
			{Flags: mmv.LabelInDom, Identity: 1, Name: "d", Value: "[1,2]"},
			{Flags: mmv.LabelInDom, Identity: 0, Name: "s", Value: "{}"},
			{Flags: mmv.LabelInstances | mmv.LabelOptional, Identity: 1, Internal: -5, Name: "n", Value: "1.5"},
			{Flags: mmv.LabelInstances, Identity: 1, Internal: 1, Name: "o", Value: "null"}},
	}
	types := []mmv.Type{mmv.TypeI32, mmv.TypeU32, mmv.TypeI64, mmv.TypeU64, mmv.TypeFloat, mmv.TypeDouble, mmv.TypeString, mmv.TypeElapsed}
	for i, ty := range types {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{Name: "m.x" + string(rune('a'+i)), Item: uint32(i + 1), Type: ty,
			Sem: []pcp.Sem{pcp.SemCounter, pcp.SemInstant, pcp.SemDiscrete}[i%3], Units: pcp.NewUnits(1, -1, 0, pcp.SpaceKByte, pcp.TimeSec, 0), Indom: uint32(i % 2),
			ShortText: "s", HelpText: "h"})
	}
	p, err := reg.Plan()
	if err != nil {
		t.Fatal(err)
	}
	b := p.AppendFile(nil, nil)
	for m, ty := range types {
		for inst := range 2 {
			s, err := p.Slot(b, nil, m, inst)
			if err != nil {
				continue
			}
			switch {
			case ty == mmv.TypeElapsed:
				s.Start(1764000000000000 - 5)
			case inst == 1:
				s.Clear() // missing, with the sentinel flag
			default:
				s.Add(-3)
			}
		}
	}
	built := schema.MMVImage{Path: "dir/built", Name: "built", Image: b}
	serve("built", built, built, all[0])
}
