package dltkpi

// Snapshot is one complete group: the whole list dlt-kpi logged between
// a BEG and its END (every process for NEW or CHK, every busy process for
// ACT, every interrupt row for IRQ).
type Snapshot struct {
	Group    Group
	Datasets []Dataset
}

// Snapshots collects the datasets of open groups and hands each group
// over as a Snapshot when its END makes it complete; aborted and
// incomplete groups are dropped, and so are malformed datasets (counted
// in Group.Datasets, absent from the snapshot). It copies the datasets
// into buffers it reuses per kind, so a Snapshot is valid until the next
// group of the same kind begins. Memory is bounded by the reassembler's
// MaxGroupDatasets and MaxGroupBytes, which abort larger groups.
type Snapshots struct {
	open [NumKinds]bool
	ds   [NumKinds][]Dataset
	text [NumKinds][]byte
}

// Apply feeds one reassembler event and returns the snapshot it
// completes, if any.
func (c *Snapshots) Apply(ev Event) (Snapshot, bool) {
	k := ev.Kind
	if int(k) >= NumKinds {
		return Snapshot{}, false
	}
	switch ev.Type {
	case EventSessionChanged:
		c.open = [NumKinds]bool{}
	case EventGroupBegin:
		c.open[k] = true
		c.ds[k], c.text[k] = c.ds[k][:0], c.text[k][:0]
	case EventGroupAborted:
		c.open[k] = false
	case EventDataset:
		if c.open[k] && !ev.Orphan && ev.Err == nil {
			c.ds[k] = append(c.ds[k], ev.Dataset)
			c.text[k] = append(c.text[k], ev.Dataset.Raw...)
		}
	case EventGroupEnd:
		if !c.open[k] {
			return Snapshot{}, false
		}
		c.open[k] = false
		if !ev.Group.Complete {
			return Snapshot{}, false
		}
		// Re-point the views into the copied text, now that it no longer
		// moves.
		text, off := c.text[k], 0
		for i := range c.ds[k] {
			d := &c.ds[k][i]
			n := len(d.Raw)
			raw := text[off : off+n : off+n]
			if d.Cmd != nil {
				d.Cmd = raw[n-len(d.Cmd):]
			}
			if d.IRQ != nil {
				d.IRQ = raw[:len(d.IRQ):len(d.IRQ)]
			}
			d.Raw = raw
			off += n
		}
		return Snapshot{Group: ev.Group, Datasets: c.ds[k]}, true
	}
	return Snapshot{}, false
}
