package dltkpi

import (
	"errors"

	"github.com/perfwire/perfwire/internal/wire"
)

// ParseError is the error type of every failed parse in this package: it
// names the field and the byte offset (from the start of the payload or
// of the dataset) and wraps one of the Err* kinds below, so callers test
// with errors.Is and read the offset with errors.AsType[*ParseError].
type ParseError = wire.Error

// format is the Format field of every ParseError built here.
const format = "dltkpi"

// Error kinds. Each failure wraps exactly one of them.
var (
	// ErrTruncated: an argument's header or bytes run past the payload.
	ErrTruncated = errors.New("dltkpi: truncated payload")
	// ErrNotString: an argument is not a DLT string (dlt-kpi only writes strings).
	ErrNotString = errors.New("dltkpi: argument is not a string")
	// ErrNoArguments: the payload holds no argument at all.
	ErrNoArguments = errors.New("dltkpi: no arguments")
	// ErrUnknownKind: the first argument is not NEW, STP, ACT, CHK or IRQ.
	ErrUnknownKind = errors.New("dltkpi: unknown KPI identifier")
	// ErrNoDatasets: a data message holds the identifier and nothing else.
	ErrNoDatasets = errors.New("dltkpi: message without datasets")
	// ErrTooManyArguments: the payload has more arguments than Limits.MaxArguments.
	ErrTooManyArguments = errors.New("dltkpi: too many arguments")
	// ErrSyntax: a dataset does not match its identifier's grammar.
	ErrSyntax = errors.New("dltkpi: malformed dataset")
	// ErrRange: a number in a dataset does not fit its C type.
	ErrRange = errors.New("dltkpi: number out of range")
	// ErrDatasetTooLong: an encoder was given a dataset that can never fit
	// one message (dlt-kpi would flood, docs/dlt-kpi.md §5.2).
	ErrDatasetTooLong = errors.New("dltkpi: dataset larger than a message")
)

func newError(field string, off int, kind error) error {
	return wire.NewError(format, field, off, kind)
}
