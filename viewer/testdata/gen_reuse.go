//go:build ignore

// gen_reuse writes kpi-reuse.dlt, a synthetic dlt-kpi capture for the
// viewer's test: what a real capture of a few seconds rarely has, pids
// reused (after an STP, and by a NEW for a pid still in the table), a
// process gone without its STP (missed by a complete CHK group), ACT
// values that change each second and interrupts that grow.
//
//	go run gen_reuse.go
package main

import (
	"log"
	"os"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

type gen struct {
	out  []byte
	mcnt uint8
}

func (g *gen) group(tmsp uint32, k dltkpi.Kind, datasets ...[]byte) {
	payloads, err := dltkpi.EncodeGroup(k, datasets, 0)
	if err != nil {
		log.Fatal(err)
	}
	for _, pl := range payloads {
		h := dlt.LogHeader(dlt.MakeID("ECU1"), dlt.MakeID("PROC"), dlt.MakeID("PROC"), dlt.LevelInfo, 4242, tmsp)
		h.Counter = g.mcnt
		g.mcnt++
		m, err := dltkpi.Parse(pl)
		if err != nil {
			log.Fatal(err)
		}
		b, err := dlt.AppendMessage(nil, h, m.Arguments, pl)
		if err != nil {
			log.Fatal(err)
		}
		g.out = dlt.AppendStorageHeader(g.out, dlt.StorageHeader{Seconds: 1764000000 + tmsp/10000, Microseconds: int32(tmsp%10000) * 100, ECU: dlt.MakeID("ECU1")})
		g.out = append(g.out, b...)
	}
}

type proc struct {
	pid, ppid int32
	cmd       string
	cpu       uint64
	rss, ctx  int64
	io        uint64
}

func main() {
	g := &gen{}
	const t0 = 1000000 // 100 s of ECU uptime
	live := map[int32]*proc{}
	order := []int32{}
	start := func(t uint32, ps ...*proc) {
		var ds [][]byte
		for _, p := range ps {
			if _, ok := live[p.pid]; !ok {
				order = append(order, p.pid)
			}
			live[p.pid] = p
			ds = append(ds, dltkpi.AppendNew(nil, p.pid, p.ppid, []byte(p.cmd)))
		}
		g.group(t, dltkpi.KindNEW, ds...)
	}
	forget := func(pid int32) {
		delete(live, pid)
		for i, o := range order {
			if o == pid {
				order = append(order[:i], order[i+1:]...)
				break
			}
		}
	}
	stop := func(t uint32, pids ...int32) {
		var ds [][]byte
		for _, pid := range pids {
			forget(pid)
			ds = append(ds, dltkpi.AppendStop(nil, pid))
		}
		g.group(t, dltkpi.KindSTP, ds...)
	}
	start(t0, &proc{pid: 1, cmd: "/sbin/init", rss: 300},
		&proc{pid: 100, ppid: 1, cmd: "/usr/bin/dlt-daemon", rss: 900},
		&proc{pid: 200, ppid: 1, cmd: "/usr/bin/worker", rss: 5000},
		&proc{pid: 300, ppid: 200, cmd: "job-a", rss: 1200},
		&proc{pid: 301, ppid: 200, cmd: "(kworker/0:1)", rss: 0})
	irq := int64(0)
	for s := uint32(1); s <= 20; s++ {
		t := t0 + s*10000
		switch s {
		case 5:
			stop(t-3000, 300) // job-a exits
		case 7:
			start(t-2000, &proc{pid: 300, ppid: 200, cmd: "job-b", rss: 800}) // pid 300 again
		case 12:
			// pid 200 reused without an STP ever seen: a NEW replaces it.
			start(t-4000, &proc{pid: 200, ppid: 1, cmd: "/usr/bin/worker --again", rss: 4000})
		case 14:
			start(t-1000, &proc{pid: 400, ppid: 100, cmd: "short-lived", rss: 100})
		case 16:
			stop(t-5000, 400)
		}
		if s == 10 || s == 17 {
			// A complete CHK group; at 17 without pid 301, gone unseen.
			if s == 17 {
				forget(301)
			}
			var ds [][]byte
			for _, pid := range order {
				ds = append(ds, dltkpi.AppendCheck(nil, pid, []byte(live[pid].cmd)))
			}
			g.group(t-500, dltkpi.KindCHK, ds...)
		}
		var act [][]byte
		for i, pid := range order {
			p := live[pid]
			p.cpu = uint64((int(s)*37+i*53)%180 + 5*i)
			p.rss += int64((int(s)*7+i*3)%11) * 16
			p.ctx += int64(s)*3 + int64(i)*11
			p.io += uint64(s) * 4096 * uint64(i+1)
			if pid == 1 && s%4 == 0 {
				continue // idle: not listed, its CPU drops to 0
			}
			act = append(act, dltkpi.AppendAct(nil, pid, p.cpu, p.rss, p.ctx, p.io, 0))
		}
		g.group(t, dltkpi.KindACT, act...)
		if s%3 == 0 {
			irq += int64(s) * 100
			var ds [][]byte
			for i, name := range []string{"0", "1", "eth0", "LOC", "NMI", "RES"} {
				ds = append(ds, dltkpi.AppendIRQ(nil, []byte(name), []int64{irq * int64(i+1), irq/2 + int64(i)*int64(s)}))
			}
			g.group(t+2000, dltkpi.KindIRQ, ds...)
		}
	}
	if err := os.WriteFile("kpi-reuse.dlt", g.out, 0o644); err != nil {
		log.Fatal(err)
	}
}
