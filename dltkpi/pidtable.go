package dltkpi

// pidTable maps pids to 32-bit values: open addressing with linear probing in a
// power-of-two array, at most three quarters full, deletions by shifting
// the entries after them back. The tracker looks pids up for nearly every
// dataset; in the wasm plugins a Go map with int32 keys hashed each one
// through the runtime's portable hash (no AES there), and its lookups
// were 7% of a KPI decode, against about 1% for this table. Its values
// are plain numbers (the process table keeps indexes into its list), so
// that one type serves both tables: a generic one made twice the code.
type pidTable struct {
	slots []pidSlot
	n     int
	shift uint8 // 32 - log2(len(slots))
}

type pidSlot struct {
	_    [0]func() // not comparable: no equality function in the wasm build
	pid  int32
	used bool
	v    uint32
}

// home is pid's first slot: Fibonacci hashing, the top bits of the
// product, so that the consecutive pids a machine hands out spread.
func (t *pidTable) home(pid int32) int { return int(uint32(pid) * 0x9e3779b1 >> t.shift) }

// find returns the slot of pid, or the empty slot where it would go.
func (t *pidTable) find(pid int32) (int, bool) {
	mask := len(t.slots) - 1
	for i := t.home(pid); ; i = (i + 1) & mask {
		if s := &t.slots[i]; !s.used || s.pid == pid {
			return i, s.used
		}
	}
}

func (t *pidTable) get(pid int32) (v uint32, ok bool) {
	if t.n == 0 {
		return v, false
	}
	if i, ok := t.find(pid); ok {
		return t.slots[i].v, true
	}
	return v, false
}

func (t *pidTable) has(pid int32) bool {
	_, ok := t.get(pid)
	return ok
}

func (t *pidTable) put(pid int32, v uint32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	i, ok := t.find(pid)
	if !ok {
		t.n++
	}
	t.slots[i] = pidSlot{pid: pid, used: true, v: v}
}

func (t *pidTable) grow() {
	old := t.slots
	size := max(16, 2*len(old))
	t.slots = make([]pidSlot, size)
	t.shift = 32
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for _, s := range old {
		if s.used {
			i, _ := t.find(s.pid)
			t.slots[i] = s
		}
	}
}

func (t *pidTable) del(pid int32) {
	if t.n == 0 {
		return
	}
	i, ok := t.find(pid)
	if !ok {
		return
	}
	// Every entry up to the next empty slot that could live at i (its
	// home is not cyclically in (i, j]) moves back there.
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; t.slots[j].used; j = (j + 1) & mask {
		h := t.home(t.slots[j].pid)
		if i <= j && i < h && h <= j || i > j && (i < h || h <= j) {
			continue
		}
		t.slots[i] = t.slots[j]
		i = j
	}
	t.slots[i] = pidSlot{}
	t.n--
}

// some returns a pid in the table, false when it is empty.
func (t *pidTable) some() (int32, bool) {
	for i := range t.slots {
		if t.slots[i].used {
			return t.slots[i].pid, true
		}
	}
	return 0, false
}

func (t *pidTable) clear() {
	clear(t.slots)
	t.n = 0
}
