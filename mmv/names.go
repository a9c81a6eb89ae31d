package mmv

import (
	"github.com/perfwire/perfwire/pcp"
)

// Name prefixes pmdammv puts before metric names: "mmv" for the mmv
// agent, "pmproxy" when it runs inside pmproxy (domain 4).
const (
	PrefixMMV     = "mmv"
	PrefixPMProxy = "pmproxy"
)

// AppendMetricName appends the name pmdammv exports for metric m of the
// file called file: prefix.file.name, or prefix.name with
// [FlagNoPrefix]. Check the result with [ValidMetricName]: pmdammv drops
// metrics whose full name is not valid.
//
//go:noinline
func (r *File) AppendMetricName(b []byte, prefix, file string, m Metric) []byte {
	sep := "."
	if r.hdr.Flags&FlagNoPrefix != 0 {
		file, sep = "", ""
	}
	// The parts by one loop: each append is code in WebAssembly.
	for _, part := range [...]string{prefix, ".", file, sep} {
		b = append(b, part...)
	}
	return append(b, m.Name...)
}

// ValidMetricName reports whether pmdammv accepts a full metric name: a
// letter first, then only letters, digits, '_' and '.'. A file name with
// a '-' therefore invalidates every metric of the file.
func ValidMetricName(name []byte) bool {
	if len(name) == 0 || !isLetter(name[0]) {
		return false
	}
	for _, c := range name[1:] {
		if !isLetter(c) && !isDigit(c) && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// PMID returns the metric identifier pmdammv gives item in cluster.
func PMID(cluster, item uint32) pcp.ID { return pcp.NewID(Domain, cluster, item) }

// InDomID returns the instance domain pmdammv gives serial in cluster:
// (cluster << 11 | serial) truncated to 22 bits, so serials of 2048 or
// more, and clusters of 2048 or more, overlap and can collide.
func InDomID(cluster, serial uint32) pcp.InDom {
	return pcp.NewInDom(Domain, (cluster<<11|serial)&0x3fffff)
}

// Source is one file as pmdammv finds it: its directory entry name and
// its validated contents.
type Source struct {
	_    [0]func() // not comparable: no equality function in the wasm build
	Name string
	File *File
}

// WarningKind says which pmdammv behaviour a [Warning] is about.
type WarningKind int

// The silent collisions and losses pmdammv makes.
const (
	// WarnBadName: the exported name is not valid, so pmdammv drops
	// the metric (for a bad file name, every metric of the file).
	WarnBadName WarningKind = iota + 1
	// WarnDuplicateName: an earlier file already exports the name with
	// another identifier; pmdammv skips the later metric.
	WarnDuplicateName
	// WarnSharedCluster: two files use the same cluster. Intended for
	// instance sharing; otherwise one file shadows the other's pmIDs.
	WarnSharedCluster
	// WarnInDomCollision: two different (cluster, serial) pairs map to
	// the same 22-bit pmInDom, merging unrelated instance lists.
	WarnInDomCollision
	// WarnClusterLabelsLost: the file asked for cluster 0, so pmdammv
	// picks a cluster and never matches its cluster labels.
	WarnClusterLabelsLost
	// WarnRepeatedItem: the metric repeats an earlier item of its file
	// (read with Options.RepeatedItems); pmdammv drops it.
	WarnRepeatedItem
	// WarnNameConflict: the name and an earlier one cannot both be in
	// the namespace: one would be a leaf and an inner node at once
	// (a.b and a.b.c); pmdammv keeps the earlier and drops this metric.
	WarnNameConflict
)

// Drops reports whether pmdammv leaves the warned metric out.
func (k WarningKind) Drops() bool {
	return k == WarnBadName || k == WarnDuplicateName || k == WarnRepeatedItem || k == WarnNameConflict
}

// Warning is one problem [Assign] found. File and Other index the
// sources; Metric indexes a metric of File, -1 when not about one.
type Warning struct {
	Kind   WarningKind
	File   int
	Other  int
	Metric int
}

// addWarning appends a Warning: one call at each of Assign's checks.
//
//go:noinline
func addWarning(w []Warning, k WarningKind, file, other, metric int) []Warning {
	return append(w, Warning{Kind: k, File: file, Other: other, Metric: metric})
}

// Assign predicts the clusters pmdammv gives files found in one
// directory, in srcs order (pmdammv sorts the names; skips names that
// start with '.'): a file's own cluster 1…4095 is used as is, and 0
// takes the lowest cluster from 1 up that no earlier file uses. It also
// returns warnings for what pmdammv would silently drop or merge. It
// allocates and is meant for tools, not hot paths.
func Assign(srcs []Source) (clusters []uint32, warnings []Warning) {
	clusters = make([]uint32, len(srcs))
	// used holds 1 + the first file that uses each cluster, 0 for none: a
	// file's own cluster is at most MaxCluster, and one picked for a file
	// at most MaxCluster + the files before it.
	used := make([]int, MaxCluster+2+len(srcs))
	for i := range srcs {
		s := srcs[i].File
		c := uint32(s.hdr.Cluster)
		if c == 0 {
			c = 1
			for used[c] != 0 {
				c++
			}
			for j := range s.NumLabels() {
				if s.Label(j).Flags.Level() == LabelCluster {
					warnings = addWarning(warnings, WarnClusterLabelsLost, i, -1, -1)
					break
				}
			}
		} else if used[c] != 0 {
			warnings = addWarning(warnings, WarnSharedCluster, i, used[c]-1, -1)
		}
		if used[c] == 0 {
			used[c] = i + 1
		}
		clusters[i] = c
	}
	type owner struct {
		_    [0]func() // not comparable
		file int
		id   pcp.ID
	}
	// names holds the namespace: each exported name (its owner) and, with
	// file -1, each inner node (every proper prefix of a name). One map
	// of one type keeps the plugin small.
	names := map[string]owner{}
	conflicts := func(name string) bool {
		if o, ok := names[name]; ok && o.file < 0 {
			return true // an inner node already
		}
		for j := range len(name) {
			if name[j] == '.' {
				if o, ok := names[name[:j]]; ok && o.file >= 0 {
					return true // a prefix is a leaf
				}
			}
		}
		return false
	}
	for i := range srcs {
		s := &srcs[i]
		r := s.File
		var items [(MaxItem + 1) / 64]uint64
		for k := range r.NumMetrics() { // as Metrics, without a closure
			if r.Refused(k) {
				continue
			}
			m := r.Metric(k)
			item := m.Item & MaxItem // validated ≤ 1023 unless rewritten since
			b := r.AppendMetricName(nil, PrefixMMV, s.Name, m)
			name := string(b)
			id := PMID(clusters[i], m.Item)
			// The first rule the metric breaks, if any: one warning call.
			kind, other := WarningKind(0), -1
			o, ok := names[name]
			switch {
			case items[item/64]&(1<<(item%64)) != 0:
				kind = WarnRepeatedItem
			case !ValidMetricName(b):
				kind = WarnBadName
			case ok && o.file >= 0 && o.id != id:
				kind, other = WarnDuplicateName, o.file
			case conflicts(name):
				kind = WarnNameConflict
			}
			if kind != WarnRepeatedItem {
				items[item/64] |= 1 << (item % 64)
			}
			if kind != 0 {
				warnings = addWarning(warnings, kind, i, other, m.Index)
				continue
			}
			names[name] = owner{file: i, id: id}
			for j := range len(name) {
				if name[j] == '.' {
					names[name[:j]] = owner{file: -1}
				}
			}
		}
	}
	// The indoms' pmInDoms are in names too, as keys no name has: a NUL
	// and the pmInDom's four bytes, owned by the file with the serial as
	// id. Two (cluster, serial) pairs on one pmInDom collide.
	for i := range srcs {
		r := srcs[i].File
		for d := range r.NumIndoms() {
			serial := r.Indom(d).Serial
			id := InDomID(clusters[i], serial)
			key := string([]byte{0, byte(id >> 24), byte(id >> 16), byte(id >> 8), byte(id)})
			if o, ok := names[key]; ok && (clusters[o.file] != clusters[i] || uint32(o.id) != serial) {
				warnings = addWarning(warnings, WarnInDomCollision, i, o.file, -1)
				continue
			}
			names[key] = owner{file: i, id: pcp.ID(serial)}
		}
	}
	return clusters, warnings
}
