package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// FuzzCalls feeds arbitrary bytes to every call: none may panic, every
// result must marshal, and a failed result must say why. Seeds are the
// real captures of ../testdata, cut short to keep runs fast.
func FuzzCalls(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := NewKPISession(in)
		for i := 0; ; i++ {
			st := s.Step(7)
			check(t, &st)
			if st.Done {
				break
			}
			if i > len(in) {
				t.Fatal("session never ends")
			}
		}
		tb := s.Table()
		for _, framing := range []dlt.Framing{dlt.FramingStorage, dlt.FramingSerial, dlt.FramingBare} {
			st := NewKPIStream(framing)
			a := st.Feed(in[:len(in)/2])
			b := st.Feed(in[len(in)/2:])
			c := st.End()
			sb := st.Table()
			for _, m := range []msgp.Marshaler{&a, &b, &c, &sb} {
				check(t, m)
			}
			if !c.Done || c.Offset != len(in) && framing != dlt.FramingBare {
				t.Fatalf("stream end %+v over %d bytes", c, len(in))
			}
		}
		ev := DecodeEvents(in)
		lc := canonLabelsRef(in)
		lm := mergeLabelsRef(in)
		pd := DecodePDUs(in, 0)
		ml := ReadMMV(in, false)
		mb := ReadMMV(in, true)
		km := decodeKPIRef(in, 0, dlt.FramingStorage)
		for _, m := range []msgp.Marshaler{&tb, &ev, &lc, &lm, &pd, &ml, &mb, &km} {
			check(t, m)
		}
		// dlt_decode's and kpi_decode's in-place writers give DecodeDLT's
		// and decodeKPIRef's bytes.
		if r := DecodeDLT(in); !bytes.Equal(AppendDLTDecode(nil, in), marshalled(&r)) {
			t.Errorf("AppendDLTDecode differs from DecodeDLT")
		}
		if b, _ := km.MarshalMsg(nil); !bytes.Equal(AppendKPIMessages(nil, in, 0, dlt.FramingStorage), b) {
			t.Errorf("AppendKPIMessages differs from decodeKPIRef")
		}
		for _, e := range []*schema.Error{ev.Error, lc.Error, lm.Error, pd.Error, ml.Error, mb.Error} {
			if e != nil && (e.Kind == "" || e.Message == "") {
				t.Errorf("error without kind or message: %+v", *e)
			}
		}
	})
}

func marshalled(m msgp.Marshaler) []byte {
	b, _ := m.MarshalMsg(nil)
	return b
}

func check(t *testing.T, m msgp.Marshaler) {
	t.Helper()
	b, err := m.MarshalMsg(nil)
	if err != nil || len(b) == 0 {
		t.Fatalf("marshal: %v", err)
	}
	if _, err := msgp.Skip(b); err != nil {
		t.Fatalf("result is not one MessagePack object: %v", err)
	}
}
