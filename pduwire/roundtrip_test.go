package pduwire_test

import (
	"bytes"
	"reflect"
	"testing"

	"sigs.k8s.io/randfill"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// normalize brings a randomly filled message into the domain its
// encoder documents (counts ≥ 1 where required, value sizes within
// limits, fields the wire does not carry zeroed), so that encode →
// decode must give it back exactly.
func normalize(m pduwire.Message) {
	switch m := m.(type) {
	case *pduwire.ErrorPDU:
		if !m.Extended {
			m.Datum = 0
		}
	case *pduwire.CredsPDU:
		if len(m.Creds) == 0 {
			m.Creds = []pduwire.Credential{pduwire.NewVersionCred(2, 0)}
		}
	case *pduwire.ProfilePDU:
		m.Ctx &= 0x7fffffff
	case *pduwire.FetchPDU:
		if len(m.PMIDs) == 0 {
			m.PMIDs = []pcp.ID{1}
		}
	case *pduwire.DescIDsPDU:
		if len(m.PMIDs) == 0 {
			m.PMIDs = []pcp.ID{1}
		}
	case *pduwire.PMNSIDsPDU:
		if len(m.PMIDs) == 0 {
			m.PMIDs = []pcp.ID{1}
		}
	case *pduwire.DescsPDU:
		if len(m.Descs) == 0 {
			m.Descs = []pduwire.Desc{{}}
		}
	case *pduwire.PMNSNamesPDU:
		if m.Status < 0 || len(m.Names) == 0 {
			m.Names, m.Statuses = nil, nil
		}
		m.Status = min(m.Status, 0)
		for i, n := range m.Names {
			if len(n) == 0 { // libpcp's room check assumes non-empty names
				m.Names[i] = []byte{'x'}
			}
		}
		if len(m.Statuses) != len(m.Names) {
			m.Statuses = nil
		}
	case *pduwire.AttrPDU:
		m.Value = m.Value[:min(len(m.Value), pduwire.MaxAttrValue)]
	case *pduwire.LabelPDU:
		for i := range m.Sets {
			s := &m.Sets[i]
			s.JSON = s.JSON[:min(len(s.JSON), pduwire.MaxJSONLen)]
			if s.NLabels < 0 {
				s.Labels, s.JSON = nil, nil // an error set carries neither
				continue
			}
			s.Labels = s.Labels[:min(len(s.Labels), pduwire.MaxLabels)]
			s.NLabels = int32(len(s.Labels))
			if s.NLabels == 0 {
				s.JSON = nil // a set without labels carries no JSON
			}
			for j := range s.Labels {
				l := &s.Labels[j]
				l.Name, l.NameLen = 0, uint8(min(int(l.NameLen), len(s.JSON)))
				l.Value, l.ValueLen = 0, uint16(min(int(l.ValueLen), len(s.JSON)))
			}
		}
	case *pduwire.LogControlPDU:
		if len(m.Metrics) == 0 {
			m.Metrics = []pduwire.LogMetric{{}}
		}
		for i := range m.Metrics {
			lm := &m.Metrics[i]
			if len(lm.Values) > 0 {
				lm.NumVal = int32(len(lm.Values))
			} else {
				lm.NumVal = min(lm.NumVal, 0)
			}
		}
	case *pduwire.LogStatusV2PDU:
		for _, t := range []*pduwire.LogTime{&m.Start, &m.Last, &m.Now} {
			t.Sec = int64(int32(t.Sec))
		}
	case *pduwire.LogStatusPDU:
		for i := range m.Strings {
			m.Strings[i] = m.Strings[i][:min(len(m.Strings[i]), pduwire.MaxLogString)]
		}
	case *pduwire.ResultPDU:
		if !m.HighRes {
			m.Sec = int64(int32(m.Sec))
			m.Nsec = int64(int32(m.Nsec/1000)) * 1000
		}
		for i := range m.Sets {
			vs := &m.Sets[i]
			if len(vs.Values) == 0 {
				vs.NumVal, vs.ValFmt = min(vs.NumVal, 0), 0
				continue
			}
			vs.NumVal, vs.ValFmt = int32(len(vs.Values)), vs.ValFmt%3
			for j := range vs.Values {
				v := &vs.Values[j]
				if vs.ValFmt == pduwire.ValInsitu {
					v.BlockType, v.Payload = 0, nil
					continue
				}
				v.Word = 0
				v.BlockType = pcp.Type(uint8(v.BlockType))
				switch v.BlockType {
				case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
					v.Payload = append(v.Payload, make([]byte, 8)...)[:8]
				case pcp.TypeFloat:
					v.Payload = append(v.Payload, make([]byte, 4)...)[:4]
				case pcp.TypeEvent, pcp.TypeHighResEvent:
					v.BlockType = pcp.TypeAggregate
				}
			}
		}
	}
}

// equalish is reflect.DeepEqual that treats nil and empty slices alike.
func equalish(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer:
		return equalish(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		for i := range a.Len() {
			if !equalish(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct, reflect.Array:
		n := a.Len
		if a.Kind() == reflect.Struct {
			n = a.NumField
		}
		for i := range n() {
			var x, y reflect.Value
			if a.Kind() == reflect.Struct {
				x, y = a.Field(i), b.Field(i)
			} else {
				x, y = a.Index(i), b.Index(i)
			}
			if !equalish(x, y) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

var roundTripTypes = []pduwire.Type{
	pduwire.TypeError, pduwire.TypeResult, pduwire.TypeHighResResult, pduwire.TypeProfile, pduwire.TypeFetch,
	pduwire.TypeHighResFetch, pduwire.TypeDescReq, pduwire.TypeDesc, pduwire.TypeDescIDs, pduwire.TypeDescs,
	pduwire.TypeInstanceReq, pduwire.TypeInstance, pduwire.TypeTextReq, pduwire.TypeText, pduwire.TypeCreds,
	pduwire.TypePMNSIDs, pduwire.TypePMNSNames, pduwire.TypePMNSChild, pduwire.TypePMNSTraverse, pduwire.TypeAttr,
	pduwire.TypeLabelReq, pduwire.TypeLabel, pduwire.TypeLogControl, pduwire.TypeLogStatusV2,
	pduwire.TypeLogRequest, pduwire.TypeLogStatus,
}

// FuzzRoundTrip fills a random message of every PDU type with randfill,
// encodes it, decodes the bytes and expects the same message back.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("seed"))
	f.Add(bytes.Repeat([]byte{0xa5, 0x01, 0x7f}, 64))
	f.Add(bytes.Repeat([]byte{3}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		fill := randfill.NewFromGoFuzz(data).NilChance(0).NumElements(0, 6)
		for _, typ := range roundTripTypes {
			in := pduwire.New(typ)
			fill.Fill(in)
			// Fill may flip the HighRes/Traverse selector: keep the type.
			switch m := in.(type) {
			case *pduwire.ResultPDU:
				m.HighRes = typ == pduwire.TypeHighResResult
			case *pduwire.FetchPDU:
				m.HighRes = typ == pduwire.TypeHighResFetch
			case *pduwire.PMNSChildPDU:
				m.Traverse = typ == pduwire.TypePMNSTraverse
			}
			normalize(in)
			enc := in.Append(nil, 42)
			out, err := pduwire.Decode(enc)
			if err != nil {
				t.Fatalf("%v: %v\n%+v\n% x", typ, err, in, enc)
			}
			if !equalish(reflect.ValueOf(in), reflect.ValueOf(out)) {
				t.Fatalf("%v: round trip differs\nin  %+v\nout %+v", typ, in, out)
			}
		}
	})
}
