package pmda

import (
	"math"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// fetch answers a FETCH: values of every requested metric and instance
// the profile selects, encoded as libpcp_pmda's RESULT (docs/pmda.md).
func (w *worker) doFetch() {
	a := w.a
	if err := w.fetch.UnmarshalBinary(w.in); err != nil {
		w.replyError(pcp.ErrIPC)
		return
	}
	if len(w.fetch.PMIDs) > a.lim.MaxPMIDs {
		w.replyError(pcp.ErrTooBig)
		return
	}
	ctx := &w.ctx
	if a.opts.Refresh != nil {
		if err := a.opts.Refresh(ctx, w.fetch.PMIDs); err != nil {
			w.replyError(w.codeOf("refresh", err))
			return
		}
	}
	sets := w.res.Sets[:0]
	w.scratch = w.scratch[:0]
	for _, id := range w.fetch.PMIDs {
		// Each slot keeps its Values array from earlier fetches.
		var vs pduwire.ValueSetData
		if len(sets) < cap(sets) {
			vs = sets[:len(sets)+1][len(sets)]
		}
		vs.PMID, vs.NumVal, vs.Values = id, 0, vs.Values[:0]
		mi, ok := a.byPMID[id]
		if !ok {
			vs.NumVal = int32(pcp.ErrPMID)
			sets = append(sets, vs)
			continue
		}
		m := &a.metrics[mi]
		vs.ValFmt = valFmt(m.Type)
		if m.InDom == pcp.InDomNull {
			vs.NumVal = w.fetchOne(m, pcp.InNull, &vs)
		} else if in := a.instances(m.InDom); in != nil {
			for _, x := range in.list {
				if !w.inProfile(m.InDom, x.ID) {
					continue
				}
				if st := w.fetchOne(m, x.ID, &vs); st < 0 {
					vs.NumVal = st
				}
			}
		}
		sets = append(sets, vs)
	}
	w.res.Sets = sets
	// A PMDA's RESULT carries state-change bits in tv_sec.
	w.res.Sec = int64(a.changes.Swap(0))
	w.out = w.res.Append(w.out[:0], 0)
	if len(w.out) > a.lim.MaxResultLen {
		a.changes.Or(uint32(w.res.Sec)) // for the next RESULT sent
		w.replyError(pcp.ErrTooBig)
		return
	}
	w.reply = true
}

// fetchOne asks the Fetch callback for one value and appends it to vs;
// it returns the callback's PCP code when it failed. Payloads other than
// 32-bit words go to the scratch buffer.
func (w *worker) fetchOne(m *Metric, inst int32, vs *pduwire.ValueSetData) int32 {
	a := w.a
	if a.opts.Fetch == nil {
		return int32(pcp.ErrPMID)
	}
	// The Value lives in the worker: a local one would escape to the
	// callback and cost an allocation per value.
	w.v = Value{w: w, mtype: m.Type}
	v := &w.v
	if err := a.opts.Fetch(&w.ctx, m, inst, v); err != nil {
		if err == ErrNoValue {
			return 0
		}
		return int32(w.codeOf("fetch "+m.Name, err))
	}
	x := pduwire.ValueData{Inst: inst, BlockType: m.Type}
	// The value's bytes are scratch[start:], its payload scratch[off:].
	start := len(w.scratch)
	off := start
	switch v.kind {
	case kindNone:
		return 0
	case kindInt, kindUint, kindFloat:
		bits, ok := convert(v.kind, v.bits, m.Type)
		if !ok {
			a.logf("metric %s: a number set for type %s: left out", m.Name, m.Type)
			return int32(pcp.ErrType)
		}
		switch m.Type {
		case pcp.Type32, pcp.TypeU32:
			x.Word = uint32(bits)
			vs.Values = append(vs.Values, x)
			return 0
		case pcp.TypeFloat:
			w.scratch = wire.AppendU32BE(w.scratch, uint32(bits))
		default:
			w.scratch = wire.AppendU64BE(w.scratch, bits)
		}
	case kindBytes:
		start, off = v.off, v.off
		if m.Type != pcp.TypeString && m.Type != pcp.TypeAggregate {
			w.scratch = w.scratch[:start]
			a.logf("metric %s: bytes set for type %s: left out", m.Name, m.Type)
			return int32(pcp.ErrType)
		}
		if m.Type == pcp.TypeString {
			w.scratch = append(w.scratch, 0) // the NUL counts in vlen
		}
	case kindEvents:
		start = v.off
		buf, err := v.eb.Finish()
		if err != nil {
			w.scratch = w.scratch[:start]
			a.logf("metric %s: event array: %v", m.Name, err)
			return int32(pcp.ErrGeneric)
		}
		// The array starts with its own header word, which the
		// RESULT's value block header repeats.
		w.scratch, off = buf, start+4
	}
	if 4+len(w.scratch)-off > 0xffffff || len(w.scratch) > a.lim.MaxResultLen {
		w.scratch = w.scratch[:start]
		return int32(pcp.ErrTooBig)
	}
	x.Payload = w.scratch[off:]
	vs.Values = append(vs.Values, x)
	return 0
}

// convert turns a number set as kind into the bits of type t, as
// libpcp_pmda casts a pmAtomValue member.
func convert(kind uint8, bits uint64, t pcp.Type) (uint64, bool) {
	var i int64
	var u uint64
	var f float64
	switch kind {
	case kindInt:
		i, u, f = int64(bits), bits, float64(int64(bits))
	case kindUint:
		i, u, f = int64(bits), bits, float64(bits)
	case kindFloat:
		f = math.Float64frombits(bits)
		i, u = int64(f), uint64(f)
	}
	switch t {
	case pcp.Type32:
		return uint64(uint32(int32(i))), true
	case pcp.TypeU32:
		return uint64(uint32(u)), true
	case pcp.Type64:
		return uint64(i), true
	case pcp.TypeU64:
		return u, true
	case pcp.TypeFloat:
		return uint64(math.Float32bits(float32(f))), true
	case pcp.TypeDouble:
		return math.Float64bits(f), true
	}
	return 0, false
}

// valFmt is how libpcp sends values of type t (docs/pcp-pdu.md §4.7).
func valFmt(t pcp.Type) uint8 {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return pduwire.ValInsitu
	case pcp.TypeEvent, pcp.TypeHighResEvent, pcp.TypeAggregateStatic:
		return pduwire.ValSPTR
	}
	return pduwire.ValDPTR
}

// inProfile applies the last PROFILE: an instance listed for its indom
// is an exception to that indom's state; an indom without an entry takes
// the global state. Without a profile every instance is wanted.
func (w *worker) inProfile(indom pcp.InDom, inst int32) bool {
	if !w.haveProfile {
		return true
	}
	for i := range w.profile.Entries {
		e := &w.profile.Entries[i]
		if e.InDom != indom {
			continue
		}
		for _, x := range e.Insts {
			if x == inst {
				return e.State == pduwire.ProfileExclude
			}
		}
		return e.State == pduwire.ProfileInclude
	}
	return w.profile.State == pduwire.ProfileInclude
}
