package pcp

import "strconv"

// Code is a PCP status code as it travels in ERROR PDUs, value sets and
// pmcd's replies: 0 for success, a PM_ERR_* value (−12345 and below) for a
// PCP error, or a small negative errno of the sending host (Linux in
// practice). Code implements error, so a code received from a peer can be
// returned as a Go error and matched with errors.Is against the constants
// below (ErrConv, ErrPMID, …).
//
// The names and messages are those of PCP 6.0.3's pmerr and pmErrStr.
type Code int32

// PM_ERR_* codes (code = −(12345 + k)). The retired codes (LICENSE, FILE,
// NOASCII, WANTACK, OBJSTYLE, PMCDLICENSE, LOGTIMEZONE) have no constant.
const (
	ErrGeneric        Code = -12345 // PM_ERR_GENERIC
	ErrPMNS           Code = -12346 // PM_ERR_PMNS
	ErrNoPMNS         Code = -12347 // PM_ERR_NOPMNS
	ErrDupPMNS        Code = -12348 // PM_ERR_DUPPMNS
	ErrText           Code = -12349 // PM_ERR_TEXT
	ErrAppVersion     Code = -12350 // PM_ERR_APPVERSION
	ErrValue          Code = -12351 // PM_ERR_VALUE
	ErrTimeout        Code = -12353 // PM_ERR_TIMEOUT
	ErrNoData         Code = -12354 // PM_ERR_NODATA
	ErrReset          Code = -12355 // PM_ERR_RESET
	ErrName           Code = -12357 // PM_ERR_NAME
	ErrPMID           Code = -12358 // PM_ERR_PMID
	ErrInDom          Code = -12359 // PM_ERR_INDOM
	ErrInst           Code = -12360 // PM_ERR_INST
	ErrUnit           Code = -12361 // PM_ERR_UNIT
	ErrConv           Code = -12362 // PM_ERR_CONV: impossible value or scale conversion
	ErrTrunc          Code = -12363 // PM_ERR_TRUNC: the value does not fit the output type
	ErrSign           Code = -12364 // PM_ERR_SIGN: negative value for an unsigned output
	ErrProfile        Code = -12365 // PM_ERR_PROFILE
	ErrIPC            Code = -12366 // PM_ERR_IPC: what libpcp's PDU decoders return
	ErrEOF            Code = -12368 // PM_ERR_EOF
	ErrNotHost        Code = -12369 // PM_ERR_NOTHOST
	ErrEOL            Code = -12370 // PM_ERR_EOL
	ErrMode           Code = -12371 // PM_ERR_MODE
	ErrLabel          Code = -12372 // PM_ERR_LABEL
	ErrLogRec         Code = -12373 // PM_ERR_LOGREC
	ErrNotArchive     Code = -12374 // PM_ERR_NOTARCHIVE
	ErrLogFile        Code = -12375 // PM_ERR_LOGFILE
	ErrNoContext      Code = -12376 // PM_ERR_NOCONTEXT
	ErrProfileSpec    Code = -12377 // PM_ERR_PROFILESPEC
	ErrPMIDLog        Code = -12378 // PM_ERR_PMID_LOG
	ErrInDomLog       Code = -12379 // PM_ERR_INDOM_LOG
	ErrInstLog        Code = -12380 // PM_ERR_INST_LOG
	ErrNoProfile      Code = -12381 // PM_ERR_NOPROFILE
	ErrNoAgent        Code = -12386 // PM_ERR_NOAGENT
	ErrPermission     Code = -12387 // PM_ERR_PERMISSION
	ErrConnLimit      Code = -12388 // PM_ERR_CONNLIMIT
	ErrAgain          Code = -12389 // PM_ERR_AGAIN
	ErrIsConn         Code = -12390 // PM_ERR_ISCONN
	ErrNotConn        Code = -12391 // PM_ERR_NOTCONN
	ErrNeedPort       Code = -12392 // PM_ERR_NEEDPORT
	ErrNonLeaf        Code = -12394 // PM_ERR_NONLEAF
	ErrType           Code = -12397 // PM_ERR_TYPE
	ErrThread         Code = -12398 // PM_ERR_THREAD
	ErrNoContainer    Code = -12399 // PM_ERR_NOCONTAINER
	ErrBadStore       Code = -12400 // PM_ERR_BADSTORE
	ErrLogOverlap     Code = -12401 // PM_ERR_LOGOVERLAP
	ErrLogHost        Code = -12402 // PM_ERR_LOGHOST
	ErrLogChangeType  Code = -12404 // PM_ERR_LOGCHANGETYPE
	ErrLogChangeSem   Code = -12405 // PM_ERR_LOGCHANGESEM
	ErrLogChangeInDom Code = -12406 // PM_ERR_LOGCHANGEINDOM
	ErrLogChangeUnits Code = -12407 // PM_ERR_LOGCHANGEUNITS
	ErrNeedClientCert Code = -12408 // PM_ERR_NEEDCLIENTCERT
	ErrBadDerive      Code = -12409 // PM_ERR_BADDERIVE
	ErrNoLabels       Code = -12410 // PM_ERR_NOLABELS
	ErrPMDAFenced     Code = -12411 // PM_ERR_PMDAFENCED
	ErrRecType        Code = -12412 // PM_ERR_RECTYPE
	ErrFeature        Code = -12413 // PM_ERR_FEATURE
	ErrTLS            Code = -12414 // PM_ERR_TLS
	// ErrArg is PM_ERR_ARG of PCP 7.2.1 and later. PCP 6.0.3 does not
	// know it: Name returns "" and Message reports an unknown code.
	ErrArg          Code = -12415
	ErrBotch        Code = -12442 // PM_ERR_BOTCH
	ErrTooSmall     Code = -12443 // PM_ERR_TOOSMALL
	ErrTooBig       Code = -12444 // PM_ERR_TOOBIG
	ErrFault        Code = -12445 // PM_ERR_FAULT: QA fault injection
	ErrPMDAReady    Code = -13393 // PM_ERR_PMDAREADY: a PMDA's "I am back" notice
	ErrPMDANotReady Code = -13394 // PM_ERR_PMDANOTREADY
	ErrNYI          Code = -21344 // PM_ERR_NYI, also the end of the PCP range
)

// codeText is one row of the generated table.
type codeText struct {
	code      Code
	name, msg string
}

// Ranges of pmErrStr's interpretation, from the base of the PCP codes
// down: PCP codes, then 1000 authentication (SASL) codes counted down
// from PM_ERR_NYI, then secure-socket codes.
const (
	errBase  = -12345
	saslLast = ErrNYI - 1000
)

// lookup finds c in pmErrTable (sorted by descending code).
func lookup(c Code) (codeText, bool) {
	lo, hi := 0, len(pmErrTable)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pmErrTable[m].code > c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(pmErrTable) && pmErrTable[lo].code == c {
		return pmErrTable[lo], true
	}
	return codeText{}, false
}

// Name returns the symbolic name of a PM_ERR_* code ("PM_ERR_PMID"), as
// pmerr -l lists it, or "" for any other code (errno values included).
func (c Code) Name() string {
	e, _ := lookup(c)
	return e.name
}

// Message returns the text libpcp's pmErrStr gives for c: the PCP message
// for a PM_ERR_* code, the Linux strerror text for −errno codes, and the
// same "No such PMAPI error code (N)", "Unknown error N",
// "Authentication - …" and "Unknown secure sockets error N (M)" forms for
// everything else. It allocates only for codes without a fixed text.
func (c Code) Message() string {
	// A code without a text is a prefix, a number and a suffix, written
	// by one call, not each written out (module size; see wasm/size).
	pre, n, post := "No such PMAPI error code (", int(c), ")"
	switch {
	case c == 0:
		return "No error"
	case c > 0:
	case c > errBase:
		e := -int(c)
		if e < len(errnoText) && errnoText[e] != "" {
			return errnoText[e]
		}
		pre, n, post = "Unknown error ", e, ""
	case c >= ErrNYI:
		if e, ok := lookup(c); ok {
			return e.msg
		}
	case c >= saslLast:
		if k := int(ErrNYI - c); k < len(saslText) && saslText[k] != "" {
			return "Authentication - " + saslText[k]
		}
		return "Authentication - undefined error!"
	default:
		pre, post = "Unknown secure sockets error ", " ("+strconv.Itoa(int(c-ErrNYI))+")"
	}
	return pre + strconv.Itoa(n) + post
}

// Error returns Message, so a Code can be returned as an error.
func (c Code) Error() string { return c.Message() }

// String returns the symbolic name when there is one, else the number.
func (c Code) String() string {
	if n := c.Name(); n != "" {
		return n
	}
	return strconv.Itoa(int(c))
}

// The V1 numbering is what the handshake's first ERROR PDU still uses:
// PCP codes rebased from −12345 to −1000.
const (
	v1Base = -1000
	v1Diff = v1Base - errBase // 11345
)

// ToV1 converts c to the V1 numbering for a handshake ERROR PDU: a code at
// or below −12345 moves up by 11345, everything else is unchanged.
func ToV1(c Code) int32 {
	if c <= errBase {
		return int32(c) + v1Diff
	}
	return int32(c)
}

// FromV1 converts a status received in the handshake ERROR PDU: a value at
// or below −1000 moves down by 11345 (wrapping in 32 bits, as libpcp's C
// arithmetic does), everything else is unchanged.
func FromV1(v int32) Code {
	if v <= v1Base {
		return Code(v - v1Diff)
	}
	return Code(v)
}
