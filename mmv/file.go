package mmv

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
)

// Header is the 40-byte file header.
type Header struct {
	Version int32
	Gen1    uint64 // generation, written first
	Gen2    uint64 // equals Gen1 once the writer has finished the layout
	TOCs    int32
	Flags   Flags
	Process int32 // writer pid, meaningful with FlagProcess
	Cluster int32 // requested PMID cluster; 0 lets pmdammv choose
}

// Options configure [Parse]. The zero value reads a little-endian
// file with the default limits; each zero field is replaced by its
// default on its own. Every count is also bounded by the file size, so
// the limits only reject files that pmdammv would not export anyway.
type Options struct {
	// Order is the file's byte order; nil means little-endian, what
	// every known writer produces on x86 and ARM.
	Order binary.ByteOrder
	// MaxTOCs bounds the TOC entries; zero means [DefaultMaxTOCs].
	MaxTOCs int
	// MaxMetrics bounds the METRICS section; zero means
	// [DefaultMaxMetrics] (pmdammv ignores a larger section).
	MaxMetrics int
	// MaxIndoms bounds the INDOMS section; zero means
	// [DefaultMaxIndoms] (metric checks scan the indoms).
	MaxIndoms int
	// MaxLabels bounds the LABELS section; zero means
	// [DefaultMaxLabels] (pmdammv ignores a larger section).
	MaxLabels int
	// MaxValues bounds the VALUES and INSTANCES sections; zero means
	// [DefaultMaxValues].
	MaxValues int
	// RepeatedItems accepts a metric whose item repeats an earlier one
	// in the file, as pmdammv does (it drops the later metric; [Assign]
	// warns). By default a repeated item is an error of kind "mmv_item".
	RepeatedItems bool
	// SkipRefused reads a file as pmdammv serves it: a metric whose item
	// is above 1023 or repeats an earlier one, whose type or semantics is
	// unknown, or whose instance domain is not in the file is left out
	// (see [File.Skips]) instead of failing the whole file, and so are
	// its values. Damage to the file's structure is still an error.
	SkipRefused bool
}

// The default limits: pmdammv's bounds for metrics and labels, 4096
// indoms (each metric's indom is found by a scan) and a million values.
const (
	DefaultMaxTOCs    = 16
	DefaultMaxMetrics = MaxItem
	DefaultMaxIndoms  = 4096
	DefaultMaxLabels  = 255
	DefaultMaxValues  = 1 << 20
)

// withDefaults replaces each zero (or negative) limit by its default.
func (o Options) withDefaults() Options {
	o.MaxTOCs = wire.Default(o.MaxTOCs, DefaultMaxTOCs)
	o.MaxMetrics = wire.Default(o.MaxMetrics, DefaultMaxMetrics)
	o.MaxIndoms = wire.Default(o.MaxIndoms, DefaultMaxIndoms)
	o.MaxLabels = wire.Default(o.MaxLabels, DefaultMaxLabels)
	o.MaxValues = wire.Default(o.MaxValues, DefaultMaxValues)
	return o
}

// header is Header as a File keeps it: not comparable, so that the
// File's type (which the wasm modules allocate) does not link Header's
// equality function (module size; see wasm/size).
type header struct {
	_       [0]func()
	Version int32
	Gen1    uint64
	Gen2    uint64
	TOCs    int32
	Flags   Flags
	Process int32
	Cluster int32
}

// Skip is a metric a reader with [Options.SkipRefused] left out: which
// entry, and the error that would have refused the file.
type Skip struct {
	_      [0]func() // not comparable: no equality function in the wasm build
	Metric int       // index of the metric entry
	Err    error     // a *ParseError naming the field, the rule and the offset
}

// section is one TOC entry after validation.
type section struct {
	off   uint64
	count int
	toc   int // TOC index, -1 when absent
}

// File is a validated view of an MMV file, made by [Parse]. It is a
// value: copying it is cheap and copies share the bytes. Metadata (names, types, instances,
// help, labels) is checked once by [Parse]; values are read from the
// bytes on every call, so a File over a live shared mapping sees
// updates without being rebuilt, and [File.Stale] tells when the
// writer has republished its metadata.
type File struct {
	b    []byte
	big  bool
	hdr  header
	isz  uint64 // instance entry size
	msz  uint64 // metric entry size
	sect [7]section
	// skips and refused (a bit per metric entry) are nil unless a
	// metric was left out under Options.SkipRefused.
	skips   []Skip
	refused []uint64
}

// Skips returns the metrics left out under [Options.SkipRefused], in file
// order; nil when none was.
func (r *File) Skips() []Skip { return r.skips }

// Refused reports whether metric entry i was left out.
func (r *File) Refused(i int) bool {
	return r.refused != nil && r.refused[i/64]&(1<<(i%64)) != 0
}

// refuse leaves metric i out for err.
func (r *File) refuse(i int, err error) {
	if r.refused == nil {
		r.refused = make([]uint64, (r.sect[SectionMetrics].count+63)/64)
	}
	r.refused[i/64] |= 1 << (i % 64)
	r.skips = append(r.skips, Skip{Metric: i, Err: err})
}

// probe decides a binary.ByteOrder's direction without allocating.
var probe = [2]byte{0, 1}

// isBig reports whether order is big-endian; nil means little-endian.
func isBig(order binary.ByteOrder) bool { return order != nil && order.Uint16(probe[:]) == 1 }

// Parse validates b as an MMV file and returns a view of it. It
// checks everything pmdammv checks and more (see the package
// documentation); on failure it returns a *[ParseError] wrapping one of
// the kinds in this package, with the section, entry and byte offset, and
// the value and limit where a number broke one. It does not allocate on
// success (except to record skips under [Options.SkipRefused]). The
// File keeps b; b must not be shrunk.
func Parse(b []byte, o Options) (File, error) {
	lim := o.withDefaults()
	r := File{b: b, big: isBig(o.Order)}
	// A failure, as fail takes it: entry i of the section what (what
	// alone when i < 0) and its member, the offset, the kind, and the
	// value and the limit it broke when limit >= 0. Each check's failures
	// are written by one fail call, and the zero File is returned
	// twice: in WebAssembly a call, or a zeroed File, per failure path
	// is code (module size; see wasm/size).
	what, i, member, off, kind, value, limit := "header", -1, "", uint64(len(b)), error(ErrTruncated), int64(0), int64(-1)
	h := &r.hdr
	var err error
	if len(b) < HeaderSize {
		goto bad
	}
	h.Version = int32(r.u32Cold(4))
	h.Gen1, h.Gen2 = r.u64(8), r.u64(16)
	h.TOCs = int32(r.u32Cold(24))
	h.Flags = Flags(r.u32Cold(28))
	h.Process = int32(r.u32Cold(32))
	h.Cluster = int32(r.u32Cold(36))
	r.isz, r.msz = InstanceSizeV2, MetricSizeV2
	if h.Version == 1 {
		r.isz, r.msz = InstanceSizeV1, MetricSizeV1
	}
	what, off, kind = "header.magic", 0, ErrMagic
	switch {
	case string(b[:4]) != Magic:
	case h.Version < 1 || h.Version > 3:
		what, off, kind = "header.version", 4, ErrVersion
	case h.Gen1 == 0 || h.Gen1 != h.Gen2:
		what, off, kind = "header.g2", 16, ErrGeneration
	case h.TOCs < 2:
		what, off, kind = "header.tocs", 24, ErrCount
	case int(h.TOCs) > lim.MaxTOCs:
		what, off, kind, value, limit = "header.tocs", 24, ErrLimit, int64(h.TOCs), int64(lim.MaxTOCs)
	case uint64(HeaderSize)+uint64(h.TOCs)*TOCEntrySize > uint64(len(b)):
		what, off, kind = "toc", HeaderSize, ErrTruncated
	case h.Cluster < 0 || h.Cluster > MaxCluster:
		what, off, kind, value, limit = "header.cluster", 36, ErrRange, int64(h.Cluster), MaxCluster
	default:
		kind = nil
	}
	if kind != nil {
		goto bad
	}
	// The TOC: each known section, inside the file.
	for k := range r.sect {
		r.sect[k].toc = -1
	}
	what = "toc"
	for i = 0; i < int(h.TOCs); i++ {
		at := uint64(HeaderSize + i*TOCEntrySize)
		typ := Section(r.u32Cold(int(at)))
		count := int32(r.u32Cold(int(at) + 4))
		start := r.u64(int(at) + 8)
		if typ < SectionIndoms || typ > SectionLabels || typ == SectionLabels && h.Version < 3 {
			// pmdammv ignores TOC types it does not know.
			continue
		}
		s := &r.sect[typ]
		max := lim.MaxValues
		switch typ {
		case SectionMetrics:
			max = lim.MaxMetrics
		case SectionIndoms:
			max = lim.MaxIndoms
		case SectionLabels:
			max = lim.MaxLabels
		}
		member, off = "offset", at+8
		switch {
		case s.toc >= 0:
			member, off, kind = "type", at, errTOC
		case count < 0:
			member, off, kind = "count", at+4, ErrCount
		case int(count) > max:
			member, off, kind, value, limit = "count", at+4, ErrLimit, int64(count), int64(max)
		case start > uint64(len(b)) || uint64(count)*r.entrySize(typ) > uint64(len(b))-start:
			kind = errBounds
		case count > 0 && start < HeaderSize+uint64(h.TOCs)*TOCEntrySize:
			// An entry array overlapping the header or the TOC is no
			// writer's layout; reading it would alias the metadata.
			kind = errOffset
		}
		if kind != nil {
			goto bad
		}
		*s = section{off: start, count: int(count), toc: i}
	}
	i, off, kind = -1, HeaderSize, errMissing
	if r.sect[SectionMetrics].toc < 0 {
		what = "toc.metrics"
		goto bad
	}
	if r.sect[SectionValues].toc < 0 {
		what = "toc.values"
		goto bad
	}
	err = r.checkIndoms()
	if err == nil {
		err = r.checkInstances()
	}
	if err == nil {
		err = r.checkMetrics(lim.RepeatedItems, lim.SkipRefused)
	}
	if err == nil {
		err = r.checkValues()
	}
	if err == nil {
		err = r.checkLabels()
	}
	if err == nil {
		return r, nil
	}
	return File{}, err
bad:
	return File{}, fail(what, i, member, off, kind, value, limit)
}

// entrySize returns the size of one entry of section s in this version.
func (r *File) entrySize(s Section) uint64 {
	switch s {
	case SectionIndoms, SectionValues:
		return 32
	case SectionInstances:
		return r.isz
	case SectionMetrics:
		return r.msz
	}
	return 256
}

// sectionNames name the sections in errors, indexed by Section.
var sectionNames = [7]string{"toc", "indoms", "instances", "metrics", "values", "strings", "labels"}

// index returns the entry index that offset off denotes in section s, or
// -1 when off is not the start of one of its entries.
func (r *File) index(s Section, off uint64) int {
	sec := &r.sect[s]
	if sec.toc < 0 || off < sec.off {
		return -1
	}
	d := off - sec.off
	q, rem := divSize(d, r.entrySize(s))
	if rem != 0 || q >= uint64(sec.count) {
		return -1
	}
	return int(q)
}

// at returns the file offset of entry i of section s.
func (r *File) at(s Section, i int) int {
	return int(r.sect[s].off + uint64(i)*r.entrySize(s))
}

// stringKind checks a string reference: 256 bytes inside the file with
// a NUL among them. Zero means "no string" where allowZero is set. It
// returns the failure's kind, nil for a good reference.
func (r *File) stringKind(off uint64, allowZero bool) error {
	if off == 0 && allowZero {
		return nil
	}
	if off > uint64(len(r.b)) || uint64(len(r.b))-off < StringSize {
		return errBounds
	}
	if nul(r.b[off:off+StringSize]) < 0 {
		return errString
	}
	return nil
}

// nameKind checks an entry's name at at: inline in a v1 file (a NUL
// within its 64 bytes, not first), a string reference in later ones (a
// string, not empty). It returns the failure's kind, nil for a good
// name.
func (r *File) nameKind(at uint64) error {
	off, max, empty := at, uint64(NameSizeV1), error(errString)
	if r.hdr.Version != 1 {
		off, max, empty = r.u64(int(at)), StringSize, errName
	}
	// A v1 name lies inside its entry, which the TOC's check put inside
	// the file: only a reference can fail here.
	if off > uint64(len(r.b)) || uint64(len(r.b))-off < max {
		return errBounds
	}
	switch n := nul(r.b[off : off+max]); {
	case n < 0:
		return errString
	case n == 0:
		return empty
	}
	return nil
}

// helpMembers name the two help text references of an entry.
var helpMembers = [2]string{"shorttext", "helptext"}

// checkHelp checks an entry's two help text references at at: it
// returns the failing one's member, offset and kind, a nil kind when
// both are good.
func (r *File) checkHelp(at uint64) (string, uint64, error) {
	for m, name := range helpMembers {
		f := at + uint64(8*m)
		if kind := r.stringKind(r.u64(int(f)), true); kind != nil {
			return name, f, kind
		}
	}
	return "", 0, nil
}

// nul returns the index of the first NUL in b, or -1: bytes.IndexByte,
// which reads a word at a time in WebAssembly (a byte loop there took
// a tenth of mmv_read's time on a file with long help texts) and a
// vector natively.
func nul(b []byte) int { return bytes.IndexByte(b, 0) }

// The checks of each section: a failure sets the entry's member, the
// offset and the kind, and fail builds the error once per check.

func (r *File) checkIndoms() error {
	s := r.sect[SectionIndoms]
	for i := 0; i < s.count; i++ {
		at := uint64(r.at(SectionIndoms, i))
		serial, count, first := r.u32Cold(int(at)), r.u32Cold(int(at)+4), r.u64(int(at)+8)
		member, off, kind := "serial", at, error(nil)
		if serial == 0 || serial == 0xffffffff {
			kind = ErrField
		} else if count > 0 {
			k := r.index(SectionInstances, first)
			if k < 0 || uint64(k)+uint64(count) > uint64(r.sect[SectionInstances].count) {
				member, off, kind = "offset", at+8, errOffset
			}
		}
		if kind == nil {
			member, off, kind = r.checkHelp(at + 16)
		}
		if kind != nil {
			return fail("indoms", i, member, off, kind, 0, -1)
		}
	}
	return nil
}

func (r *File) checkInstances() error {
	s := r.sect[SectionInstances]
	for i := 0; i < s.count; i++ {
		at := uint64(r.at(SectionInstances, i))
		member, off, kind := "indom", at, error(nil)
		if d := r.index(SectionIndoms, r.u64(int(at))); d < 0 {
			kind = errOffset
		} else {
			// The instance must lie inside its indom's instance array.
			ind := r.at(SectionIndoms, d)
			first := r.index(SectionInstances, r.u64(ind+8))
			if first < 0 || i < first || uint64(i) >= uint64(first)+uint64(r.u32Cold(ind+4)) {
				kind = errInstance
			} else {
				member, off, kind = "name", at+16, r.nameKind(at+16)
			}
		}
		if kind != nil {
			return fail("instances", i, member, off, kind, 0, -1)
		}
	}
	return nil
}

func (r *File) checkMetrics(repeatOK, skip bool) error {
	var seen [(MaxItem + 1) / 64]uint64
	s := r.sect[SectionMetrics]
	for i := 0; i < s.count; i++ {
		at := uint64(r.at(SectionMetrics, i))
		base := at
		member, off, kind, value, limit := "name", at, r.nameKind(at), int64(0), int64(-1)
		if r.hdr.Version == 1 {
			base = at + NameSizeV1 - 8 // v1 fields follow the name array
		}
		if kind == nil {
			// The rules pmdammv applies to one metric (item) and the ones
			// a reader needs to serve it (type, semantics, indom): under
			// SkipRefused a metric breaking one is left out, not the file.
			item := r.u32Cold(int(base) + 8)
			member, off = "item", base+8
			switch sem := pcp.Sem(int32(r.u32Cold(int(base) + 16))); {
			case item > MaxItem:
				kind, value, limit = ErrRange, int64(item), MaxItem
			case seen[item/64]&(1<<(item%64)) != 0 && !repeatOK:
				kind = errItem
			case !Type(int32(r.u32Cold(int(base) + 12))).Valid():
				member, off, kind = "type", base+12, ErrType
			case sem != 0 && sem != pcp.SemCounter && sem != pcp.SemInstant && sem != pcp.SemDiscrete:
				member, off, kind = "semantics", base+16, ErrField
			default:
				if serial := r.u32Cold(int(base) + 24); serial != 0 && serial != 0xffffffff && r.indomBySerial(serial) < 0 {
					member, off, kind = "indom", base+24, errInDom
				}
			}
			if kind == nil {
				seen[item/64] |= 1 << (item % 64)
			} else if skip {
				r.refuse(i, fail("metrics", i, member, off, kind, value, limit))
				kind, limit = nil, -1
			}
			if kind == nil {
				member, off, kind = r.checkHelp(base + 32)
			}
		}
		if kind != nil {
			return fail("metrics", i, member, off, kind, value, limit)
		}
	}
	return nil
}

// indomBySerial returns the index of the indom with the serial, or -1.
func (r *File) indomBySerial(serial uint32) int {
	for i := 0; i < r.sect[SectionIndoms].count; i++ {
		if r.u32(r.at(SectionIndoms, i)) == serial {
			return i
		}
	}
	return -1
}

func (r *File) checkValues() error {
	s := r.sect[SectionValues]
	// Writers lay a metric's values out one after the other, over its
	// instances in order: the last value's metric (0 is no metric's
	// offset), its instance's index and indom word (0 is no instance's)
	// are kept, and only a value that does not follow them is looked up.
	var lastM, lastIndom uint64
	mi, k := -1, -1
	var serial uint32
	var typ Type
	for i := 0; i < s.count; i++ {
		at := r.at(SectionValues, i)
		// One reslice: the reads below index the entry's last 16 bytes.
		e := r.b[at+16 : at+ValueSize]
		moff, inst := binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:])
		if r.big {
			moff, inst = bits.ReverseBytes64(moff), bits.ReverseBytes64(inst)
		}
		if moff != lastM {
			lastM, lastIndom = moff, 0
			if mi = r.index(SectionMetrics, moff); mi >= 0 {
				// Only the metric's indom and type matter here; decoding
				// the whole entry (names, help) per value would dominate
				// the cost.
				mbase := r.at(SectionMetrics, mi) + int(r.msz) - 48
				serial, typ = r.u32(mbase+24), Type(int32(r.u32(mbase+12)))
			}
		}
		member, off, kind := "metric", uint64(at)+16, error(nil)
		if mi < 0 {
			kind = errOffset
		} else if r.Refused(mi) {
			continue // left out with its metric; Values skips it
		} else {
			member, off = "instance", uint64(at)+24
			if serial == 0 || serial == 0xffffffff {
				if inst != 0 {
					kind = errInstance
				}
			} else {
				if k >= 0 && k < r.sect[SectionInstances].count-1 && inst == uint64(r.at(SectionInstances, k+1)) {
					k++
				} else {
					k = r.index(SectionInstances, inst)
				}
				if k < 0 {
					kind = errOffset
				} else if w := r.u64(int(inst)); w != lastIndom {
					if d := r.index(SectionIndoms, w); r.u32(r.at(SectionIndoms, d)) != serial {
						kind = errInstance
					}
					lastIndom = w
				}
			}
			if kind == nil && typ == TypeString {
				member, off = "extra", uint64(at)+8
				kind = r.stringKind(r.u64(at+8), false)
			}
		}
		if kind != nil {
			return fail("values", i, member, off, kind, 0, -1)
		}
	}
	return nil
}

func (r *File) checkLabels() error {
	s := r.sect[SectionLabels]
	for i := 0; i < s.count; i++ {
		at := uint64(r.at(SectionLabels, i))
		member, off, kind := "flags", at, error(ErrField)
		if LabelFlags(r.u32Cold(int(at))).valid() {
			p := r.b[at+12 : at+LabelSize]
			member, off, kind = "payload", at+12, errString
			if n := nul(p); n >= 0 {
				kind = nil
				if e := checkLabel(p[:n]); e >= 0 {
					off, kind = at+12+uint64(e), errLabel
				}
			}
		}
		if kind != nil {
			return fail("labels", i, member, off, kind, 0, -1)
		}
	}
	return nil
}

// Header returns the file header.
func (r *File) Header() Header {
	h := &r.hdr
	return Header{Version: h.Version, Gen1: h.Gen1, Gen2: h.Gen2, TOCs: h.TOCs, Flags: h.Flags, Process: h.Process, Cluster: h.Cluster}
}

// Bytes returns the bytes the File views.
func (r *File) Bytes() []byte { return r.b }

// Stale reports whether the writer has changed the generation since
// Parse validated the file: the metadata may then have moved, and
// the caller must Parse again before trusting names or offsets.
// Values read before the change are still from inside the file.
func (r *File) Stale() bool {
	return r.u64(8) != r.hdr.Gen1 || r.u64(16) != r.hdr.Gen2
}

// cstring returns the NUL-terminated text at off, at most max-1 bytes: a
// live writer may have removed the NUL, and pmdammv then stops at the
// field's last byte. It returns nil when off is outside the file.
func (r *File) cstring(off uint64, max int) []byte {
	if off > uint64(len(r.b)) {
		return nil
	}
	s := r.b[off:]
	if len(s) > max-1 {
		s = s[:max-1]
	}
	if n := nul(s); n >= 0 {
		s = s[:n]
	}
	return s[:len(s):len(s)]
}

// helpText returns the help string a reference points at, nil for 0.
func (r *File) helpText(off uint64) []byte {
	if off == 0 {
		return nil
	}
	return r.cstring(off, StringSize)
}

// f32 and f64 decode IEEE bits.
func f32(bits uint32) float64 { return float64(math.Float32frombits(bits)) }
func f64(bits uint64) float64 { return math.Float64frombits(bits) }

// Reader is the name File had: a Reader in this SDK reads an io.Reader.
//
// Deprecated: use [File].
type Reader = File

// NewReader is the name Parse had.
//
// Deprecated: use [Parse].
func NewReader(b []byte, o Options) (File, error) { return Parse(b, o) }
