package dltkpi

import (
	"math/rand/v2"
	"testing"
)

// TestPidTableIsAMap: random puts, gets and deletions, over pids that
// collide in their home slots (few distinct, small and large, negative)
// and through several growths, leave the table equal to a Go map after
// every step.
func TestPidTableIsAMap(t *testing.T) {
	for _, spread := range []int32{40, 5000, 1 << 30} {
		rng := rand.New(rand.NewPCG(uint64(spread), 7))
		var tb pidTable
		m := map[int32]uint32{}
		most := 0
		for step := range 200000 {
			pid := rng.Int32N(spread) - spread/8
			switch op := rng.IntN(10000); {
			case op < 5000:
				tb.put(pid, uint32(step))
				m[pid] = uint32(step)
			case op < 8000:
				tb.del(pid)
				delete(m, pid)
			case op < 9999:
				if some, ok := tb.some(); ok != (len(m) > 0) || ok && !tb.has(some) {
					t.Fatalf("spread %d step %d: some() = %d, %v with %d pids", spread, step, some, ok, len(m))
				}
			default:
				tb.clear()
				clear(m)
			}
			v, ok := tb.get(pid)
			if w, wok := m[pid]; v != w || ok != wok || tb.n != len(m) {
				t.Fatalf("spread %d step %d: pid %d: %d, %v (%d pids), want %d, %v (%d)", spread, step, pid, v, ok, tb.n, w, wok, len(m))
			}
			most = max(most, tb.n)
			if step%20000 == 0 {
				for p, w := range m {
					if v, ok := tb.get(p); !ok || v != w {
						t.Fatalf("spread %d step %d: pid %d lost (%d, %v), want %d", spread, step, p, v, ok, w)
					}
				}
			}
		}
		if most < min(int(spread)/2, 2000) {
			t.Errorf("spread %d: at most %d pids at once: the table hardly grew", spread, most)
		}
	}
}
