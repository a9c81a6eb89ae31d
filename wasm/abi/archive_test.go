package abi

import (
	"bytes"
	"encoding/hex"
	"math"
	"os"
	"testing"

	"github.com/tinylib/msgp/msgp"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// extractValue is ArchiveValueOf through pcp.Extract, whose conversions
// are held to libpcp's pmExtractValue by pcp's oracle tests.
func extractValue(o *ArchiveValue, v pduwire.Value, t pcp.Type) {
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

// TestArchiveValueOfIsExtract: every value of the bundled v2 and v3
// archives (numbers of each type, strings, aggregates), read as each type
// in turn so that values stored the wrong way for a type are covered too,
// gives what pcp.Extract gives.
func TestArchiveValueOfIsExtract(t *testing.T) {
	n := 0
	for _, base := range []string{"m2", "m3"} {
		a, err := archive.OpenFS(os.DirFS("../../archive/testdata"), base, archive.Options{})
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
						var got, want ArchiveValue
						ArchiveValueOf(&got, v, typ)
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
