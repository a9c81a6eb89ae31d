package main

import (
	"slices"
	"strings"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pcp"
)

// hashOrder returns keys (distinct, in the order they were added) in the
// order libpcp's hash table walks them (__pmHashAdd: a table of one
// bucket that grows when it holds more than four nodes a bucket, each new
// node put at the head of its chain; a walk goes bucket by bucket). It
// is how pmdumplog orders descriptors and instance domains, which
// perfwire archive -d and -i reproduce.
func hashOrder(keys []uint32) []uint32 {
	size := 0
	var table [][]uint32 // each chain head first
	for n, k := range keys {
		switch {
		case size == 0:
			size = 1
			table = make([][]uint32, 1)
		case (n+1)/4 > size:
			old := table
			size *= 2
			if size%2 != 0 {
				size++
			}
			if size%3 != 0 {
				size += 2
			}
			if size%5 != 0 {
				size += 2
			}
			table = make([][]uint32, size)
			for b := len(old) - 1; b >= 0; b-- {
				for _, key := range old[b] {
					h := key % uint32(size)
					table[h] = append([]uint32{key}, table[h]...)
				}
			}
		}
		h := k % uint32(size)
		table[h] = append([]uint32{k}, table[h]...)
	}
	var out []uint32
	for _, chain := range table {
		out = append(out, chain...)
	}
	return out
}

// pmnsOrder returns, for each metric, its names in the order libpcp's
// pmNameAll gives them for an archive: the depth-first order of a
// namespace tree built from every name in the .meta's order, each node's
// children in the order they were first seen.
func pmnsOrder(metrics []archive.Metric) map[pcp.ID][]string {
	type node struct {
		kids  []*node
		byKey map[string]*node
		name  string // the full name, at a leaf
	}
	root := &node{byKey: map[string]*node{}}
	for _, m := range metrics {
		for _, full := range m.Names {
			n := root
			for part := range strings.SplitSeq(full, ".") {
				k, ok := n.byKey[part]
				if !ok {
					k = &node{byKey: map[string]*node{}}
					n.byKey[part] = k
					n.kids = append(n.kids, k)
				}
				n = k
			}
			n.name = full
		}
	}
	rank := map[string]int{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.name != "" {
			rank[n.name] = len(rank)
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(root)
	out := make(map[pcp.ID][]string, len(metrics))
	for _, m := range metrics {
		names := slices.Clone(m.Names)
		slices.SortStableFunc(names, func(a, b string) int { return rank[a] - rank[b] })
		out[m.ID] = names
	}
	return out
}
