package labels

import "github.com/perfwire/perfwire/internal/wire"

// Hard limits of the PCP label format. They follow from the widths of the
// index fields (16-bit offsets, 8-bit name length) and from libpcp's
// PM_MAXLABELS and PM_MAXLABELJSONLEN.
const (
	// MaxJSONLen is the largest JSON text of one set (jsonlen < 65535).
	MaxJSONLen = 65534
	// MaxNameLen is the longest full (dotted) label name.
	MaxNameLen = 254
	// MaxLabelsArchive is the most labels one archive label set can hold;
	// LABEL PDUs hold one fewer (DefaultMaxLabels).
	MaxLabelsArchive = 255
	// maxDepthHard bounds the recursion of the parser whatever the
	// caller's MaxDepth; libpcp's tokenizer stops at the same level.
	maxDepthHard = 256
)

// The default limits: those of a LABEL PDU, which are the tightest PCP
// applies anywhere.
const (
	DefaultMaxLabels  = 254        // labels per set after flattening
	DefaultMaxJSONLen = MaxJSONLen // bytes of JSON, input and output
	DefaultMaxNameLen = MaxNameLen // bytes of a full dotted name
	DefaultMaxDepth   = 64         // nesting of objects and arrays
)

// Limits bound what Parse and the other decoders accept. Each zero field
// takes its own default (DefaultMaxLabels, DefaultMaxJSONLen,
// DefaultMaxNameLen, DefaultMaxDepth); values above the hard limits are
// clamped to them.
type Limits struct {
	MaxLabels  int // labels per set after flattening (default 254, at most 255)
	MaxJSONLen int // bytes of JSON, input and output (default and most 65534)
	MaxNameLen int // bytes of a full dotted name (default and most 254)
	MaxDepth   int // nesting of objects and arrays, the outer object being 1 (default 64, at most 256)
}

// resolve fills zero fields with their defaults and clamps to the hard
// limits.
func (l Limits) resolve() Limits {
	pick := func(v, def, hard int) int { return min(wire.Default(v, def), hard) }
	return Limits{
		MaxLabels:  pick(l.MaxLabels, DefaultMaxLabels, MaxLabelsArchive),
		MaxJSONLen: pick(l.MaxJSONLen, DefaultMaxJSONLen, MaxJSONLen),
		MaxNameLen: pick(l.MaxNameLen, DefaultMaxNameLen, MaxNameLen),
		MaxDepth:   pick(l.MaxDepth, DefaultMaxDepth, maxDepthHard),
	}
}

// NameRules selects which label names are legal.
type NameRules uint8

const (
	// Relaxed is the PCP ≥ 7.2 rule: ASCII letters, digits and '_', in any
	// order. It accepts every name any PCP version produces, so it is the
	// default for decoding.
	Relaxed NameRules = iota
	// Classic is the PCP 4.3.3–7.1 rule: Relaxed plus a leading ASCII
	// letter. Builders use it so that every PCP and libpcp_mmv accepts
	// their output.
	Classic
)

// Options control Parse. The zero value parses with Relaxed names,
// rejects invalid keys, forbids dotted names, emits the sorted canonical
// form and applies the default limits.
type Options struct {
	// Names selects the naming rule; each component of a flattened name
	// is checked on its own.
	Names NameRules
	// SkipInvalidKeys drops a key with an illegal name together with its
	// whole value, as PCP ≥ 7.2 does, instead of rejecting the set. A set
	// whose every key is dropped is still rejected with ErrName.
	SkipInvalidKeys bool
	// Dotted accepts '.' inside a key, as libpcp's compound mode does for
	// context label files and merges; each dot-separated component must
	// be a legal name.
	Dotted bool
	// KeepOrder writes the JSON in input key order, as libpcp's first
	// parse does (its single-parse form); the index is sorted either way.
	KeepOrder bool
	// Flags is ORed into every label's flags: the hierarchy level and
	// Optional. Compound is added by the parser to dotted names.
	Flags Flags
	// Limits bound the input; each zero field takes its default.
	Limits Limits
}
