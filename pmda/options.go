package pmda

import (
	"context"
	"io"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Options configure [New]. Domain and Name are required; every callback is
// optional.
type Options struct {
	// Domain is the PMDA's domain number (1…510), as in pmcd.conf.
	Domain int
	// Name is the agent's name, as in pmcd.conf ("simple").
	Name string

	Metrics []Metric
	InDoms  []InDom

	// DomainLabels and ClusterLabels (by cluster number) are JSON objects
	// of labels at those levels.
	DomainLabels  string
	ClusterLabels map[uint32]string

	// Attributes asks pmcd for its clients' attributes (user, container,
	// …), which [ClientOf] then returns in every callback.
	Attributes bool

	// Fetch sets v to the value of instance inst (pcp.InNull for a
	// singular metric) of metric m. Returning nil without setting v, or
	// [ErrNoValue], leaves that instance out; a pcp.Code (PM_ERR_INST,
	// PM_ERR_AGAIN, …) leaves it out too and, if no instance of the
	// metric has a value, becomes the metric's status in the RESULT.
	Fetch func(ctx context.Context, m *Metric, inst int32, v *Value) error

	// Refresh runs once per FETCH, before the first value, with the
	// requested pmIDs (a view valid during the call). An error answers
	// the whole FETCH with that code.
	Refresh func(ctx context.Context, pmids []pcp.ID) error

	// Instance runs before an INSTANCE_REQ for indom is answered, the
	// place to refresh a dynamic instance domain; an error answers the
	// request with that code.
	Instance func(ctx context.Context, indom pcp.InDom) error

	// Store receives the value set of each metric of a pmstore, in
	// order, for metrics declared Writable; the first error is the
	// answer. Unknown metrics answer PM_ERR_PMID, read-only ones (or all
	// of them when Store is nil) PM_ERR_PERMISSION.
	Store func(ctx context.Context, m *Metric, vs pduwire.ValueSet) error

	// Text, if set, is asked first for help text (kind is
	// pduwire.TextOneline or pduwire.TextHelp ORed with TextPMID or
	// TextInDom); returning "" falls back to the declared texts.
	Text func(ctx context.Context, ident uint32, kind int32) string

	// Namespace answers the dynamic namespace requests; nil answers them
	// as libpcp_pmda's defaults do (PM_ERR_NAME, PM_ERR_PMID).
	Namespace Namespace

	// EndContext is told when a client context closes.
	EndContext func(ctx int32)

	// Logf receives diagnostics; nil writes them to stderr, which pmcd
	// redirects to the PMDA's log file.
	Logf func(format string, args ...any)

	// Capture, if set, receives a copy of every PDU read from pmcd, the
	// stream PCP's tools and this package's fuzz seeds are made of.
	Capture io.Writer

	Limits Limits
}

// Namespace is a dynamic namespace below the PMDA's root (pmcd.conf names
// it with a DOMAIN:*:* entry in the PMNS). Errors should be pcp.Code
// values: PM_ERR_NAME for a name that does not exist, PM_ERR_PMID for an
// unknown pmID.
type Namespace interface {
	// PMID resolves a full metric name.
	PMID(ctx context.Context, name string) (pcp.ID, error)
	// Names returns every name of id.
	Names(ctx context.Context, id pcp.ID) ([]string, error)
	// Children returns the next components below name and whether each
	// is a leaf or, with traverse, the full names of every leaf below.
	Children(ctx context.Context, name string, traverse bool) (names []string, leaf []bool, err error)
}

// Limits bound what the agent accepts; each zero field takes its default.
type Limits struct {
	// MaxPDULen is the longest PDU read from pmcd, default 1 MiB (pmcd
	// forwards client requests of at most 64 KiB).
	MaxPDULen int
	// MaxPMIDs is the most pmIDs one FETCH may name, default 32768 (pmcd
	// -M's default); more are answered with PM_ERR_TOOBIG.
	MaxPMIDs int
	// MaxResultLen bounds a RESULT; a fetch whose values would exceed it
	// is answered with PM_ERR_TOOBIG. Default 16 MiB.
	MaxResultLen int
	// CallTimeout bounds each request's callbacks, default 4 s, under
	// pmcd's own 5 s; an overrun is answered with PM_ERR_AGAIN.
	CallTimeout time.Duration
	// MaxContexts bounds the client contexts whose attributes are kept,
	// default 1024; attributes of further contexts are dropped.
	MaxContexts int
}

func (l Limits) withDefaults() Limits {
	if l.MaxPDULen <= 0 {
		l.MaxPDULen = 1 << 20
	}
	if l.MaxPMIDs <= 0 {
		l.MaxPMIDs = 32768
	}
	if l.MaxResultLen <= 0 {
		l.MaxResultLen = 16 << 20
	}
	if l.CallTimeout <= 0 {
		l.CallTimeout = 4 * time.Second
	}
	if l.MaxContexts <= 0 {
		l.MaxContexts = 1024
	}
	return l
}
