package archive

import (
	"context"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// ErrEOL is returned by Context.Fetch past the end of the archive (or
// before its start, reading backwards): PM_ERR_EOL.
var ErrEOL = pcp.ErrEOL

// Mode is how a Context fetches: the records as they are, forwards or
// backwards, or values interpolated at fixed steps (pmSetMode).
type Mode int

const (
	// Interp gives each metric's value at the origin, then at each step
	// after it, as libpcp's PM_MODE_INTERP does (docs/pcp-archive.md §11).
	Interp Mode = iota
	// Forward gives the records holding any requested metric, in order.
	Forward
	// Backward gives them in reverse order.
	Backward
)

// Context reads an archive as libpcp's archive contexts do: Fetch
// returns a result like a live pmcd's, in the mode SetMode chose. It is
// not safe for concurrent use.
type Context struct {
	a      *Archive
	mode   Mode
	t      Timestamp // the next fetch's time (Interp)
	step   int64     // nanoseconds
	scan   *Scanner
	origin Timestamp
	back   backCursor
	buf    []byte
	res    pduwire.ResultPDU
	state  interpState
}

// NewContext returns a context at the start of the archive in Interp
// mode with a one-second step.
func (a *Archive) NewContext() *Context {
	c := &Context{a: a}
	c.SetMode(Interp, a.Label.Start, time.Second)
	return c
}

// SetMode sets how Fetch reads and from where: origin is the first time
// fetched (Interp) or where reading starts (Forward: the first record at
// or after it; Backward: the last at or before it); step is the
// interpolation step, negative to step backwards (Interp only).
func (c *Context) SetMode(m Mode, origin Timestamp, step time.Duration) {
	c.mode, c.t, c.step, c.origin = m, origin, step.Nanoseconds(), origin
	c.state = interpState{}
	c.scan = nil
	switch m {
	case Forward:
		c.scan = c.a.NewScanner()
	case Backward:
		c.back = backCursor{a: c.a, vol: len(c.a.vols) - 1, until: origin}
		if c.back.vol >= 0 {
			c.back.end = c.a.vols[c.back.vol].Size
		}
	}
}

// Fetch returns the values of ids: in Interp mode at the current time,
// which then moves on by the step; in Forward and Backward mode the next
// record holding any of them, its value sets for ids only. Past the end
// it returns ErrEOL; damage in a volume is its *ParseError. The result is
// valid until the next call.
func (c *Context) Fetch(_ context.Context, ids ...pcp.ID) (pduwire.Result, error) {
	switch c.mode {
	case Forward:
		for c.scan.Next() {
			if r := c.scan.Record(); !r.Time.Before(c.origin) && c.pick(r, ids) {
				c.origin = r.Time
				return c.result()
			}
		}
		if err := c.scan.Err(); err != nil {
			return pduwire.Result{}, err
		}
		return pduwire.Result{}, ErrEOL
	case Backward:
		for {
			r, err := c.back.prev()
			if err != nil {
				return pduwire.Result{}, err
			}
			if c.pick(r, ids) {
				c.origin = r.Time
				return c.result()
			}
		}
	}
	return c.interp(ids)
}

// pick copies the value sets of ids in r into c.res, in the order of ids
// (metrics the record lacks are left out); it reports whether any was
// there. A mark record is picked, empty.
func (c *Context) pick(r *Record, ids []pcp.ID) bool {
	c.res = pduwire.ResultPDU{HighRes: true, Sec: r.Time.Sec, Nsec: int64(r.Time.Nsec), Sets: c.res.Sets[:0]}
	if r.Mark {
		return true
	}
	var all pduwire.ResultPDU
	r.Result.AppendTo(&all)
	for _, id := range ids {
		for _, vs := range all.Sets {
			if vs.PMID == id {
				c.res.Sets = append(c.res.Sets, vs)
			}
		}
	}
	return len(c.res.Sets) > 0
}

// result encodes c.res and returns a view of it.
func (c *Context) result() (pduwire.Result, error) {
	c.buf = c.res.Append(c.buf[:0], 0)
	return pduwire.ParseResult(c.buf)
}

// backCursor reads records backwards from the end of the last volume.
type backCursor struct {
	a     *Archive
	vol   int
	end   int64 // where the next record back ends
	until Timestamp
	buf   []byte
	rec   Record
}

func (b *backCursor) prev() (*Record, error) {
	for b.vol >= 0 {
		v := &b.a.vols[b.vol]
		if b.end <= v.first {
			b.vol--
			if b.vol >= 0 {
				b.end = b.a.vols[b.vol].Size
			}
			continue
		}
		var start int64
		var err error
		s := Scanner{a: b.a, frames: scanFrames()}
		s.buf = b.buf
		if _, start, err = readRecordBack(v.File, b.end, v.first, b.a.o.MaxRecordLen); err != nil {
			return nil, err
		}
		s.vol, s.off = b.vol, start
		if !s.Next() {
			if s.Err() != nil {
				return nil, s.Err()
			}
			return nil, ErrEOL
		}
		b.buf, b.end = s.buf, start
		if b.until.Before(s.rec.Time) {
			continue
		}
		b.rec = s.rec
		return &b.rec, nil
	}
	return nil, ErrEOL
}
