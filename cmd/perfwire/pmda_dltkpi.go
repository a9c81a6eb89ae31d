package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pmda"
)

// dltkpiDomain is the dltkpi PMDA's domain: the top of the end-user
// range of PCP's stdpmid (docs/pmda-dltkpi.md).
const dltkpiDomain = 510

// The metrics' items, cluster 0 per process, 1 per CPU, 2 global.
const (
	dkCPU = iota
	dkRSS
	dkCtx
	dkIO
	dkIOWait
	dkPPID
	dkCmd
)

const (
	dkIntr       = iota // cluster 1
	dkInterrupts        // cluster 1, indom of lines × CPUs
)

const (
	dkNProcs = iota // cluster 2
	dkStarted
	dkStopped
)

// The instance domains' serials.
const (
	dkProcs = iota
	dkCPUs
	dkLines
)

// dltkpiMetrics is the map of docs/pmda-dltkpi.md.
func dltkpiMetrics() ([]pmda.Metric, []pmda.InDom) {
	procs, cpus, lines := pcp.NewInDom(0, dkProcs), pcp.NewInDom(0, dkCPUs), pcp.NewInDom(0, dkLines)
	none, count := pcp.Units(0), pcp.NewUnits(0, 0, 1, 0, 0, 0)
	kbyte, byteU := pcp.NewUnits(1, 0, 0, 1, 0, 0), pcp.NewUnits(1, 0, 0, 0, 0, 0)
	m := func(name string, cluster, item uint32, t pcp.Type, sem pcp.Sem, u pcp.Units, in pcp.InDom, help string) pmda.Metric {
		return pmda.Metric{Name: "dltkpi." + name, PMID: pcp.NewID(0, cluster, item), Type: t, Sem: sem, Units: u, InDom: in, OneLine: help}
	}
	ms := []pmda.Metric{
		m("proc.cpu", 0, dkCPU, pcp.TypeU32, pcp.SemInstant, none, procs, "share of the ECU's CPU time in dlt-kpi's latest interval, per mille"),
		m("proc.rss", 0, dkRSS, pcp.TypeU64, pcp.SemInstant, kbyte, procs, "resident set size in the latest ACT sample"),
		m("proc.ctxsw", 0, dkCtx, pcp.TypeU64, pcp.SemCounter, count, procs, "context switches of the main thread since the process started"),
		m("proc.io", 0, dkIO, pcp.TypeU64, pcp.SemCounter, byteU, procs, "bytes through read and write system calls since the process started"),
		m("proc.iowait", 0, dkIOWait, pcp.TypeU32, pcp.SemInstant, none, procs, "block I/O delay in dlt-kpi's latest interval, per mille"),
		m("proc.ppid", 0, dkPPID, pcp.TypeU32, pcp.SemDiscrete, none, procs, "parent process id, from the process's NEW message"),
		m("proc.cmd", 0, dkCmd, pcp.TypeString, pcp.SemDiscrete, none, procs, "command as dlt-kpi sends it: argv[0], or (comm)"),
		m("percpu.intr", 1, dkIntr, pcp.TypeU64, pcp.SemCounter, count, cpus, "interrupts on each CPU since boot, all lines of the ECU's /proc/interrupts"),
		m("percpu.interrupts", 1, dkInterrupts, pcp.TypeU64, pcp.SemCounter, count, lines, "interrupts of one /proc/interrupts line on one CPU since boot"),
		m("nprocs", 2, dkNProcs, pcp.TypeU32, pcp.SemInstant, none, pcp.InDomNull, "processes dlt-kpi reports"),
		m("processes.started", 2, dkStarted, pcp.TypeU64, pcp.SemCounter, count, pcp.InDomNull, "processes dlt-kpi reported as new since the PMDA started"),
		m("processes.stopped", 2, dkStopped, pcp.TypeU64, pcp.SemCounter, count, pcp.InDomNull, "processes known to have ended since the PMDA started"),
	}
	indoms := []pmda.InDom{
		{InDom: procs, OneLine: "processes of the ECU, named as the proc PMDA names them"},
		{InDom: cpus, OneLine: "CPUs of the ECU"},
		{InDom: lines, OneLine: "interrupt lines × CPUs of the ECU, LINE::cpuN"},
	}
	return ms, indoms
}

const pmdaDltkpiUsage = `usage: perfwire pmda dltkpi [--dlt HOST[:PORT]] [--ecu ID] [--page-size N]
                          [--capture FILE.dlt] [-d DOMAIN] [-l LOGFILE]

A PMDA that follows a dlt-daemon as "perfwire kpi top --follow" does and
serves dlt-kpi's figures as the metrics dltkpi.* (docs/pmda-dltkpi.md).
pmcd starts it over a pipe; "perfwire pmda install dltkpi" installs it.
A daemon that cannot be reached or goes away is logged and reconnected.

  --dlt HOST[:PORT]  the dlt-daemon (default localhost:3490)
  --ecu ID           the ECU label (default: the first KPI message's ECU id)
  --page-size N      bytes per page, to convert RSS (default 4096)
  --capture FILE     also write every DLT message consumed to FILE as a
                     storage capture, for "perfwire kpi" to read back`

// runPMDADltkpi implements "perfwire pmda dltkpi".
func runPMDADltkpi(args []string, _ io.Writer) error {
	fs := flag.NewFlagSet("pmda dltkpi", flag.ContinueOnError)
	fs.SetOutput(diag)
	addr := fs.String("dlt", "localhost:3490", "dlt-daemon HOST[:PORT]")
	ecu := fs.String("ecu", "", "ECU label")
	pageSize := fs.Int64("page-size", 4096, "bytes per page")
	capture := fs.String("capture", "", "write the DLT messages consumed here")
	domain := fs.Int("d", dltkpiDomain, "domain number")
	logfile := fs.String("l", "", "log file (default stderr)")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, pmdaDltkpiUsage)
	}
	if *pageSize <= 0 || fs.NArg() != 0 {
		return usagef("%s", pmdaDltkpiUsage)
	}
	logger := log.New(diag, "dltkpi: ", log.LstdFlags)
	if *logfile != "" {
		f, err := os.OpenFile(*logfile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		logger.SetOutput(f)
	}
	b := newKPIBridge(*pageSize, logger.Printf)
	if *capture != "" {
		f, err := os.OpenFile(*capture, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		b.capture = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go b.follow(ctx, *addr)
	if *ecu == "" {
		// pmcd waits 3 s for the PMDA's first PDU: a second at most for
		// the ECU id, which labels the domain from the start.
		select {
		case <-b.ecuSeen:
		case <-time.After(time.Second):
		}
		*ecu = b.ECU()
	}
	a, err := b.agent(*domain, *ecu)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- a.ServePipe(ctx) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// ServePipe may be blocked reading pmcd's pipe: return without
		// it, holding the lock so that no capture record is half written.
		b.mu.Lock()
		b.capture = nil
		err = nil
	}
	if err == context.Canceled {
		err = nil
	}
	return err
}

// kpiBridge holds the tracker the DLT side feeds and the snapshot the
// PMDA side serves from.
type kpiBridge struct {
	logf     func(string, ...any)
	pageSize int64
	capture  io.Writer // nil: no capture

	mu      sync.Mutex // guards the fields up to snap
	kp      *dltkpi.Session
	t       *dltkpi.Tracker
	started uint64
	stopped uint64
	ecu     string
	ecuSeen chan struct{}
	rec     []byte

	snap kpiSnapshot // the PMDA side's, refreshed at each fetch
}

// kpiSnapshot is what one FETCH serves: a copy of the tracker's state.
type kpiSnapshot struct {
	procs   []dltkpi.Process
	byPID   map[int32]int
	irqs    []dltkpi.IRQRate
	perCPU  map[int32]uint64
	lineIDs map[string]int32 // "LINE::cpuN" → instance id, never reused
	lineOf  map[int32]int    // instance id → index in irqs
	started uint64
	stopped uint64
	agent   *pmda.Agent
}

func newKPIBridge(pageSize int64, logf func(string, ...any)) *kpiBridge {
	kp := dltkpi.NewSession(dltkpi.Options{KeepEnded: true})
	return &kpiBridge{
		logf: logf, pageSize: pageSize, kp: kp, t: kp.Tracker(), ecu: "unknown", ecuSeen: make(chan struct{}),
		snap: kpiSnapshot{byPID: map[int32]int{}, perCPU: map[int32]uint64{}, lineIDs: map[string]int32{}, lineOf: map[int32]int{}},
	}
}

// ECU is the ECU id of the stream, "unknown" until a message names it.
func (b *kpiBridge) ECU() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ecu
}

// follow reads the daemon until ctx ends, reconnecting with a back-off
// whenever it cannot be reached or its stream ends or breaks.
func (b *kpiBridge) follow(ctx context.Context, addr string) {
	backoff := 500 * time.Millisecond
	for ctx.Err() == nil {
		t0 := time.Now()
		err := b.followOnce(ctx, daemonAddr(addr))
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			b.logf("dlt-daemon at %s closed the stream; reconnecting", daemonAddr(addr))
		} else {
			b.logf("%v; reconnecting", err)
		}
		if time.Since(t0) > 30*time.Second {
			backoff = 500 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 30*time.Second)
	}
}

func (b *kpiBridge) followOnce(ctx context.Context, addr string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connecting to dlt-daemon at %s: %w", addr, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := readBare(conn, b.push); err != nil {
		return fmt.Errorf("dlt-daemon at %s: %w", addr, err)
	}
	return nil
}

// push applies one message: the reassembler and the tracker count and
// skip what is damaged, so nothing here can stop the PMDA.
func (b *kpiBridge) push(m dlt.Message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.capture != nil {
		b.rec = storageRecord(b.rec[:0], m, time.Now())
		if _, err := b.capture.Write(b.rec); err != nil {
			b.logf("capture: %v; capture stopped", err)
			b.capture = nil
		}
	}
	b.kp.Push(m)
	for b.kp.Next() {
		ev := b.kp.Current()
		if ev.Kind == dltkpi.KindNEW && ev.Type == dltkpi.EventDataset && ev.Err == nil && !ev.Orphan {
			b.started++
		}
		if b.ecu == "unknown" && ev.Type == dltkpi.EventDataset {
			if id, ok := m.HeaderECU(); ok {
				b.ecu = id.String()
				close(b.ecuSeen)
			}
		}
	}
	b.stopped += uint64(len(b.t.TakeEnded()))
	return true
}

// agent builds the PMDA on the bridge.
func (b *kpiBridge) agent(domain int, ecu string) (*pmda.Agent, error) {
	ms, indoms := dltkpiMetrics()
	ecuJSON := strconv.Quote(ecu)
	a, err := pmda.New(pmda.Options{
		Domain:       domain,
		Name:         "dltkpi",
		Metrics:      ms,
		InDoms:       indoms,
		DomainLabels: `{"agent":"dltkpi","ecu":` + ecuJSON + `}`,
		Refresh:      func(context.Context, []pcp.ID) error { return b.refresh() },
		Instance:     func(context.Context, pcp.InDom) error { return b.refresh() },
		Fetch:        b.fetch,
		Logf:         b.logf,
	})
	if err != nil {
		return nil, err
	}
	b.snap.agent = a
	return a, nil
}

// refresh copies the tracker's state into the snapshot and updates the
// instance domains where they changed.
func (b *kpiBridge) refresh() error {
	s := &b.snap
	b.mu.Lock()
	s.procs = b.t.Processes()
	s.irqs = b.t.AppendIRQs(s.irqs[:0])
	s.started, s.stopped = b.started, b.stopped
	b.mu.Unlock()

	clear(s.byPID)
	procs := make([]pmda.Instance, len(s.procs))
	for i, p := range s.procs {
		s.byPID[p.PID] = i
		procs[i] = pmda.Instance{ID: p.PID, Name: fmt.Sprintf("%06d %s", p.PID, p.Cmd)}
	}
	clear(s.perCPU)
	clear(s.lineOf)
	var cpus []pmda.Instance
	for i, r := range s.irqs {
		cpu := int32(r.CPU)
		if _, ok := s.perCPU[cpu]; !ok {
			cpus = append(cpus, pmda.Instance{ID: cpu, Name: "cpu" + strconv.Itoa(r.CPU)})
		}
		s.perCPU[cpu] += uint64(max(r.Count, 0))
		key := r.Name + "::cpu" + strconv.Itoa(r.CPU)
		id, ok := s.lineIDs[key]
		if !ok {
			id = int32(len(s.lineIDs))
			s.lineIDs[key] = id
		}
		s.lineOf[id] = i
	}
	lines := make([]pmda.Instance, 0, len(s.lineOf))
	for key, id := range s.lineIDs {
		if _, ok := s.lineOf[id]; ok {
			lines = append(lines, pmda.Instance{ID: id, Name: key})
		}
	}
	slices.SortFunc(lines, func(x, y pmda.Instance) int { return cmp.Compare(x.ID, y.ID) })
	a := s.agent
	for _, x := range []struct {
		serial uint32
		list   []pmda.Instance
	}{{dkProcs, procs}, {dkCPUs, cpus}, {dkLines, lines}} {
		if err := a.SetInstances(a.InDom(x.serial), x.list); err != nil {
			b.logf("instance domain %d: %v", x.serial, err)
		}
	}
	return nil
}

// fetch serves one value from the snapshot; a process without an ACT
// sample yet has no CPU, RSS, I/O or context switch value.
func (b *kpiBridge) fetch(_ context.Context, m *pmda.Metric, inst int32, v *pmda.Value) error {
	s := &b.snap
	switch m.PMID.Cluster() {
	case 0:
		i, ok := s.byPID[inst]
		if !ok {
			return pcp.ErrInst
		}
		p := &s.procs[i]
		switch m.PMID.Item() {
		case dkPPID:
			if p.PPIDKnown {
				v.SetUint32(uint32(p.PPID))
			}
			return nil
		case dkCmd:
			v.SetBytes(p.Cmd)
			return nil
		}
		if !p.HasACT {
			return nil
		}
		switch m.PMID.Item() {
		case dkCPU:
			v.SetUint32(uint32(min(p.CPU, 1<<32-1)))
		case dkRSS:
			v.SetUint64(uint64(max(p.RSSBytes(b.pageSize), 0)) / 1024)
		case dkCtx:
			v.SetUint64(uint64(max(p.Ctx, 0)))
		case dkIO:
			v.SetUint64(p.IO)
		case dkIOWait:
			v.SetUint32(uint32(min(p.IOWait, 1<<32-1)))
		}
	case 1:
		if m.PMID.Item() == dkIntr {
			n, ok := s.perCPU[inst]
			if !ok {
				return pcp.ErrInst
			}
			v.SetUint64(n)
			return nil
		}
		i, ok := s.lineOf[inst]
		if !ok {
			return pcp.ErrInst
		}
		v.SetUint64(uint64(max(s.irqs[i].Count, 0)))
	case 2:
		switch m.PMID.Item() {
		case dkNProcs:
			v.SetUint32(uint32(len(s.procs)))
		case dkStarted:
			v.SetUint64(s.started)
		case dkStopped:
			v.SetUint64(s.stopped)
		}
	}
	return nil
}

// dltkpiPMNS is the dltkpi PMDA's namespace.
func dltkpiPMNS(domain int) ([]byte, error) {
	b := newKPIBridge(4096, func(string, ...any) {})
	a, err := b.agent(domain, "unknown")
	if err != nil {
		return nil, err
	}
	return a.AppendPMNS(nil), nil
}
