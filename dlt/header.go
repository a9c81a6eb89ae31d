package dlt

// Sizes and patterns of the framing headers.
const (
	StorageHeaderLen  = 16 // "DLT\x01", seconds, microseconds, ECU
	SerialHeaderLen   = 4  // "DLS\x01"
	ExtendedHeaderLen = 10 // MSIN, NOAR, APID, CTID
	// MaxMessageLen is the largest LEN a standard header can carry.
	MaxMessageLen = 0xFFFF
)

// HTYP bits of the standard header.
const (
	HTYPExtended  = 0x01 // UEH: extended header present
	HTYPBigEndian = 0x02 // MSBF: payload is big-endian
	HTYPWithECU   = 0x04 // WEID: ECU id follows LEN
	HTYPWithSID   = 0x08 // WSID: session id follows
	HTYPWithTime  = 0x10 // WTMS: timestamp follows
	htypVersion1  = 0x20 // version 1 in bits 5-7
)

// MSIN bits of the extended header.
const (
	msinVerbose   = 0x01
	msinTypeShift = 1
	msinTypeMask  = 0x0E
	msinInfoShift = 4
)

var (
	storagePattern = [4]byte{'D', 'L', 'T', 1}
	serialPattern  = [4]byte{'D', 'L', 'S', 1}
)

// StorageHeader is the 16-byte header that precedes each message in a
// .dlt file: when the writer received it and from which ECU.
type StorageHeader struct {
	Seconds      uint32 // seconds since the Unix epoch, receiver's clock
	Microseconds int32  // microseconds within the second
	ECU          ID     // message's ECU id, or the receiver's default
}

// MessageType is the MSTP field of the extended header.
type MessageType uint8

// Message types.
const (
	TypeLog      MessageType = 0
	TypeAppTrace MessageType = 1
	TypeNwTrace  MessageType = 2
	TypeControl  MessageType = 3
)

// Log levels: the MTIN values of [TypeLog] messages.
const (
	LevelFatal   = 1
	LevelError   = 2
	LevelWarn    = 3
	LevelInfo    = 4
	LevelDebug   = 5
	LevelVerbose = 6
)

// Control subtypes: the MTIN values of [TypeControl] messages.
const (
	ControlRequest  = 1
	ControlResponse = 2
	ControlTime     = 3
)

var typeNames = [8]string{"log", "app_trace", "nw_trace", "control"}

// String returns dlt-convert's name for the type ("log", "app_trace",
// "nw_trace", "control") or "" for the undefined values 4-7.
func (t MessageType) String() string { return typeNames[t&7] }

var subtypeNames = [4][16]string{
	{"", "fatal", "error", "warn", "info", "debug", "verbose"},
	{"", "variable", "func_in", "func_out", "state", "vfb"},
	{"", "ipc", "can", "flexray", "most", "vfb"},
	{"", "request", "response", "time"},
}

// SubtypeName returns dlt-convert's name for MTIN value sub of message
// type t ("info", "response", ...) or "" when it has none.
func SubtypeName(t MessageType, sub uint8) string {
	if t > TypeControl {
		return ""
	}
	return subtypeNames[t][sub&15]
}
