package abi

import "github.com/perfwire/perfwire/pduwire"

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
		_, derr := pduwire.Decode(p.Bytes)
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
