package pmda

import (
	"github.com/perfwire/perfwire/pcp"
)

// doPMNSNames answers a name lookup: pmcd sends exactly one name and
// expects PMNS_IDS with its pmID.
func (w *worker) doPMNSNames() {
	bad := w.names.UnmarshalBinary(w.in) != nil || w.names.Status < 0 || len(w.names.Names) != 1
	ns := w.namespace(bad, pcp.ErrName)
	if ns == nil {
		return
	}
	id, err := ns.PMID(&w.ctx, string(w.names.Names[0]))
	if err != nil {
		w.replyError(w.codeOf("namespace", err))
		return
	}
	w.ids.Status = 0
	w.ids.PMIDs = append(w.ids.PMIDs[:0], id)
	w.send(&w.ids)
}

// doPMNSIDs answers "the names of this pmID" with PMNS_NAMES.
func (w *worker) doPMNSIDs() {
	bad := w.ids.UnmarshalBinary(w.in) != nil
	if !bad && w.ids.Status < 0 {
		w.replyError(pcp.Code(w.ids.Status))
		return
	}
	ns := w.namespace(bad, pcp.ErrPMID)
	if ns == nil {
		return
	}
	names, err := ns.Names(&w.ctx, w.ids.PMIDs[0])
	if err == nil && len(names) == 0 {
		err = pcp.ErrPMID
	}
	if err != nil {
		w.replyError(w.codeOf("namespace", err))
		return
	}
	w.sendNames(names, nil)
}

// doChildren answers PMNS_CHILD (components, with leaf status when asked)
// and PMNS_TRAVERSE (full leaf names).
func (w *worker) doChildren(traverse bool) {
	ns := w.namespace(w.child.UnmarshalBinary(w.in) != nil, pcp.ErrName)
	if ns == nil {
		return
	}
	names, leaf, err := ns.Children(&w.ctx, string(w.child.Name), traverse)
	if err != nil {
		w.replyError(w.codeOf("namespace", err))
		return
	}
	if traverse || w.child.Subtype == 0 || len(leaf) != len(names) {
		leaf = nil
	}
	w.sendNames(names, leaf)
}

// namespace returns the dynamic namespace for a request, or nil after
// answering PM_ERR_IPC for one that did not decode (bad) or, without a
// namespace, libpcp_pmda's default code none.
func (w *worker) namespace(bad bool, none pcp.Code) Namespace {
	switch {
	case bad:
		w.replyError(pcp.ErrIPC)
	case w.a.opts.Namespace == nil:
		w.replyError(none)
	default:
		return w.a.opts.Namespace
	}
	return nil
}

func (w *worker) sendNames(names []string, leaf []bool) {
	r := &w.names
	r.Status, r.Names, r.Statuses = 0, r.Names[:0], r.Statuses[:0]
	for i, n := range names {
		if n == "" {
			continue
		}
		r.Names = append(r.Names, []byte(n))
		if leaf != nil {
			st := int32(1) // PMNS_NONLEAF_STATUS
			if leaf[i] {
				st = 0 // PMNS_LEAF_STATUS
			}
			r.Statuses = append(r.Statuses, st)
		}
	}
	if leaf == nil {
		r.Statuses = nil
	}
	w.send(r)
}
