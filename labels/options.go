package labels

// Hard limits of the PCP label format. They follow from the widths of the
// index fields (16-bit offsets, 8-bit name length) and from libpcp's
// PM_MAXLABELS and PM_MAXLABELJSONLEN.
const (
	// MaxJSONLen is the largest JSON text of one set (jsonlen < 65535).
	MaxJSONLen = 65534
	// MaxNameLen is the longest full (dotted) label name.
	MaxNameLen = 254
	// MaxLabelsArchive is the most labels one archive label set can hold;
	// LABEL PDUs hold one fewer (DefaultLimits.MaxLabels).
	MaxLabelsArchive = 255
	// maxDepthHard bounds the recursion of the parser whatever the
	// caller's MaxDepth; libpcp's tokenizer stops at the same level.
	maxDepthHard = 256
)

// Limits bound what Parse and the other decoders accept. Zero fields take
// the value in [DefaultLimits]; values above the hard limits are clamped to
// them.
type Limits struct {
	MaxLabels  int // labels per set after flattening (default 254)
	MaxJSONLen int // bytes of JSON, input and output (default 65534)
	MaxNameLen int // bytes of a full dotted name (default 254)
	MaxDepth   int // nesting of objects and arrays, the outer object being 1 (default 64)
}

// DefaultLimits are the limits of a LABEL PDU, which are the tightest PCP
// applies anywhere.
var DefaultLimits = Limits{MaxLabels: 254, MaxJSONLen: MaxJSONLen, MaxNameLen: MaxNameLen, MaxDepth: 64}

// resolve fills zero fields from DefaultLimits and clamps to the hard
// limits.
func (l Limits) resolve() Limits {
	pick := func(v, def, hard int) int {
		if v <= 0 {
			v = def
		}
		return min(v, hard)
	}
	return Limits{
		MaxLabels:  pick(l.MaxLabels, DefaultLimits.MaxLabels, MaxLabelsArchive),
		MaxJSONLen: pick(l.MaxJSONLen, DefaultLimits.MaxJSONLen, MaxJSONLen),
		MaxNameLen: pick(l.MaxNameLen, DefaultLimits.MaxNameLen, MaxNameLen),
		MaxDepth:   pick(l.MaxDepth, DefaultLimits.MaxDepth, maxDepthHard),
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

// Options control Parse. The zero value (or a nil *Options) parses with
// Relaxed names, rejects invalid keys, forbids dotted names, emits the
// sorted canonical form and applies DefaultLimits.
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
	// Limits bound the input; zero fields take DefaultLimits.
	Limits Limits
}

// defaultOptions is what a nil *Options means.
var defaultOptions Options
