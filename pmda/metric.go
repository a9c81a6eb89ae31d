package pmda

import "github.com/perfwire/perfwire/pcp"

// Metric declares one metric. New replaces the domain bits of PMID and of
// InDom with [Options.Domain], so tables can be written with domain 0.
type Metric struct {
	Name  string // full PMNS name, e.g. "simple.numfetch"
	PMID  pcp.ID // pcp.NewID(0, cluster, item)
	Type  pcp.Type
	Sem   pcp.Sem
	Units pcp.Units
	// InDom is pcp.InDomNull for a singular metric, else the instance
	// domain (pcp.NewInDom(0, serial)), which must be declared in
	// [Options.InDoms].
	InDom pcp.InDom
	// OneLine and Help are the texts pminfo -t and -T print; an empty
	// text is answered with PM_ERR_TEXT.
	OneLine, Help string
	// Labels is a JSON object of item-level labels, or "".
	Labels string
	// Writable lets pmstore reach [Options.Store] for this metric.
	Writable bool
}

// Instance is one member of an instance domain. PCP matches a name given
// to pmNameInDom's opposite direction either whole or up to its first
// space, so the first word of each name should be unique.
type Instance struct {
	ID     int32
	Name   string
	Labels string // JSON object of instance labels, or ""
}

// InDom declares an instance domain and its initial instances; change them
// later with [Agent.SetInstances].
type InDom struct {
	InDom         pcp.InDom // pcp.NewInDom(0, serial)
	Instances     []Instance
	OneLine, Help string
	Labels        string // JSON object of indom-level labels, or ""
}
