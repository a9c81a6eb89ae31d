package dltkpi

import (
	"strconv"

	"github.com/perfwire/perfwire/internal/wire"
)

// DefaultBufLen is libdlt's default payload buffer (DLT_LOG_MSG_BUF_LEN):
// the most bytes of verbose payload one dlt-kpi message carries.
const DefaultBufLen = 1390

// fragmentMin is the smallest free space in which libdlt still writes a
// fragment: argument header (6) + marker (35) + NUL (1).
const fragmentMin = argOverhead + len(TruncationMarker) + 1

// AppendArgument appends s as one little-endian DLT string argument, as
// libdlt writes it for dlt-kpi: type info 0x00000200, a 16-bit length
// that counts the NUL, the bytes and a NUL. s must be shorter than 65535
// bytes and contain no NUL; the caller keeps that promise.
func AppendArgument(dst, s []byte) []byte {
	dst = wire.AppendU32LE(dst, tiString)
	dst = wire.AppendU16LE(dst, uint16(len(s)+1))
	dst = append(dst, s...)
	return append(dst, 0)
}

func appendStringArg(dst []byte, s string) []byte {
	dst = wire.AppendU32LE(dst, tiString)
	dst = wire.AppendU16LE(dst, uint16(len(s)+1))
	dst = append(dst, s...)
	return append(dst, 0)
}

// AppendSync appends the payload of the marker message [k, "BEG"] or
// [k, "END"]. s must be SyncBegin or SyncEnd.
func AppendSync(dst []byte, k Kind, s Sync) []byte {
	dst = appendStringArg(dst, k.String())
	return appendStringArg(dst, s.String())
}

// AppendNew appends the text of a NEW dataset: pid;ppid;cmd.
func AppendNew(dst []byte, pid, ppid int32, cmd []byte) []byte {
	dst = strconv.AppendInt(dst, int64(pid), 10)
	dst = append(dst, ';')
	dst = strconv.AppendInt(dst, int64(ppid), 10)
	dst = append(dst, ';')
	return append(dst, cmd...)
}

// AppendCheck appends the text of a CHK dataset: pid;cmd.
func AppendCheck(dst []byte, pid int32, cmd []byte) []byte {
	dst = strconv.AppendInt(dst, int64(pid), 10)
	dst = append(dst, ';')
	return append(dst, cmd...)
}

// AppendStop appends the text of an STP dataset: pid.
func AppendStop(dst []byte, pid int32) []byte {
	return strconv.AppendInt(dst, int64(pid), 10)
}

// AppendAct appends the text of an ACT dataset:
// pid;cpu;rss;ctx;io;iowait.
func AppendAct(dst []byte, pid int32, cpu uint64, rss, ctx int64, io, iowait uint64) []byte {
	dst = strconv.AppendInt(dst, int64(pid), 10)
	dst = append(dst, ';')
	dst = strconv.AppendUint(dst, cpu, 10)
	dst = append(dst, ';')
	dst = strconv.AppendInt(dst, rss, 10)
	dst = append(dst, ';')
	dst = strconv.AppendInt(dst, ctx, 10)
	dst = append(dst, ';')
	dst = strconv.AppendUint(dst, io, 10)
	dst = append(dst, ';')
	return strconv.AppendUint(dst, iowait, 10)
}

// AppendIRQ appends the text of an IRQ dataset: name;cpu0:N;cpu1:M;…
// with the trailing ';' dlt-kpi always writes. name must not contain ';'.
func AppendIRQ(dst, name []byte, counts []int64) []byte {
	dst = append(dst, name...)
	dst = append(dst, ';')
	for i, n := range counts {
		dst = append(dst, "cpu"...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ';')
	}
	return dst
}

// AppendDataset appends the text of d according to d.Kind, from its
// decoded fields (IRQ entries are copied as decoded). A fragment is
// appended as its raw text.
func AppendDataset(dst []byte, d Dataset) []byte {
	if d.Truncated {
		return append(dst, d.Raw...)
	}
	switch d.Kind {
	case KindNEW:
		return AppendNew(dst, d.PID, d.PPID, d.Cmd)
	case KindCHK:
		return AppendCheck(dst, d.PID, d.Cmd)
	case KindSTP:
		return AppendStop(dst, d.PID)
	case KindACT:
		return AppendAct(dst, d.PID, d.CPU, d.RSS, d.Ctx, d.IO, d.IOWait)
	case KindIRQ:
		dst = append(dst, d.IRQ...)
		dst = append(dst, ';')
		return append(dst, d.counts()...)
	}
	return dst
}

// PayloadBuilder fills one data message's payload the way dlt-kpi and
// libdlt do: the identifier, then datasets while they fit the buffer;
// the first dataset that does not fit leaves a fragment (its first bytes
// plus TruncationMarker) in the remaining space when at least 42 bytes
// are free, and the caller repeats it in the next message.
//
//	b := dltkpi.NewPayloadBuilder(buf[:0], dltkpi.KindACT, 0)
//	for _, ds := range datasets {
//		if !b.Add(ds) { send(b.Payload()); b.Reset(buf[:0]); b.Add(ds) }
//	}
type PayloadBuilder struct {
	buf    []byte
	start  int
	bufLen int
	kind   Kind
	n      int // datasets added
}

// NewPayloadBuilder starts a payload of kind k at the end of dst;
// bufLen is the libdlt payload buffer size, 0 meaning DefaultBufLen.
func NewPayloadBuilder(dst []byte, k Kind, bufLen int) PayloadBuilder {
	bufLen = wire.Default(bufLen, DefaultBufLen)
	b := PayloadBuilder{bufLen: bufLen, kind: k}
	b.Reset(dst)
	return b
}

// Reset starts a new payload of the same kind at the end of dst.
func (b *PayloadBuilder) Reset(dst []byte) {
	b.start = len(dst)
	b.buf = appendStringArg(dst, b.kind.String())
	b.n = 0
}

// Add appends dataset text ds if it fits and reports whether it did. If
// it does not, Add may append a fragment and the payload is complete.
func (b *PayloadBuilder) Add(ds []byte) bool {
	free := b.bufLen - (len(b.buf) - b.start)
	if len(ds)+argOverhead+1 <= free {
		b.buf = AppendArgument(b.buf, ds)
		b.n++
		return true
	}
	if free >= fragmentMin {
		cut := min(free-fragmentMin, len(ds))
		b.buf = wire.AppendU32LE(b.buf, tiString)
		b.buf = wire.AppendU16LE(b.buf, uint16(free-argOverhead))
		b.buf = append(b.buf, ds[:cut]...)
		b.buf = append(b.buf, TruncationMarker...)
		b.buf = append(b.buf, 0)
	}
	return false
}

// Len is the number of datasets added since the last Reset.
func (b *PayloadBuilder) Len() int { return b.n }

// Payload returns dst with the payload appended.
func (b *PayloadBuilder) Payload() []byte { return b.buf }

// FitsMessage reports whether a dataset of n bytes fits an otherwise
// empty message with the given buffer (0 = DefaultBufLen); dlt-kpi
// floods when it does not (docs/dlt-kpi.md §5.2).
func FitsMessage(n, bufLen int) bool {
	bufLen = wire.Default(bufLen, DefaultBufLen)
	return argOverhead+len("NEW")+1+n+argOverhead+1 <= bufLen
}

// EncodeGroup returns the payloads of the messages dlt-kpi sends for one
// group: [k, BEG], the data messages (split as libdlt splits them,
// fragments included), [k, END]. It returns nil for an empty list (dlt-kpi
// sends no group) and fails with a *ParseError of kind [ErrLimit] (the
// dataset's length and the longest that fits; the dataset's index as
// offset) if it can never fit one message
// (dlt-kpi would flood, docs/dlt-kpi.md §5.2). bufLen 0 means
// DefaultBufLen.
func EncodeGroup(k Kind, datasets [][]byte, bufLen int) ([][]byte, error) {
	if len(datasets) == 0 {
		return nil, nil
	}
	for i, ds := range datasets {
		if !FitsMessage(len(ds), bufLen) {
			n := bufLen
			n = wire.Default(n, DefaultBufLen)
			return nil, wire.NewValueError(format, "dataset", i, ErrLimit, int64(len(ds)), int64(n-2*argOverhead-len("NEW")-2))
		}
	}
	out := [][]byte{AppendSync(nil, k, SyncBegin)}
	b := NewPayloadBuilder(nil, k, bufLen)
	for _, ds := range datasets {
		if !b.Add(ds) {
			out = append(out, b.Payload())
			b.Reset(nil)
			b.Add(ds)
		}
	}
	out = append(out, b.Payload(), AppendSync(nil, k, SyncEnd))
	return out, nil
}
