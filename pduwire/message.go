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
		return &ResultData{}
	case TypeHighresResult:
		return &ResultData{Highres: true}
	case TypeProfile:
		return &Profile{}
	case TypeFetch:
		return &Fetch{}
	case TypeHighresFetch:
		return &Fetch{Highres: true}
	case TypeDescReq:
		return &DescReq{}
	case TypeDesc:
		return &DescPDU{}
	case TypeDescIDs:
		return &DescIDs{}
	case TypeDescs:
		return &Descs{}
	case TypeInstanceReq:
		return &InstanceReq{}
	case TypeInstance:
		return &Instance{}
	case TypeTextReq:
		return &TextReq{}
	case TypeText:
		return &Text{}
	case TypeCreds:
		return &Creds{}
	case TypePMNSIDs:
		return &PMNSIDs{}
	case TypePMNSNames:
		return &PMNSNames{}
	case TypePMNSChild:
		return &PMNSChild{}
	case TypePMNSTraverse:
		return &PMNSChild{Traverse: true}
	case TypeAttr:
		return &Attr{}
	case TypeLabelReq:
		return &LabelReq{}
	case TypeLabel:
		return &Label{}
	case TypeLogControl:
		return &LogControl{}
	case TypeLogStatusV2:
		return &LogStatusV2{}
	case TypeLogRequest:
		return &LogRequest{}
	case TypeLogStatus:
		return &LogStatus{}
	}
	return nil
}

// Decode decodes a whole PDU into a new message of the type its header
// names. It fails with the header errors of [ConsumeHeader], with
// [ErrHeaderLen] when len differs from len(pdu), with [ErrType] for a type
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

// exact fails with ErrLength unless the PDU is exactly want bytes long.
func exact(pdu []byte, name string, want uint64) error {
	if uint64(len(pdu)) != want {
		return fail(name+".len", 0, ErrLength)
	}
	return nil
}

// atLeast fails with ErrTruncated when the PDU is shorter than want.
func atLeast(pdu []byte, name string, want int) error {
	if len(pdu) < want {
		return fail(name, len(pdu), ErrTruncated)
	}
	return nil
}
