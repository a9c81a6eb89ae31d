package pmapi

import (
	"context"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Source is what a reader of metrics needs from where they come from,
// live or recorded: names, descriptors, instance domains, help text,
// label sets and values. *Client satisfies it for a live pmcd and
// *archive.Context for a PCP archive (as of its current time), so one
// consumer serves both, as PMAPI clients serve host and archive contexts.
type Source interface {
	LookupName(ctx context.Context, names ...string) ([]pcp.ID, error)
	NameID(ctx context.Context, id pcp.ID) ([]string, error)
	LookupDesc(ctx context.Context, id pcp.ID) (pduwire.Desc, error)
	GetInDom(ctx context.Context, indom pcp.InDom) ([]Instance, error)
	LookupText(ctx context.Context, id pcp.ID, help bool) (string, error)
	LookupLabelSets(ctx context.Context, kind int32, ident uint32) ([]pduwire.LabelSet, error)
	Fetch(ctx context.Context, ids ...pcp.ID) (pduwire.Result, error)
}

var _ Source = (*Client)(nil)
