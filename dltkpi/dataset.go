package dltkpi

import (
	"bytes"
	"iter"
	"math"
)

// TruncationMarker ends every fragment: the cut copy of a dataset that
// libdlt appends when the dataset does not fit the rest of a message.
// dlt-kpi then repeats the whole dataset in the next message (docs/dlt-kpi.md §5.1).
const TruncationMarker = "... <<Message truncated, too long>>"

// IsFragment reports whether an argument ends with TruncationMarker.
func IsFragment(arg []byte) bool {
	// The last byte first: it rules out almost every dataset without the
	// call to compare 35 bytes.
	return len(arg) >= len(TruncationMarker) && arg[len(arg)-1] == '>' &&
		string(arg[len(arg)-len(TruncationMarker):]) == TruncationMarker
}

// Dataset is one dataset argument, decoded according to Kind. Byte
// fields are views into the message payload, valid as long as it is;
// Clone copies them. Fields that do not belong to Kind are zero.
type Dataset struct {
	Kind Kind
	// Raw is the whole argument text.
	Raw []byte
	// Truncated marks a fragment (Raw ends with TruncationMarker); no
	// other field is set and the dataset belongs to no group.
	Truncated bool

	// PID is set for NEW, STP, ACT and CHK.
	PID int32
	// PPID is NEW's parent pid; 0 for "(null)" commands and for processes
	// whose comm contains whitespace (docs/dlt-kpi.md §5.4).
	PPID int32
	// Cmd is NEW's and CHK's command: argv[0], "(comm)", "(comm" cut at
	// whitespace, or "(null)", taken verbatim (any byte but NUL).
	Cmd []byte

	// CPU is ACT's per-mille of the machine over the configured interval.
	CPU uint64
	// RSS is ACT's resident set size in pages (the virtual size in bytes
	// when the comm contains whitespace).
	RSS int64
	// Ctx is ACT's cumulative context-switch count of the main thread.
	Ctx int64
	// IO is ACT's cumulative rchar + wchar in bytes.
	IO uint64
	// IOWait is ACT's block-I/O delay, converted like CPU.
	IOWait uint64

	// IRQ is the interrupt's name (the first /proc/interrupts column).
	IRQ []byte
	// CPUs is the number of cpuN:count entries of an IRQ dataset.
	CPUs int
}

// counts returns an IRQ dataset's text after the name: "cpu0:1;cpu1:0;".
func (d *Dataset) counts() []byte {
	if d.IRQ == nil {
		return nil
	}
	return d.Raw[len(d.IRQ)+1:]
}

// ParseDataset decodes one dataset argument of the given kind: the text
// of a single DLT string, without its NUL. A fragment returns Truncated
// and no error. A dataset that does not match the grammar of its kind
// fails with ErrSyntax (or ErrRange for a number that does not fit its C
// type) in a *ParseError whose offset counts from the start of arg.
// ParseDataset does not allocate, except for the error.
func ParseDataset(k Kind, arg []byte) (Dataset, error) {
	var d Dataset
	err := d.parse(k, arg)
	return d, err
}

// parse is ParseDataset into d, which it overwrites: the scanner's hot
// path, without copying the dataset around.
func (d *Dataset) parse(k Kind, arg []byte) error {
	*d = Dataset{Kind: k, Raw: arg}
	if IsFragment(arg) {
		d.Truncated = true
		return nil
	}
	switch k {
	case KindACT:
		return d.parseACT(arg)
	case KindIRQ:
		return d.parseIRQ(arg)
	case KindNEW, KindCHK, KindSTP:
	default:
		return newError("identifier", 0, ErrType)
	}
	// The pid-led kinds, here rather than in a function of their own (a
	// call per dataset, most of a capture's): NEW pid;ppid;cmd, CHK
	// pid;cmd and STP pid. Plain pids (1 to 9 digits) are read inline;
	// anything else goes through parseProcessSlow for the exact range
	// checks and errors.
	pid, i, ok := pid9(arg, 0)
	switch {
	case !ok:
	case k == KindSTP:
		if i == len(arg) {
			d.PID = pid
			return nil
		}
	case i < len(arg) && arg[i] == ';':
		if k == KindCHK {
			d.PID, d.Cmd = pid, arg[i+1:]
			return nil
		}
		ppid, j, ok := pid9(arg, i+1)
		if ok && j < len(arg) && arg[j] == ';' {
			d.PID, d.PPID, d.Cmd = pid, ppid, arg[j+1:]
			return nil
		}
	}
	return d.parseProcessSlow(k, arg)
}

// pid9 reads 1 to 9 digits at b[i:] (a pid that surely fits an int32)
// and returns them with the offset of the byte after them.
func pid9(b []byte, i int) (pid int32, next int, ok bool) {
	start := i
	for ; i < len(b) && i-start < 10; i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		pid = pid*10 + int32(c)
	}
	n := i - start
	return pid, i, n > 0 && n < 10
}

// parseProcessSlow is parse's pid-led kinds with signs, long numbers and
// errors: NEW's two numbers, CHK's and STP's one, each through one
// field call, any failure through one newError call (its field the
// kind's name).
func (d *Dataset) parseProcessSlow(k Kind, arg []byte) error {
	var (
		v   [2]int64
		off int
		err error
	)
	sep, n := byte(';'), 1
	if k == KindNEW {
		n = 2
	} else if k == KindSTP {
		sep = 0
	}
	for f := range n {
		if v[f&1], off, err = field(arg, off, sep, math.MinInt32, math.MaxInt32); err != nil {
			return newError(k.String(), off, err)
		}
	}
	d.PID, d.PPID = int32(v[0]), int32(v[1])
	if k != KindSTP {
		d.Cmd = arg[off:]
	}
	return nil
}

// actFields names ACT's fields for errors; actSigned says which are C
// signed types (pid int, rss and ctx long) and may carry a '-'.
var (
	actFields = [6]string{"ACT.pid", "ACT.cpu", "ACT.rss", "ACT.ctx", "ACT.io", "ACT.iowait"}
	actSigned = [6]bool{true, false, true, true, false, false}
)

// parseACT decodes an ACT dataset. ACT is the bulk of a capture's
// datasets, so well-formed ones take a single loop over the bytes with no
// calls; anything unusual (a sign, more than 19 digits, a syntax error, a
// number too large for its C type) goes through parseACTSlow, which also
// builds the precise error.
func (d *Dataset) parseACT(arg []byte) error {
	var (
		v        [8]uint64 // the first five fields; v[f&7] needs no bounds check
		f, start int       // f counts the ';' (too many: f != 5 below)
		u        uint64
	)
	for i, c := range arg {
		if c -= '0'; c <= 9 {
			u = u*10 + uint64(c)
			continue
		}
		if n := i - start; c != ';'-'0' || uint(n-1) > 18 { // not 1 to 19 digits
			return d.parseACTSlow(arg)
		}
		v[f&7] = u
		f++
		u, start = 0, i+1
	}
	if n := len(arg) - start; f != 5 || uint(n-1) > 18 || v[0] > math.MaxInt32 || v[2] > math.MaxInt64 || v[3] > math.MaxInt64 {
		return d.parseACTSlow(arg)
	}
	d.PID, d.CPU, d.RSS, d.Ctx, d.IO, d.IOWait = int32(v[0]), v[1], int64(v[2]), int64(v[3]), v[4], u
	return nil
}

// parseACTSlow reads the six numbers with signs and exact range checks:
// the first field whose syntax fails, else the first signed field out of
// its type's range (pid, rss, ctx), through one newError call.
func (d *Dataset) parseACTSlow(arg []byte) error {
	var (
		v     [6]uint64
		neg   [6]bool
		start [6]int
		err   error
	)
	i, f := 0, 0
	for ; f < 6; f++ {
		if i < len(arg) && arg[i] == '-' && actSigned[f] {
			neg[f] = true
			i++
		}
		start[f] = i
		var u uint64
		for ; i < len(arg); i++ {
			c := arg[i] - '0'
			if c > 9 {
				break
			}
			u = u*10 + uint64(c)
		}
		if n := i - start[f]; n == 0 {
			err = ErrSyntax
		} else if n > 19 && !fitsUint64(arg[start[f]:i]) {
			i, err = start[f], ErrRange
		} else if f < 5 && (i == len(arg) || arg[i] != ';') || f == 5 && i != len(arg) {
			err = ErrSyntax
		}
		if err != nil {
			break
		}
		v[f] = u
		i++
	}
	var s [6]int64
	if err == nil {
		for _, f = range [3]int{0, 2, 3} {
			hi := uint64(math.MaxInt64)
			if f == 0 {
				hi = math.MaxInt32
			}
			var ok bool
			if s[f], ok = signed(v[f], neg[f], hi); !ok {
				i, err = start[f], ErrRange
				break
			}
		}
	}
	if err != nil {
		return newError(actFields[f], i, err)
	}
	d.PID, d.CPU, d.RSS, d.Ctx, d.IO, d.IOWait = int32(s[0]), v[1], s[2], s[3], v[4], v[5]
	return nil
}

// parseIRQ decodes an IRQ dataset: its name, then validates and counts
// the cpuN:count entries. Entries whose numbers surely fit (N up to 9
// digits, an optional '-' and up to 18 digits of count) are checked in
// one call-free loop; anything else makes it check them again one by one
// with irqEntry's exact checks, which report the first failure.
func (d *Dataset) parseIRQ(arg []byte) error {
	name := 0 // a loop: names are a few bytes, too short for IndexByte to pay
	for name < len(arg) && arg[name] != ';' {
		name++
	}
	if name == 0 || name == len(arg) {
		return newError("IRQ.name", 0, ErrSyntax)
	}
	d.IRQ = arg[:name:name]
	cpus, slow := 0, false
	for i := name + 1; i < len(arg) && !slow; cpus++ {
		if len(arg)-i < len("cpu0:0;") || string(arg[i:i+3]) != "cpu" {
			slow = true
			break
		}
		i += 3
		j := i
		for j < len(arg) && arg[j]-'0' <= 9 {
			j++
		}
		if j == i || j-i > 9 || j == len(arg) || arg[j] != ':' {
			slow = true
			break
		}
		if j++; j < len(arg) && arg[j] == '-' {
			j++
		}
		i = j
		for j < len(arg) && arg[j]-'0' <= 9 {
			j++
		}
		if slow = j == i || j-i > 18 || j == len(arg) || arg[j] != ';'; !slow {
			i = j + 1
		}
	}
	if !slow {
		d.CPUs = cpus
		return nil
	}
	for off := name + 1; off < len(arg); d.CPUs++ {
		var err error
		if _, _, off, err = irqEntry(arg, off); err != nil {
			d.CPUs = 0
			return newError("IRQ.count", off, err)
		}
	}
	return nil
}

// irqEntry decodes "cpuN:count;" at off and returns N, count and the
// offset after the ';' (or of the failure).
func irqEntry(b []byte, off int) (int, int64, int, error) {
	if len(b)-off < 3 || string(b[off:off+3]) != "cpu" {
		return 0, 0, off, ErrSyntax
	}
	idx, off, err := field(b, off+3, ':', 0, math.MaxInt32)
	if err != nil {
		return 0, 0, off, err
	}
	n, off, err := field(b, off, ';', math.MinInt64, math.MaxInt64)
	if err != nil {
		return 0, 0, off, err
	}
	return int(idx), n, off, nil
}

// IRQCount is one cpuN:count entry of an IRQ dataset.
type IRQCount struct {
	CPU   int   // N of "cpuN"
	Count int64 // cumulative interrupts since boot (may be garbage, docs/dlt-kpi.md §5.3)
}

// Counts yields an IRQ dataset's entries in order. ParseDataset has
// validated them, so iteration cannot fail.
func (d Dataset) Counts() iter.Seq[IRQCount] {
	return func(yield func(IRQCount) bool) {
		counts := d.counts()
		for off := 0; off < len(counts); {
			cpu, n, next, err := irqEntry(counts, off)
			if err != nil || !yield(IRQCount{CPU: cpu, Count: n}) {
				return
			}
			off = next
		}
	}
}

// AppendCounts appends an IRQ dataset's entries to dst.
func (d Dataset) AppendCounts(dst []IRQCount) []IRQCount {
	for c := range d.Counts() {
		dst = append(dst, c)
	}
	return dst
}

// Clone returns a copy of d whose byte fields no longer alias the
// message payload.
func (d Dataset) Clone() Dataset {
	if d.Raw == nil {
		return d
	}
	c := bytes.Clone(d.Raw)
	d.Raw = c
	if d.Cmd != nil {
		d.Cmd = c[len(c)-len(d.Cmd):]
	}
	if d.IRQ != nil {
		d.IRQ = c[:len(d.IRQ):len(d.IRQ)]
	}
	return d
}

// ParseFragment recovers what a NEW or CHK fragment still says for sure:
// the pid (and NEW's ppid) when the cut fell after their closing ';', and
// the start of the command. It is how a dataset too long for any message
// (dlt-kpi's flood, docs/dlt-kpi.md §5.2) can be shown at all. ok is false for other
// kinds, for arguments that are not fragments and when the cut fell
// inside a number.
func ParseFragment(k Kind, arg []byte) (d Dataset, ok bool) {
	if !IsFragment(arg) || (k != KindNEW && k != KindCHK) {
		return Dataset{}, false
	}
	prefix := arg[:len(arg)-len(TruncationMarker)]
	d, err := ParseDataset(k, prefix)
	if err != nil {
		return Dataset{}, false
	}
	d.Raw, d.Truncated = arg, true
	return d, true
}
