package pmda

import (
	"bytes"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// handle answers one request, as libpcp_pmda's main loop does for each PDU
// type (docs/pmda.md has the table).
func (w *worker) handle(h pduwire.Header) {
	switch h.Type {
	case pduwire.TypeProfile:
		if w.profile.UnmarshalBinary(w.in) != nil {
			w.a.logf("PROFILE does not decode: ignored")
			return
		}
		w.haveProfile = true
	case pduwire.TypeFetch:
		w.doFetch()
	case pduwire.TypeDescReq:
		w.doDesc()
	case pduwire.TypeDescIDs:
		w.doDescIDs()
	case pduwire.TypeInstanceReq:
		w.doInstance()
	case pduwire.TypeTextReq:
		w.doText()
	case pduwire.TypeLabelReq:
		w.doLabel()
	case pduwire.TypeResult:
		w.doStore()
	case pduwire.TypePMNSNames:
		w.doPMNSNames()
	case pduwire.TypePMNSIDs:
		w.doPMNSIDs()
	case pduwire.TypePMNSChild, pduwire.TypePMNSTraverse:
		w.doChildren(h.Type == pduwire.TypePMNSTraverse)
	case pduwire.TypeAttr:
		w.doAttr(h.From)
	case pduwire.TypeError:
		var e pduwire.ErrorPDU
		if e.UnmarshalBinary(w.in) != nil {
			return
		}
		if pcp.Code(e.Code) == pcp.ErrNotConn {
			w.a.endContext(h.From)
			return
		}
		w.a.logf("unexpected ERROR from pmcd: %v", pcp.Code(e.Code))
	case pduwire.TypeControlReq, pduwire.TypeCreds:
	default:
		w.a.logf("unknown PDU type %s from pmcd: answered PM_ERR_IPC", h.Type)
		w.replyError(pcp.ErrIPC)
	}
}

func (a *Agent) metric(id pcp.ID) *Metric {
	if i, ok := a.byPMID[id]; ok {
		return &a.metrics[i]
	}
	return nil
}

func descOf(m *Metric) pcp.Desc {
	return pcp.Desc{ID: m.PMID, Type: m.Type, InDom: m.InDom, Sem: m.Sem, Units: m.Units}
}

func (w *worker) doDesc() {
	var req pduwire.DescReqPDU
	if req.UnmarshalBinary(w.in) != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	m := w.a.metric(req.PMID)
	if m == nil {
		w.replyError(pcp.ErrPMID)
		return
	}
	w.send(&pduwire.DescPDU{Desc: descOf(m)})
}

// doDescIDs answers DESC_IDS, which pmcd does not send to PMDAs today;
// an unknown pmID gets an entry with PM_ID_NULL, as pmcd's own answer has.
func (w *worker) doDescIDs() {
	if w.descIDs.UnmarshalBinary(w.in) != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	if len(w.descIDs.PMIDs) > w.a.lim.MaxPMIDs {
		w.replyError(pcp.ErrTooBig)
		return
	}
	w.descs.Descs = w.descs.Descs[:0]
	for _, id := range w.descIDs.PMIDs {
		d := pcp.Desc{ID: pcp.IDNull}
		if m := w.a.metric(id); m != nil {
			d = descOf(m)
		}
		w.descs.Descs = append(w.descs.Descs, d)
	}
	w.send(&w.descs)
}

// doInstance answers INSTANCE_REQ as pmdaInstance does: the whole domain
// (not filtered by the profile), a name for a number, or a number for a
// name, matched whole or, when the name has no space, up to the first
// space of an instance name.
func (w *worker) doInstance() {
	var req pduwire.InstanceReqPDU
	if req.UnmarshalBinary(w.in) != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	st := w.a.indomState(req.InDom)
	if st == nil {
		w.replyError(pcp.ErrInDom)
		return
	}
	if w.a.opts.Instance != nil {
		if err := w.a.opts.Instance(&w.ctx, req.InDom); err != nil {
			w.replyError(w.codeOf("instance", err))
			return
		}
	}
	in := w.a.instances(req.InDom)
	r := &w.inst
	r.InDom = req.InDom
	r.Instances = r.Instances[:0]
	if i := bytes.IndexByte(req.Name, 0); i >= 0 {
		req.Name = req.Name[:i]
	}
	switch {
	case req.Inst == pcp.InNull && len(req.Name) == 0:
		for i, x := range in.list {
			r.Instances = append(r.Instances, pduwire.InstanceEntry{Inst: x.ID, Name: in.names[i]})
		}
	case len(req.Name) == 0:
		for i, x := range in.list {
			if x.ID == req.Inst {
				r.Instances = append(r.Instances, pduwire.InstanceEntry{Inst: pcp.InNull, Name: in.names[i]})
				break
			}
		}
	case req.Inst == pcp.InNull:
		if id, ok := lookupName(in, req.Name); ok {
			r.Instances = append(r.Instances, pduwire.InstanceEntry{Inst: id})
		}
	}
	if len(r.Instances) == 0 && !(req.Inst == pcp.InNull && len(req.Name) == 0) {
		w.replyError(pcp.ErrInst)
		return
	}
	w.send(r)
}

func lookupName(in *instances, name []byte) (int32, bool) {
	spaced := bytes.IndexByte(name, ' ') >= 0
	for i, n := range in.names {
		if bytes.Equal(n, name) {
			return in.list[i].ID, true
		}
		if spaced {
			continue
		}
		if sp := bytes.IndexByte(n, ' '); sp >= 0 && bytes.Equal(n[:sp], name) {
			return in.list[i].ID, true
		}
	}
	return 0, false
}

func (w *worker) doText() {
	var req pduwire.TextReqPDU
	if req.UnmarshalBinary(w.in) != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	var text string
	if w.a.opts.Text != nil {
		text = w.a.opts.Text(&w.ctx, req.Ident, req.Kind)
	}
	if text == "" {
		help := req.Kind&pduwire.TextHelp != 0
		if req.Kind&pduwire.TextPMID != 0 {
			if m := w.a.metric(pcp.ID(req.Ident)); m != nil {
				text = pick(help, m.OneLine, m.Help)
			}
		} else if st := w.a.indomState(pcp.InDom(req.Ident)); st != nil {
			text = pick(help, st.decl.OneLine, st.decl.Help)
		}
	}
	if text == "" {
		w.replyError(pcp.ErrText)
		return
	}
	w.send(&pduwire.TextPDU{Ident: req.Ident, Text: []byte(text)})
}

func pick(help bool, oneline, long string) string {
	if help {
		return long
	}
	return oneline
}

// doLabel answers LABEL_REQ as pmdaLabel does: at most one set for the
// domain, a cluster, an item or an indom (none when there are no labels),
// and for INSTANCES one set per instance the profile selects, empty for
// those without labels.
func (w *worker) doLabel() {
	var req pduwire.LabelReqPDU
	if req.UnmarshalBinary(w.in) != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	a := w.a
	r := &w.labels
	r.Ident, r.Kind, r.Sets = req.Ident, req.Kind, r.Sets[:0]
	one := func(ls labelSet) {
		if len(ls.entries) > 0 {
			r.Sets = append(r.Sets, pduwire.LabelSet{Inst: pcp.InNull, JSON: ls.json, Labels: ls.entries})
		}
	}
	switch req.Kind {
	case pduwire.LabelContext:
	case pduwire.LabelDomain:
		one(a.domainL)
	case pduwire.LabelCluster:
		one(a.cluster[pcp.ID(req.Ident).Cluster()])
	case pduwire.LabelItem:
		if i, ok := a.byPMID[pcp.ID(req.Ident)]; ok {
			one(a.items[i])
		}
	case pduwire.LabelInDom:
		if st := a.indomState(pcp.InDom(req.Ident)); st != nil {
			one(st.labels)
		}
	case pduwire.LabelInstances:
		if in := a.instances(pcp.InDom(req.Ident)); in != nil {
			for i, x := range in.list {
				if !w.inProfile(pcp.InDom(req.Ident), x.ID) {
					continue
				}
				ls := in.labels[i]
				r.Sets = append(r.Sets, pduwire.LabelSet{Inst: x.ID, NLabels: int32(len(ls.entries)), JSON: ls.json, Labels: ls.entries})
			}
		}
	default:
		w.replyError(pcp.ErrType)
		return
	}
	w.send(r)
}

// doStore answers a pmstore RESULT with ERROR(status).
func (w *worker) doStore() {
	res, err := pduwire.ParseResult(w.in)
	if err != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	a := w.a
	var sts pcp.Code
	s := res.Scan()
	for s.Next() {
		vs := s.ValueSet()
		m := a.metric(vs.PMID)
		if m == nil {
			sts = pcp.ErrPMID
			break
		}
		if !m.Writable || a.opts.Store == nil {
			sts = pcp.ErrPermission
			break
		}
		if err := a.opts.Store(&w.ctx, m, vs); err != nil {
			sts = w.codeOf("store "+m.Name, err)
			break
		}
	}
	w.replyError(sts)
}
