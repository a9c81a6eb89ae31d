package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pmda"
)

// The pmda figure's shape, served alike by c_pmda.c and by pmdaGoChild.
const (
	pmdaMetrics = 100
	pmdaInsts   = 100
	// pmdaDomainC and pmdaDomainGo are the two PMDAs' domains in the
	// figure's private pmcd, from the end-user range of PCP's stdpmid
	// (385-510); nothing else is installed in that pmcd.
	pmdaDomainC  = 490
	pmdaDomainGo = 491
	// pmdaAllocsItem is the Go PMDA's extra singular metric: the Go heap
	// allocations its process has made so far, read by the harness before
	// and after a run to count allocations per fetch.
	pmdaAllocsItem = pmdaMetrics
	// pmdaBytesItem is the Go heap bytes allocated so far.
	pmdaBytesItem = pmdaMetrics + 1
	// pmdaThreadsItem and pmdaThreadsAfterItem are the OS threads the Go
	// runtime had started just before and just after the allocations were
	// read: starting one allocates (its M and g0), which is the runtime's
	// doing, not the request path's.
	pmdaThreadsItem      = pmdaMetrics + 2
	pmdaThreadsAfterItem = pmdaMetrics + 3
)

var pmdaTypes = [3]pcp.Type{pcp.TypeU64, pcp.TypeU32, pcp.TypeDouble}

// pmdaGoAgent builds the Go side of the figure on package pmda: the same
// metrics, instances and values as c_pmda.c, under prefix (bench.go).
func pmdaGoAgent(domain int, prefix string) (*pmda.Agent, error) {
	insts := make([]pmda.Instance, pmdaInsts)
	for i := range insts {
		insts[i] = pmda.Instance{ID: int32(i), Name: fmt.Sprintf("i%03d", i)}
	}
	indom := pcp.NewInDom(0, 0)
	ms := make([]pmda.Metric, 0, pmdaMetrics+1)
	for i := range pmdaMetrics {
		sem := pcp.SemInstant
		if i%2 == 0 {
			sem = pcp.SemCounter
		}
		ms = append(ms, pmda.Metric{
			Name:  fmt.Sprintf("%s.m%03d", prefix, i),
			PMID:  pcp.NewID(0, 0, uint32(i)),
			Type:  pmdaTypes[i%3],
			Sem:   sem,
			Units: pcp.NewUnits(0, 0, 1, 0, 0, 0),
			InDom: indom,
		})
	}
	ms = append(ms, pmda.Metric{
		Name: prefix + ".allocs", PMID: pcp.NewID(0, 0, pmdaAllocsItem),
		Type: pcp.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), InDom: pcp.InDomNull,
	}, pmda.Metric{
		Name: prefix + ".allocbytes", PMID: pcp.NewID(0, 0, pmdaBytesItem),
		Type: pcp.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(1, 0, 0, 0, 0, 0), InDom: pcp.InDomNull,
	}, pmda.Metric{
		Name: prefix + ".threads", PMID: pcp.NewID(0, 0, pmdaThreadsItem),
		Type: pcp.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), InDom: pcp.InDomNull,
	}, pmda.Metric{
		Name: prefix + ".threadsafter", PMID: pcp.NewID(0, 0, pmdaThreadsAfterItem),
		Type: pcp.TypeU64, Sem: pcp.SemCounter, Units: pcp.NewUnits(0, 0, 1, 0, 0, 0), InDom: pcp.InDomNull,
	})
	var ms0 runtime.MemStats
	var threads [2]int
	return pmda.New(pmda.Options{
		Domain:  domain,
		Name:    "bench_go",
		Metrics: ms,
		InDoms:  []pmda.InDom{{InDom: indom, Instances: insts}},
		Fetch: func(_ context.Context, m *pmda.Metric, inst int32, v *pmda.Value) error {
			item := m.PMID.Item()
			switch item {
			case pmdaAllocsItem:
				// MemStats.Mallocs is what testing.AllocsPerRun counts;
				// reading it stops the world, but only twice per round,
				// outside the timed fetches. The counters are read in
				// one fetch, allocations first; the thread count on both
				// sides of them lets a round whose thread was started
				// while they were read count that thread.
				threads[0], _ = runtime.ThreadCreateProfile(nil)
				runtime.ReadMemStats(&ms0)
				threads[1], _ = runtime.ThreadCreateProfile(nil)
				v.SetUint64(ms0.Mallocs)
				return nil
			case pmdaBytesItem:
				v.SetUint64(ms0.TotalAlloc)
				return nil
			case pmdaThreadsItem, pmdaThreadsAfterItem:
				v.SetUint64(uint64(threads[item-pmdaThreadsItem]))
				return nil
			}
			if inst < 0 || inst >= pmdaInsts {
				return pcp.ErrInst
			}
			x := uint64(item)*1000 + uint64(inst)
			switch m.Type {
			case pcp.TypeU64:
				v.SetUint64(x)
			case pcp.TypeU32:
				v.SetUint32(uint32(x))
			default:
				v.SetFloat64(float64(x))
			}
			return nil
		},
	})
}

// pmdaGoChild is the bench binary run by the figure's pmcd as the Go PMDA
// (-pmda-go): it serves pmcd's pipe on stdin and stdout until pmcd closes it.
func pmdaGoChild() error {
	a, err := pmdaGoAgent(pmdaDomainGo, "bench.go")
	if err != nil {
		return err
	}
	// PERFWIRE_BENCH_PMDA_PROFILE=PREFIX writes PREFIX.cpu.pprof and
	// PREFIX.allocs.pprof (every allocation sampled) when pmcd closes the
	// pipe, for the figure's miss analysis.
	prefix := os.Getenv("PERFWIRE_BENCH_PMDA_PROFILE")
	if prefix == "" {
		return a.ServePipe(context.Background())
	}
	runtime.MemProfileRate = 1
	cpu, err := os.Create(prefix + ".cpu.pprof")
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	err = a.ServePipe(context.Background())
	pprof.StopCPUProfile()
	cpu.Close()
	runtime.GC() // the allocs profile is as of the last completed cycle
	if mem, merr := os.Create(prefix + ".allocs.pprof"); merr == nil {
		pprof.Lookup("allocs").WriteTo(mem, 0)
		mem.Close()
	}
	return err
}
