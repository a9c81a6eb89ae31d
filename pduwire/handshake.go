package pduwire

import "github.com/perfwire/perfwire/pcp"

// PDU_FLAG_* bits of the features word and of CREDS (docs/pcp-pdu.md §5.2).
const (
	FlagSecure    = 0x0001
	FlagCompress  = 0x0002
	FlagAuth      = 0x0004
	FlagCredsReqd = 0x0008
	FlagSecureAck = 0x0010
	FlagNoNSSInit = 0x0020
	FlagContainer = 0x0040
	FlagCertReqd  = 0x0080
	FlagBadLabel  = 0x0100
	FlagLabels    = 0x0200
	FlagHighRes   = 0x0400
	FlagDescs     = 0x0800
)

// ClientFlagsAllowed are the only flags a client may request in CREDS;
// pmcd rejects any other with PM_ERR_IPC. LABELS, HIGHRES and DESCS are
// one-way server announcements and are never echoed.
const ClientFlagsAllowed = FlagSecure | FlagSecureAck | FlagCompress | FlagAuth |
	FlagCredsReqd | FlagContainer | FlagCertReqd

// ProtocolVersion is the PDU protocol version both sides announce.
const ProtocolVersion = 2

// Features is the handshake features word pmcd sends as the datum of its
// first ERROR PDU: bit 31 zero, bits 30–24 version, 23–16 "licensed",
// 15–0 PDU_FLAG_* bits.
type Features uint32

// NewFeatures packs a features word.
func NewFeatures(version, licensed uint8, flags uint16) Features {
	return Features(uint32(version&0x7f)<<24 | uint32(licensed)<<16 | uint32(flags))
}

// Version returns the protocol version (2).
func (f Features) Version() uint8 { return uint8(f>>24) & 0x7f }

// Licensed returns the historic "licensed" byte (1).
func (f Features) Licensed() uint8 { return uint8(f >> 16) }

// Flags returns the PDU_FLAG_* bits.
func (f Features) Flags() uint16 { return uint16(f) }

// HighResFetch reports whether the server takes HIGHRES_FETCH and answers
// with HIGHRES_RESULT.
func (f Features) HighResFetch() bool { return f.Flags()&FlagHighRes != 0 }

// DescIDs reports whether the server takes DESC_IDS (else loop over
// DESC_REQ).
func (f Features) DescIDs() bool { return f.Flags()&FlagDescs != 0 }

// Labels reports whether the server takes LABEL_REQ.
func (f Features) Labels() bool { return f.Flags()&FlagLabels != 0 }

// ServerHello is pmcd's first PDU, decoded.
type ServerHello struct {
	// Status is the server's verdict, translated from V1 numbering: 0 to
	// proceed, else a negative PM_ERR_* code (e.g. PM_ERR_PERMISSION,
	// PM_ERR_CONNLIMIT) after which the server closes the connection.
	Status   int32
	Features Features
}

// ParseServerHello decodes pmcd's first PDU, a 20-byte ERROR. It fails
// with [ErrType] for another PDU type, [ErrLength] for a 16-byte (or other)
// ERROR, since the 20-byte length is the version-2 signal. Like libpcp
// it does not inspect the zero, version and licensed bits of the features
// word (PCP QA feeds it 0xdeadbeef). A refusal is not a decode failure: it
// comes back in Status.
func ParseServerHello(pdu []byte) (ServerHello, error) {
	var e ErrorPDU
	if err := e.UnmarshalBinary(pdu); err != nil {
		return ServerHello{}, err
	}
	if !e.Extended {
		return ServerHello{}, fail("ERROR.len", 0, ErrLength)
	}
	return ServerHello{Status: int32(pcp.FromV1(e.Code)), Features: Features(e.Datum)}, nil
}

// AppendServerHello appends the 20-byte ERROR a server sends on accept,
// translating status to V1 numbering.
func AppendServerHello(b []byte, status int32, f Features) []byte {
	m := ErrorPDU{Code: pcp.ToV1(pcp.Code(status)), Extended: true, Datum: uint32(f)}
	return m.Append(b, 0)
}

// ClientFlags returns the CREDS flags a client without TLS, SASL or a
// container should request given the server's features: CREDS_REQD when
// advertised, nothing else. LABELS, HIGHRES and DESCS are never echoed.
func ClientFlags(f Features) uint16 {
	return f.Flags() & FlagCredsReqd
}

// AppendClientCreds appends the client's CREDS reply: one CVERSION
// credential, version 2, flags restricted to [ClientFlagsAllowed], with
// the client's pid as the sender tag.
func AppendClientCreds(b []byte, pid int32, flags uint16) []byte {
	c := CredsPDU{Creds: []Credential{NewVersionCred(ProtocolVersion, flags&ClientFlagsAllowed)}}
	return c.Append(b, pid)
}

// CheckClientCreds applies pmcd's rules to a client's CREDS: exactly one
// credential ([ErrCount]), of type CVERSION with a non-zero version and
// flags within [ClientFlagsAllowed] ([ErrField]). It returns the flags.
func CheckClientCreds(c *CredsPDU) (uint16, error) {
	if len(c.Creds) != 1 {
		return 0, fail("CREDS.numcreds", 12, ErrCount)
	}
	cr := c.Creds[0]
	if cr.Kind() != CredVersion || cr.Version() == 0 || cr.Flags()&^ClientFlagsAllowed != 0 {
		return 0, fail("CREDS.cred", 16, ErrField)
	}
	return cr.Flags(), nil
}
