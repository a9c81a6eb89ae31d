package pduwire

import "strconv"

// Type is a PDU type code, the second word of every header.
type Type int32

// PDU type codes (docs/pcp-pdu.md §3). CONTROL_REQ (0x700a) is defined upstream but
// never encoded; it and unknown positive codes can still be framed.
const (
	TypeError         Type = 0x7000
	TypeResult        Type = 0x7001
	TypeProfile       Type = 0x7002
	TypeFetch         Type = 0x7003
	TypeDescReq       Type = 0x7004
	TypeDesc          Type = 0x7005
	TypeInstanceReq   Type = 0x7006
	TypeInstance      Type = 0x7007
	TypeTextReq       Type = 0x7008
	TypeText          Type = 0x7009
	TypeControlReq    Type = 0x700a
	TypeCreds         Type = 0x700c
	TypePMNSIDs       Type = 0x700d
	TypePMNSNames     Type = 0x700e
	TypePMNSChild     Type = 0x700f
	TypePMNSTraverse  Type = 0x7010
	TypeAttr          Type = 0x7011 // also known as AUTH
	TypeLabelReq      Type = 0x7012
	TypeLabel         Type = 0x7013
	TypeHighResFetch  Type = 0x7014
	TypeHighResResult Type = 0x7015
	TypeDescIDs       Type = 0x7016
	TypeDescs         Type = 0x7017
	TypeLogControl    Type = 0x8000
	TypeLogStatusV2   Type = 0x8001
	TypeLogRequest    Type = 0x8002
	TypeLogStatus     Type = 0x8003
)

var typeNames = [...]string{
	"ERROR", "RESULT", "PROFILE", "FETCH", "DESC_REQ", "DESC", "INSTANCE_REQ",
	"INSTANCE", "TEXT_REQ", "TEXT", "CONTROL_REQ", "", "CREDS", "PMNS_IDS",
	"PMNS_NAMES", "PMNS_CHILD", "PMNS_TRAVERSE", "ATTR", "LABEL_REQ", "LABEL",
	"HIGHRES_FETCH", "HIGHRES_RESULT", "DESC_IDS", "DESCS",
}

var logTypeNames = [...]string{"LOG_CONTROL", "LOG_STATUS_V2", "LOG_REQUEST", "LOG_STATUS"}

// String returns the PDU name as PCP spells it without its "PDU_" prefix
// ("RESULT", "PMNS_NAMES"), or "0x" and the hex code for unknown types.
func (t Type) String() string {
	switch {
	case t >= TypeError && t <= TypeDescs && typeNames[t-TypeError] != "":
		return typeNames[t-TypeError]
	case t >= TypeLogControl && t <= TypeLogStatus:
		return logTypeNames[t-TypeLogControl]
	}
	if t < 0 {
		return "-0x" + strconv.FormatUint(uint64(-int64(t)), 16)
	}
	return "0x" + strconv.FormatUint(uint64(t), 16)
}
