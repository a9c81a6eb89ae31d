package archive

// Options bound what reading an archive may cost. Each zero field means
// its default.
type Options struct {
	// MaxRecordLen is the largest record accepted, framing included. A
	// larger length is reported as ErrLimit before anything is allocated.
	MaxRecordLen int
	// MaxInstances bounds the instances held for all instance domain
	// records together (a delta record counts the whole domain it
	// yields).
	MaxInstances int
	// MaxMetaRecords bounds the number of .meta records.
	MaxMetaRecords int
}

// Defaults of Options.
const (
	DefaultMaxRecordLen   = 64 << 20
	DefaultMaxInstances   = 1 << 24
	DefaultMaxMetaRecords = 1 << 24
)

func (o Options) withDefaults() Options {
	if o.MaxRecordLen <= 0 {
		o.MaxRecordLen = DefaultMaxRecordLen
	}
	if o.MaxInstances <= 0 {
		o.MaxInstances = DefaultMaxInstances
	}
	if o.MaxMetaRecords <= 0 {
		o.MaxMetaRecords = DefaultMaxMetaRecords
	}
	return o
}
