package abi

import (
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pduwire"
)

// DecodePDUs frames a PCP byte stream into PDUs (with pduwire's default
// client length limit) and decodes each body by its type. Error offsets
// count from the start of the stream.
func DecodePDUs(in []byte) PDUStream {
	res := PDUStream{PDUs: []PDU{}}
	for p, err := range pduwire.All(in, 0) {
		if err != nil {
			res.Error = errorOf(err)
			break
		}
		derr := decodeBody(p.Header.Type, p.Bytes)
		e := errorOf(derr)
		if e != nil && e.Offset >= 0 {
			e.Offset += p.Offset
		}
		res.PDUs = append(res.PDUs, PDU{
			Offset: p.Offset, Len: p.Header.Len, Type: int32(p.Header.Type),
			TypeName: p.Header.Type.String(), From: p.Header.From, Error: e,
		})
	}
	return res
}

// decodeBody decodes whole PDU b of type t as pduwire.Decode does, with
// the same errors, into a concrete message per type. pduwire.Decode goes
// through the pduwire.Message interface, and a value in an interface
// keeps every String method its fields' types have (fmt may call them):
// that alone linked about 40 KB of pcp's text formatting into each module
// (bench/RESULTS.md, wasm figure). TestDecodeBodyMatchesDecode keeps the
// two switches in step.
func decodeBody(t pduwire.Type, b []byte) error {
	switch t {
	case pduwire.TypeError:
		return new(pduwire.ErrorPDU).UnmarshalBinary(b)
	case pduwire.TypeResult:
		return new(pduwire.ResultData).UnmarshalBinary(b)
	case pduwire.TypeHighresResult:
		return (&pduwire.ResultData{Highres: true}).UnmarshalBinary(b)
	case pduwire.TypeProfile:
		return new(pduwire.Profile).UnmarshalBinary(b)
	case pduwire.TypeFetch:
		return new(pduwire.Fetch).UnmarshalBinary(b)
	case pduwire.TypeHighresFetch:
		return (&pduwire.Fetch{Highres: true}).UnmarshalBinary(b)
	case pduwire.TypeDescReq:
		return new(pduwire.DescReq).UnmarshalBinary(b)
	case pduwire.TypeDesc:
		return new(pduwire.DescPDU).UnmarshalBinary(b)
	case pduwire.TypeDescIDs:
		return new(pduwire.DescIDs).UnmarshalBinary(b)
	case pduwire.TypeDescs:
		return new(pduwire.Descs).UnmarshalBinary(b)
	case pduwire.TypeInstanceReq:
		return new(pduwire.InstanceReq).UnmarshalBinary(b)
	case pduwire.TypeInstance:
		return new(pduwire.Instance).UnmarshalBinary(b)
	case pduwire.TypeTextReq:
		return new(pduwire.TextReq).UnmarshalBinary(b)
	case pduwire.TypeText:
		return new(pduwire.Text).UnmarshalBinary(b)
	case pduwire.TypeCreds:
		return new(pduwire.Creds).UnmarshalBinary(b)
	case pduwire.TypePMNSIDs:
		return new(pduwire.PMNSIDs).UnmarshalBinary(b)
	case pduwire.TypePMNSNames:
		return new(pduwire.PMNSNames).UnmarshalBinary(b)
	case pduwire.TypePMNSChild:
		return new(pduwire.PMNSChild).UnmarshalBinary(b)
	case pduwire.TypePMNSTraverse:
		return (&pduwire.PMNSChild{Traverse: true}).UnmarshalBinary(b)
	case pduwire.TypeAttr:
		return new(pduwire.Attr).UnmarshalBinary(b)
	case pduwire.TypeLabelReq:
		return new(pduwire.LabelReq).UnmarshalBinary(b)
	case pduwire.TypeLabel:
		return new(pduwire.Label).UnmarshalBinary(b)
	case pduwire.TypeLogControl:
		return new(pduwire.LogControl).UnmarshalBinary(b)
	case pduwire.TypeLogStatusV2:
		return new(pduwire.LogStatusV2).UnmarshalBinary(b)
	case pduwire.TypeLogRequest:
		return new(pduwire.LogRequest).UnmarshalBinary(b)
	case pduwire.TypeLogStatus:
		return new(pduwire.LogStatus).UnmarshalBinary(b)
	}
	return wire.NewError("pduwire", "header.type", 4, pduwire.ErrType)
}
