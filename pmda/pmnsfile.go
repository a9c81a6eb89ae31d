package pmda

import (
	"slices"
	"strconv"
	"strings"
)

// AppendPMNS appends the agent's static namespace in the text form of
// PCP's pmns files (pmns(5)), which pmnsadd merges into pmcd's root: one
// block per non-leaf node, in the order the metrics first name them, each
// listing its children, a leaf as NAME DOMAIN:CLUSTER:ITEM.
func (a *Agent) AppendPMNS(b []byte) []byte {
	type node struct {
		children []string
		leaf     map[string]string
	}
	nodes := map[string]*node{}
	var order []string
	get := func(path string) *node {
		n, ok := nodes[path]
		if !ok {
			n = &node{leaf: map[string]string{}}
			nodes[path] = n
			order = append(order, path)
		}
		return n
	}
	for _, m := range a.metrics {
		parts := strings.Split(m.Name, ".")
		for i := 1; i < len(parts); i++ {
			parent := strings.Join(parts[:i], ".")
			n := get(parent)
			child := parts[i]
			if _, seen := n.leaf[child]; seen || slices.Contains(n.children, child) {
				continue
			}
			n.children = append(n.children, child)
			if i == len(parts)-1 {
				id := m.PMID
				n.leaf[child] = strconv.Itoa(int(id.Domain())) + ":" + strconv.Itoa(int(id.Cluster())) + ":" + strconv.Itoa(int(id.Item()))
			}
		}
	}
	for i, path := range order {
		if i > 0 {
			b = append(b, '\n')
		}
		n := nodes[path]
		b = append(b, path+" {\n"...)
		for _, c := range n.children {
			b = append(b, '\t')
			b = append(b, c...)
			if id, ok := n.leaf[c]; ok {
				b = append(b, '\t')
				b = append(b, id...)
			}
			b = append(b, '\n')
		}
		b = append(b, "}\n"...)
	}
	return b
}
