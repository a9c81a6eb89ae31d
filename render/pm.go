package render

import (
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
)

// NewPMDesc is metric name's descriptor in the keys and text of Desc.
func NewPMDesc(name string, d pduwire.Desc) schema.PMDesc {
	s := desc(d)
	return schema.PMDesc{Name: name, PMID: s.PMID, Type: s.Type, InDom: s.InDom, Sem: s.Sem, Units: s.Units}
}
