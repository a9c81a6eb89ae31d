package tracedir

import (
	"iter"

	"github.com/perfwire/perfwire/ltt"
)

// cursor is one tracefile's position in a merge.
type cursor struct {
	name  string // the tracefile's path, for errors
	tf    *ltt.Tracefile
	cpu   int
	block int
	blk   ltt.Block
	sc    ltt.Scanner
	ok    bool // sc holds a current event
}

// advance moves c to its next event, opening blocks as needed; c.ok is
// false at the end of the tracefile.
func (c *cursor) advance() error {
	c.ok = false
	for {
		if c.block > 0 {
			if c.sc.Next() {
				c.ok = true
				return nil
			}
			if err := c.sc.Err(); err != nil {
				return err
			}
		}
		if c.block >= c.tf.NumBlocks() {
			return nil
		}
		blk, err := c.tf.Block(c.block)
		if err != nil {
			return err
		}
		c.block++
		c.blk = blk
		c.sc = c.blk.Scanner()
	}
}

// Merge yields the events of every CPU tracefile in time order (ties go
// to the lower CPU number), with the CPU each came from. Within one CPU
// the file order is kept. It stops at the first error, which it yields
// with cpu set to the failing CPU and a nil event; MergeErr returns it,
// naming the tracefile. Each *ltt.Event is valid until the next
// iteration.
func (t *Trace) Merge() iter.Seq2[int, *ltt.Event] {
	return func(yield func(int, *ltt.Event) bool) {
		t.mergeErr = nil
		cs := make([]cursor, len(t.CPUs))
		for i := range t.CPUs {
			cs[i] = cursor{name: t.CPUs[i].Name, tf: t.CPUs[i].Tracefile, cpu: t.CPUs[i].CPU}
			if err := cs[i].advance(); err != nil {
				t.mergeErr = inFile(cs[i].name, err)
				yield(cs[i].cpu, nil)
				return
			}
		}
		for {
			best := -1
			for i := range cs {
				if cs[i].ok && (best < 0 || cs[i].sc.Event().Time < cs[best].sc.Event().Time) {
					best = i
				}
			}
			if best < 0 {
				return
			}
			c := &cs[best]
			if !yield(c.cpu, c.sc.Event()) {
				return
			}
			if err := c.advance(); err != nil {
				t.mergeErr = inFile(c.name, err)
				yield(c.cpu, nil)
				return
			}
		}
	}
}

// MergeErr returns the error that stopped the last Merge, if any.
func (t *Trace) MergeErr() error { return t.mergeErr }
