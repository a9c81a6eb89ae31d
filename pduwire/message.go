package pduwire

// Message is implemented by the owned form of every PDU type: it knows
// its type code, appends itself as a complete PDU, and decodes a complete
// PDU (header included) into itself, reusing its slices. Byte slices in a
// decoded message alias the PDU.
type Message interface {
	Type() Type
	Append(b []byte, from int32) []byte
	UnmarshalBinary(pdu []byte) error
}

// New returns a zero message for PDU type t, or nil for types without a
// body decoder (CONTROL_REQ and unknown codes).
func New(t Type) Message {
	switch t {
	case TypeError:
		return &ErrorPDU{}
	case TypeResult:
		return &ResultPDU{}
	case TypeHighResResult:
		return &ResultPDU{HighRes: true}
	case TypeProfile:
		return &ProfilePDU{}
	case TypeFetch:
		return &FetchPDU{}
	case TypeHighResFetch:
		return &FetchPDU{HighRes: true}
	case TypeDescReq:
		return &DescReqPDU{}
	case TypeDesc:
		return &DescPDU{}
	case TypeDescIDs:
		return &DescIDsPDU{}
	case TypeDescs:
		return &DescsPDU{}
	case TypeInstanceReq:
		return &InstanceReqPDU{}
	case TypeInstance:
		return &InstancePDU{}
	case TypeTextReq:
		return &TextReqPDU{}
	case TypeText:
		return &TextPDU{}
	case TypeCreds:
		return &CredsPDU{}
	case TypePMNSIDs:
		return &PMNSIDsPDU{}
	case TypePMNSNames:
		return &PMNSNamesPDU{}
	case TypePMNSChild:
		return &PMNSChildPDU{}
	case TypePMNSTraverse:
		return &PMNSChildPDU{Traverse: true}
	case TypeAttr:
		return &AttrPDU{}
	case TypeLabelReq:
		return &LabelReqPDU{}
	case TypeLabel:
		return &LabelPDU{}
	case TypeLogControl:
		return &LogControlPDU{}
	case TypeLogStatusV2:
		return &LogStatusV2PDU{}
	case TypeLogRequest:
		return &LogRequestPDU{}
	case TypeLogStatus:
		return &LogStatusPDU{}
	}
	return nil
}

// Decode decodes a whole PDU into a new message of the type its header
// names. It fails with the header errors of [ConsumeHeader], with
// kind "pdu_length" when len differs from len(pdu), with [ErrType] for a type
// that has no decoder, and with the body decoder's error otherwise.
func Decode(pdu []byte) (Message, error) {
	h, _, err := ConsumeHeader(pdu)
	if err != nil {
		return nil, err
	}
	m := New(h.Type)
	if m == nil {
		return nil, fail("header.type", 4, ErrType)
	}
	if err := m.UnmarshalBinary(pdu); err != nil {
		return nil, err
	}
	return m, nil
}
