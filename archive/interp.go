package archive

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// maxLookahead bounds the records Interp mode reads past the requested
// time to find each instance's next value; an instance not seen again
// within it has no next value (as at the end of the archive).
const maxLookahead = 1 << 14

// key is one metric instance.
type key struct {
	id   pcp.ID
	inst int32
}

// sample is one recorded value of an instance, owned.
type sample struct {
	t      float64
	valfmt uint8
	v      pduwire.ValueData
}

// aheadRecord is a record read past the requested time: its time, whether
// it is a mark, and the values of the requested metrics.
type aheadRecord struct {
	t    float64
	mark bool
	vals map[key]sample
}

// interpState is what Interp mode has read: each instance's latest value
// at or before the current time (gone after a mark), and records read
// ahead of it.
type interpState struct {
	scan   *Scanner
	ids    []pcp.ID
	prior  map[key]sample
	ahead  []aheadRecord
	eof    bool
	lastT  float64
	marked bool // a mark was passed since the previous fetch
	prevN  map[pcp.ID]int
}

func (c *Context) interp(ids []pcp.ID) (pduwire.Result, error) {
	st := &c.state
	// Times are seconds from the archive's start as doubles, as libpcp
	// computes with them (the rounding of interpolated integers depends
	// on it).
	T := c.rel(c.t)
	if st.scan == nil || !slices.Equal(st.ids, ids) || T < st.lastT {
		*st = interpState{scan: c.a.NewScanner(), ids: slices.Clone(ids), prior: map[key]sample{},
			prevN: map[pcp.ID]int{}, lastT: math.Inf(-1)}
	}
	if end, err := c.a.End(); err == nil && T > c.rel(end) {
		return pduwire.Result{}, ErrEOL
	}
	st.marked = false
	// Move every record at or before T from ahead (or the volume) to prior.
	for {
		if len(st.ahead) == 0 {
			if ok, err := c.readAhead(); err != nil {
				return pduwire.Result{}, err
			} else if !ok {
				break
			}
		}
		r := st.ahead[0]
		if r.t > T {
			break
		}
		st.ahead = st.ahead[1:]
		if r.mark {
			clear(st.prior)
			st.marked = true
			continue
		}
		for k, s := range r.vals {
			st.prior[k] = s
		}
	}
	st.lastT = T
	c.res = pduwire.ResultPDU{HighRes: true, Sec: c.t.Sec, Nsec: int64(c.t.Nsec), Sets: c.res.Sets[:0]}
	for _, id := range ids {
		m, ok := c.a.Meta.Metric(id)
		vs := pduwire.ValueSetData{PMID: id}
		if !ok {
			vs.NumVal = int32(pcp.ErrPMIDLog)
			c.res.Sets = append(c.res.Sets, vs)
			continue
		}
		if m.Sem == pcp.SemCounter && !numeric(m.Type) {
			vs.NumVal = int32(pcp.ErrType)
			c.res.Sets = append(c.res.Sets, vs)
			continue
		}
		insts := c.instancesNear(id)
		for _, inst := range insts {
			v, fmt, ok, err := c.valueAt(m, key{id, inst}, T)
			if err != nil {
				return pduwire.Result{}, err
			}
			if ok {
				vs.ValFmt = fmt
				vs.Values = append(vs.Values, v)
			}
		}
		// A counter that had values, then a mark: no values this once, so
		// that rates are not taken across the gap.
		if m.Sem == pcp.SemCounter && st.marked && st.prevN[id] > 0 {
			vs.Values = nil
		}
		st.prevN[id] = len(vs.Values)
		vs.NumVal = int32(len(vs.Values))
		c.res.Sets = append(c.res.Sets, vs)
	}
	// The origin moves by whole nanoseconds, as libpcp's timespec does.
	ns := int64(c.t.Nsec) + c.step
	c.t = Timestamp{Sec: c.t.Sec + ns/1e9, Nsec: int32(ns % 1e9)}
	if c.t.Nsec < 0 {
		c.t.Sec, c.t.Nsec = c.t.Sec-1, c.t.Nsec+1e9
	}
	return c.result()
}

// rel is t in seconds from the archive's start (__pmTimestampSub).
func (c *Context) rel(t Timestamp) float64 {
	s := c.a.Label.Start
	return float64(t.Sec-s.Sec) + float64(t.Nsec-s.Nsec)/1e9
}

// numeric reports whether values of type t can be interpolated.
func numeric(t pcp.Type) bool {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble:
		return true
	}
	return false
}

// instancesNear lists, sorted, the instances of id with a value at or
// before the current time (since the last mark): the only ones that can
// have a value, as a record at the time itself is already among them.
func (c *Context) instancesNear(id pcp.ID) []int32 {
	var out []int32
	for k := range c.state.prior {
		if k.id == id {
			out = append(out, k.inst)
		}
	}
	slices.Sort(out)
	return out
}

// readAhead reads one more record into ahead; false at the end.
func (c *Context) readAhead() (bool, error) {
	st := &c.state
	if st.eof || len(st.ahead) >= maxLookahead {
		return false, nil
	}
	if !st.scan.Next() {
		st.eof = true
		return false, st.scan.Err()
	}
	r := st.scan.Record()
	ar := aheadRecord{t: c.rel(r.Time), mark: r.Mark}
	if !r.Mark {
		ar.vals = map[key]sample{}
		s := r.Result.Scan()
		for s.Next() {
			vs := s.ValueSet()
			if !slices.Contains(st.ids, vs.PMID) {
				continue
			}
			for j := range vs.Len() {
				v := vs.Value(j)
				d := pduwire.ValueData{Inst: v.Inst, Word: v.Word}
				if v.Block() {
					d.Word, d.BlockType, d.Payload = 0, v.BlockType(), slices.Clone(v.Payload())
				}
				ar.vals[key{vs.PMID, v.Inst}] = sample{t: ar.t, valfmt: vs.ValFmt, v: d}
			}
		}
	}
	st.ahead = append(st.ahead, ar)
	return true, nil
}

// next returns the first value of k at or after the records read ahead,
// reading further as needed; ok is false when a mark or the end comes
// first.
func (c *Context) next(k key) (sample, bool, error) {
	st := &c.state
	for i := 0; ; i++ {
		for i >= len(st.ahead) {
			ok, err := c.readAhead()
			if err != nil || !ok {
				return sample{}, false, err
			}
		}
		r := st.ahead[i]
		if r.mark {
			return sample{}, false, nil
		}
		if s, ok := r.vals[k]; ok {
			return s, true, nil
		}
	}
}

// valueAt is k's value at T by libpcp's rules: a discrete metric's prior
// value; an instantaneous one's prior value when a next one exists too
// (or an exact match); a counter's value interpolated linearly between
// prior and next, integers rounded half up.
func (c *Context) valueAt(m *Metric, k key, T float64) (pduwire.ValueData, uint8, bool, error) {
	p, havePrior := c.state.prior[k]
	if havePrior && p.t == T {
		return p.v, p.valfmt, true, nil
	}
	if m.Sem == pcp.SemDiscrete {
		return p.v, p.valfmt, havePrior, nil
	}
	n, haveNext, err := c.next(k)
	if err != nil || !havePrior || !haveNext {
		if err == nil && haveNext && n.t == T {
			return n.v, n.valfmt, true, nil
		}
		return pduwire.ValueData{}, 0, false, err
	}
	if n.t == T {
		return n.v, n.valfmt, true, nil
	}
	if m.Sem != pcp.SemCounter {
		return p.v, p.valfmt, true, nil
	}
	return interpolate(m.Type, p, n, T), p.valfmt, true, nil
}

// interpolate is libpcp's linear interpolation of a counter between two
// values of type t, with its order of operations (which decides how a
// value halfway between two integers rounds).
func interpolate(t pcp.Type, p, n sample, T float64) pduwire.ValueData {
	dtReq, dt := T-p.t, n.t-p.t
	out := p.v
	switch t {
	case pcp.Type32:
		a, b := int32(p.v.Word), int32(n.v.Word)
		out.Word = uint32(int32(0.5 + float64(a) + dtReq*float64(b-a)/dt))
	case pcp.TypeU32:
		a, b := p.v.Word, n.v.Word
		if b >= a {
			out.Word = uint32(0.5 + float64(a) + dtReq*float64(b-a)/dt)
		} else {
			out.Word = uint32(0.5 + float64(a) - dtReq*float64(a-b)/dt)
		}
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble, pcp.TypeFloat:
		if len(p.v.Payload) < 4 || len(n.v.Payload) != len(p.v.Payload) {
			return out
		}
		buf := slices.Clone(p.v.Payload)
		switch t {
		case pcp.Type64:
			a, b := int64(binary.BigEndian.Uint64(p.v.Payload)), int64(binary.BigEndian.Uint64(n.v.Payload))
			binary.BigEndian.PutUint64(buf, uint64(int64(0.5+float64(a)+dtReq*float64(b-a)/dt)))
		case pcp.TypeU64:
			a, b := binary.BigEndian.Uint64(p.v.Payload), binary.BigEndian.Uint64(n.v.Payload)
			var v float64
			if b >= a {
				v = 0.5 + float64(a) + dtReq*float64(b-a)/dt
			} else {
				v = 0.5 + float64(a) - dtReq*float64(a-b)/dt
			}
			binary.BigEndian.PutUint64(buf, uint64(v))
		case pcp.TypeDouble:
			a, b := math.Float64frombits(binary.BigEndian.Uint64(p.v.Payload)), math.Float64frombits(binary.BigEndian.Uint64(n.v.Payload))
			binary.BigEndian.PutUint64(buf, math.Float64bits(a+dtReq*(b-a)/dt))
		case pcp.TypeFloat:
			a, b := math.Float32frombits(binary.BigEndian.Uint32(p.v.Payload)), math.Float32frombits(binary.BigEndian.Uint32(n.v.Payload))
			binary.BigEndian.PutUint32(buf, math.Float32bits(float32(float64(a)+dtReq*float64(b-a)/dt)))
		}
		out.Payload = buf
	}
	return out
}
