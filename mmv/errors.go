package mmv

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error every failing function of this package returns
// (wrapped or directly): the section and entry that failed as Field (for
// example "metrics[3].name"), the byte offset from the start of the file,
// and one of the sentinel kinds below as Err. Use errors.Is with a
// sentinel, and errors.AsType[*mmv.ParseError] for the offset.
type ParseError = wire.Error

// Sentinel kinds. The reader's kinds describe a file; the writer's kinds
// describe a [Registry] that cannot be laid out.
var (
	ErrTruncated   = errors.New("mmv: file too short")
	ErrBadMagic    = errors.New("mmv: bad magic (want MMV\\0)")
	ErrVersion     = errors.New("mmv: unsupported version")
	ErrGeneration  = errors.New("mmv: generation in flux (g1 is 0 or differs from g2)")
	ErrTOC         = errors.New("mmv: bad table of contents")
	ErrCluster     = errors.New("mmv: cluster outside 0..4095")
	ErrMissing     = errors.New("mmv: mandatory section missing")
	ErrBounds      = errors.New("mmv: section or entry outside the file")
	ErrOffset      = errors.New("mmv: offset does not point at an entry of the right section")
	ErrString      = errors.New("mmv: string not NUL-terminated within its field")
	ErrItem        = errors.New("mmv: item above 1023 or repeated")
	ErrType        = errors.New("mmv: unknown metric type")
	ErrSem         = errors.New("mmv: unknown semantics")
	ErrInDom       = errors.New("mmv: bad instance domain")
	ErrInstance    = errors.New("mmv: bad instance")
	ErrLabel       = errors.New("mmv: bad label")
	ErrLimit       = errors.New("mmv: count above the configured limit")
	ErrName        = errors.New("mmv: bad metric or instance name")
	ErrTooLong     = errors.New("mmv: text too long for its slot")
	ErrValueType   = errors.New("mmv: operation does not fit the metric type")
	ErrNoSuchEntry = errors.New("mmv: no such metric or instance")
)

// fail builds a ParseError; it exists so failure paths stay one line.
func fail(field string, off uint64, kind error) error {
	return &wire.Error{Format: "mmv", Field: field, Offset: int64(off), Err: kind}
}

// entryField names entry i of a section, e.g. "metrics[3].name"; it is
// called only on failure paths, so its allocation does not matter.
func entryField(section string, i int, member string) string {
	b := make([]byte, 0, len(section)+len(member)+12)
	b = append(b, section...)
	b = append(b, '[')
	b = appendInt(b, int64(i))
	b = append(b, ']')
	if member != "" {
		b = append(b, '.')
		b = append(b, member...)
	}
	return string(b)
}
