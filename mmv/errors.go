package mmv

import "github.com/perfwire/perfwire/internal/wire"

// ParseError is the error every failing function of this package returns
// (wrapped or directly): the section and entry that failed as Field (for
// example "metrics[3].name"), the byte offset from the start of the file,
// one of the kinds below as Err, and the value and limit where a number
// broke one. Use errors.Is with a kind, and errors.AsType[*mmv.ParseError]
// for the offset.
type ParseError = wire.Error

// Error kinds. The reader's kinds describe a file; the writer's describe
// a [Registry] that cannot be laid out. Of MMV's own kinds, only those a
// caller branches on are exported (see the package doc); the rest are
// told apart by their Code. Those every format shares are
// internal/wire's, aliased (the same values in every package); the rest are MMV's own. Messages carry no
// package prefix (the ParseError adds it once), and each kind has a
// stable Code for the wasm ABI.
var (
	// ErrTruncated: the file ends inside the header or the table of
	// contents, or a buffer is shorter than its plan.
	ErrTruncated = &wire.Truncated
	// ErrMagic: the file does not start with "MMV\0".
	ErrMagic = &wire.Magic
	// ErrVersion: a version other than 1, 2 or 3, or one too low for
	// what a registry holds.
	ErrVersion = &wire.Version
	// ErrCount: the header's TOC count is below 2, or a section's count
	// is negative.
	ErrCount = &wire.Count
	// ErrLimit: a count above its [Options] limit (or the default
	// limits, for a registry).
	ErrLimit = &wire.Limit
	// ErrRange: a cluster outside 0..4095 or an item above 1023.
	ErrRange = &wire.Range
	// ErrType: a metric type the format does not define (or NOSUPPORT,
	// for a registry).
	ErrType = &wire.Type
	// ErrField: semantics the format does not define, label flags that
	// name no single level, or an indom serial of 0 or 0xffffffff.
	ErrField = &wire.Field

	// ErrGeneration: g1 is 0 or differs from g2 (the writer has not
	// finished its layout), or a registry's Gen is 0.
	ErrGeneration = wire.NewKind("mmv_generation", "generation in flux")
	// errTOC: two TOC entries describe the same section.
	errTOC = wire.NewKind("mmv_toc", "section listed twice in the table of contents")
	// errMissing: the metrics or the values section is missing.
	errMissing = wire.NewKind("mmv_missing", "mandatory section missing")
	// errBounds: a section, entry or string lies outside the file.
	errBounds = wire.NewKind("mmv_bounds", "outside the file")
	// errOffset: an offset does not point at an entry of the right
	// section.
	errOffset = wire.NewKind("mmv_offset", "offset does not point at an entry of the right section")
	// errString: a string has no NUL within its field.
	errString = wire.NewKind("mmv_string", "string not NUL-terminated within its field")
	// errItem: a metric's item repeats an earlier metric's.
	errItem = wire.NewKind("mmv_item", "repeated item")
	// errInDom: a metric's instance domain is not in the file, or a
	// registry defines a serial twice.
	errInDom = wire.NewKind("mmv_indom", "bad instance domain")
	// errInstance: an instance outside its indom's array, a value whose
	// instance does not fit its metric, or a repeated instance.
	errInstance = wire.NewKind("mmv_instance", "bad instance")
	// errLabel: a label payload that is not one {"name":value} member,
	// or a registry label with a bad name or value.
	errLabel = wire.NewKind("mmv_label", "bad label")
	// errName: an empty metric or instance name, or one with characters
	// PCP does not allow.
	errName = wire.NewKind("mmv_name", "bad metric or instance name")
	// ErrTooLong: a text too long for its 256-byte field.
	ErrTooLong = wire.NewKind("mmv_too_long", "text too long for its field")
	// errValueType: a slot operation that does not fit the metric type.
	errValueType = wire.NewKind("mmv_value_type", "operation does not fit the metric type")
	// ErrNoSuchEntry: a lookup of a metric or instance the plan lacks.
	ErrNoSuchEntry = wire.NewKind("mmv_no_such_entry", "no such metric or instance")
)

// fail builds the reader's ParseError: for member of entry i of a
// section (entryField) or, when i < 0, for the field section; with the
// value and the limit a number broke when limit >= 0. Each of the
// reader's checks calls it once.
//
//go:noinline
func fail(section string, i int, member string, off uint64, kind error, value, limit int64) error {
	field := section
	if i >= 0 {
		field = entryField(section, i, member)
	}
	if limit >= 0 {
		return wire.NewValueError("mmv", field, int(off), kind, value, limit)
	}
	return &wire.Error{Format: "mmv", Field: field, Offset: int64(off), Err: kind}
}

// entryField names entry i (0 or more) of a section, e.g.
// "metrics[3].name"; it is called only on failure paths, so its
// allocations do not matter. Its digits are written here, not by
// strconv (module size; see wasm/size).
func entryField(section string, i int, member string) string {
	var d [20]byte
	k := len(d)
	for {
		k--
		d[k] = byte('0' + i%10)
		if i /= 10; i == 0 {
			break
		}
	}
	s := section + "[" + string(d[k:]) + "]"
	if member != "" {
		s += "." + member
	}
	return s
}
