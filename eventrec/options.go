package eventrec

import "github.com/perfwire/perfwire/pcp"

// Default limits; they are far above what any PMDA sends (the sample
// PMDA's largest array has 5 records of at most 6 parameters) and keep a
// hostile count from turning into a long loop.
const (
	DefaultMaxRecords = 1 << 20
	DefaultMaxParams  = 1 << 16
)

// Options tunes [Parse] and [ParseValue]. The zero value is the strict
// default; each zero limit takes its default.
type Options struct {
	// Type is the expected array type, pcp.TypeEvent or
	// pcp.TypeHighResEvent (from the metric's descriptor). Zero (which
	// is never an event type) accepts either.
	Type pcp.Type
	// Lenient accepts what libpcp accepts but the strict mode rejects:
	// an ea_len that is not a multiple of 4, and timestamp fractions out
	// of range (microseconds ≥ 10^6, nanoseconds ≥ 10^9, negative).
	Lenient bool
	// MaxRecords caps ea_nrecords; 0 means DefaultMaxRecords.
	MaxRecords int
	// MaxParams caps er_nparams of one record; 0 means DefaultMaxParams.
	MaxParams int
	// Base is added to every error offset: the array's offset in the PDU
	// or archive record that holds it.
	Base int
}

func (o *Options) maxRecords() int {
	if o.MaxRecords > 0 {
		return o.MaxRecords
	}
	return DefaultMaxRecords
}

func (o *Options) maxParams() int {
	if o.MaxParams > 0 {
		return o.MaxParams
	}
	return DefaultMaxParams
}
