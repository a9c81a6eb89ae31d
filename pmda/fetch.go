package pmda

import (
	"math"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// vset is one value set of the RESULT being built: vals[first:first+n],
// or the status numval when n is 0.
type vset struct {
	pmid   pcp.ID
	numval int32
	first  int
	valfmt uint32
}

// val is one value: an insitu word, or a block of type typ whose payload
// is scratch[off:off+n] (numeric payloads are in bits).
type val struct {
	inst  int32
	typ   pcp.Type
	block bool
	bits  uint64
	off   int
	n     int
}

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
	w.sets, w.vals, w.scratch = w.sets[:0], w.vals[:0], w.scratch[:0]
	for _, id := range w.fetch.PMIDs {
		s := vset{pmid: id, first: len(w.vals)}
		mi, ok := a.byPMID[id]
		if !ok {
			s.numval = int32(pcp.ErrPMID)
			w.sets = append(w.sets, s)
			continue
		}
		m := &a.metrics[mi]
		s.valfmt = valFmt(m.Type)
		var status int32
		if m.InDom == pcp.InDomNull {
			status = w.fetchOne(m, pcp.InNull)
		} else if in := a.instances(m.InDom); in != nil {
			for _, x := range in.list {
				if !w.inProfile(m.InDom, x.ID) {
					continue
				}
				if st := w.fetchOne(m, x.ID); st < 0 {
					status = st
				}
			}
		}
		if n := len(w.vals) - s.first; n > 0 {
			s.numval = int32(n)
		} else {
			s.numval = status
		}
		w.sets = append(w.sets, s)
	}
	w.encodeResult()
}

// fetchOne asks the Fetch callback for one value and keeps it; it returns
// the callback's PCP code when it failed.
func (w *worker) fetchOne(m *Metric, inst int32) int32 {
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
	x := val{inst: inst, typ: m.Type, off: len(w.scratch)} // numbers use no scratch
	switch v.kind {
	case kindNone:
		return 0
	case kindInt, kindUint, kindFloat:
		bits, ok := convert(v.kind, v.bits, m.Type)
		if !ok {
			a.logf("metric %s: a number set for type %s: left out", m.Name, m.Type)
			return int32(pcp.ErrType)
		}
		x.bits = bits
		switch m.Type {
		case pcp.Type32, pcp.TypeU32:
		case pcp.TypeFloat:
			x.block, x.n = true, 4
		default:
			x.block, x.n = true, 8
		}
	case kindBytes:
		if m.Type != pcp.TypeString && m.Type != pcp.TypeAggregate {
			w.scratch = w.scratch[:v.off]
			a.logf("metric %s: bytes set for type %s: left out", m.Name, m.Type)
			return int32(pcp.ErrType)
		}
		if m.Type == pcp.TypeString {
			w.scratch = append(w.scratch, 0) // the NUL counts in vlen
		}
		x.block, x.off, x.n = true, v.off, len(w.scratch)-v.off
	case kindEvents:
		buf, err := v.eb.Finish()
		if err != nil {
			w.scratch = w.scratch[:v.off]
			a.logf("metric %s: event array: %v", m.Name, err)
			return int32(pcp.ErrGeneric)
		}
		w.scratch = buf
		x.block, x.off, x.n = true, v.off, len(buf)-v.off
	}
	if x.block && (x.blockLen() > 0xffffff || len(w.scratch) > a.lim.MaxResultLen) {
		w.scratch = w.scratch[:x.off]
		return int32(pcp.ErrTooBig)
	}
	w.vals = append(w.vals, x)
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
func valFmt(t pcp.Type) uint32 {
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

// encodeResult writes the RESULT: value-set records in request order,
// then the value blocks in the order the records point at them, each
// padded to 4 bytes. A PMDA's RESULT carries state-change bits in tv_sec.
func (w *worker) encodeResult() {
	size := 24
	for _, s := range w.sets {
		size += 8
		if s.numval > 0 {
			size += 4 + 8*int(s.numval)
		}
	}
	blocks := size
	for i := range w.vals {
		if x := &w.vals[i]; x.block {
			blocks += wire.Pad4(x.blockLen())
		}
	}
	if blocks > w.a.lim.MaxResultLen {
		w.replyError(pcp.ErrTooBig)
		return
	}
	b := w.out[:0]
	b = wire.AppendU32BE(b, uint32(blocks))
	b = wire.AppendU32BE(b, uint32(pduwire.TypeResult))
	b = wire.AppendU32BE(b, 0)
	b = wire.AppendU32BE(b, w.a.changes.Swap(0))
	b = wire.AppendU32BE(b, 0)
	b = wire.AppendU32BE(b, uint32(len(w.sets)))
	next := size
	for _, s := range w.sets {
		b = wire.AppendU32BE(b, uint32(s.pmid))
		b = wire.AppendU32BE(b, uint32(s.numval))
		if s.numval <= 0 {
			continue
		}
		b = wire.AppendU32BE(b, s.valfmt)
		vals := w.vals[s.first : s.first+int(s.numval)]
		for i := range vals {
			x := &vals[i]
			b = wire.AppendU32BE(b, uint32(x.inst))
			if x.block {
				b = wire.AppendU32BE(b, uint32(next/4))
				next += wire.Pad4(x.blockLen())
			} else {
				b = wire.AppendU32BE(b, uint32(x.bits))
			}
		}
	}
	for i := range w.vals {
		x := &w.vals[i]
		if !x.block {
			continue
		}
		switch x.typ {
		case pcp.TypeEvent, pcp.TypeHighResEvent:
			b = append(b, w.scratch[x.off:x.off+x.n]...) // has its own header word
			b = wire.AppendZeros(b, wire.Pad4(x.n)-x.n)
			continue
		}
		b = wire.AppendU32BE(b, uint32(x.typ)<<24|uint32(4+x.n))
		switch x.typ {
		case pcp.TypeFloat:
			b = wire.AppendU32BE(b, uint32(x.bits))
		case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
			b = wire.AppendU64BE(b, x.bits)
		default:
			b = append(b, w.scratch[x.off:x.off+x.n]...)
		}
		b = wire.AppendZeros(b, wire.Pad4(4+x.n)-(4+x.n))
	}
	w.out = b
	w.reply = true
}

// blockLen is the value block's vlen: an event array carries its own
// header word, other payloads get one.
func (x *val) blockLen() int {
	if x.typ == pcp.TypeEvent || x.typ == pcp.TypeHighResEvent {
		return x.n
	}
	return 4 + x.n
}
