package dltkpi

import (
	"math"
)

// IRQRate is the latest interval of one interrupt on one CPU.
type IRQRate struct {
	_     [0]func() // not comparable: no equality function in the wasm build
	Name  string
	CPU   int
	Count int64 // cumulative since boot
	// HasDelta: Delta interrupts happened in the Interval TMSP units
	// (0.1 ms) between the last two good IRQ groups.
	HasDelta bool
	Delta    int64
	Interval uint32
	// Time is the TMSP of the latest sample: the BEG of the IRQ group it
	// came in, or the dataset's own outside a group.
	Time uint32
}

// PerSecond returns Delta per second, or 0 without a delta.
func (r IRQRate) PerSecond() float64 {
	if !r.HasDelta || r.Interval == 0 {
		return 0
	}
	return float64(r.Delta) * 10000 / float64(r.Interval)
}

// irqState is what the tracker keeps per interrupt name: the counts of
// the last good sample and the deltas to the one before, per CPU.
type irqState struct {
	counts   []int64
	deltas   []int64
	valid    []bool
	lastT    uint32 // TMSP of the latest applied sample
	interval uint32 // TMSP units between the last two samples
	seen     bool
}

// irqRow is one row of the open IRQ group, kept until the group's END
// shows whether it can be trusted: where its name and counts end in the
// tracker's rowNames and rowCounts.
type irqRow struct{ nameEnd, countsEnd int }

// IRQs returns every interrupt's per-CPU state, by name then CPU.
func (t *Tracker) IRQs() []IRQRate { return t.AppendIRQs(nil) }

// AppendIRQs appends what IRQs returns to out, so that a caller that
// reads the table after every IRQ group can reuse one slice. Kept out
// of line: module size; see wasm/size.
//
//go:noinline
func (t *Tracker) AppendIRQs(out []IRQRate) []IRQRate {
	for _, name := range t.irqNames {
		st := t.irqs[name]
		for i, c := range st.counts {
			out = append(out, IRQRate{Name: name, CPU: i, Count: c, HasDelta: st.valid[i], Delta: st.deltas[i], Interval: st.interval, Time: st.lastT})
		}
	}
	return out
}

func goodCounts(c []int64) bool {
	for _, n := range c {
		if n < 0 || n == math.MaxInt64 {
			return false
		}
	}
	return true
}

func (t *Tracker) applyIRQ(name []byte, counts []int64, now uint32) {
	st, ok := t.irqs[string(name)]
	if !ok {
		if len(t.irqs) >= t.limits.MaxIRQs {
			t.stats.Dropped++
			return
		}
		st = &irqState{}
		key := string(name)
		t.irqs[key] = st
		// Insert key into the sorted names (a binary search and a copy,
		// once per name: no string sort for IRQs).
		lo, hi := 0, len(t.irqNames)
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); t.irqNames[m] < key {
				lo = m + 1
			} else {
				hi = m
			}
		}
		t.irqNames = append(t.irqNames, "")
		copy(t.irqNames[lo+1:], t.irqNames[lo:])
		t.irqNames[lo] = key
	}
	if st.seen && int32(now-st.lastT) <= 0 {
		t.stats.Stale++
		return
	}
	n := len(counts)
	if len(st.deltas) != n { // the CPU count of a row rarely changes
		st.deltas, st.valid = make([]int64, n), make([]bool, n)
	}
	for i, c := range counts {
		st.valid[i], st.deltas[i] = false, 0
		if st.seen && i < len(st.counts) && c >= st.counts[i] {
			st.valid[i], st.deltas[i] = true, c-st.counts[i]
		}
	}
	if st.seen {
		st.interval = now - st.lastT
	}
	st.counts = append(st.counts[:0], counts...)
	st.lastT, st.seen = now, true
}
