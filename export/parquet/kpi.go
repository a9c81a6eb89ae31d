package parquet

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

// KPIProcess is a row of kpi_processes: one process dataset of a dlt-kpi
// message, NEW (a process seen for the first time), ACT (its use of the
// machine over the last interval) or STP (gone), with what the NEW and
// CHK datasets before it said about the process.
type KPIProcess struct {
	File        string  `parquet:"file,dict"`
	ECU         string  `parquet:"ecu,dict"`
	StorageTime int64   `parquet:"storage_time,timestamp(nanosecond:local)"`
	TMSP        int64   `parquet:"tmsp"` // the message's timestamp, 0.1 ms since the ECU started
	Kind        string  `parquet:"kind,dict"`
	PID         int32   `parquet:"pid"`
	PPID        *int32  `parquet:"ppid,optional"`
	Command     *string `parquet:"command,optional,dict"`
	CPU         *int64  `parquet:"cpu_permille,optional"`
	RSS         *int64  `parquet:"rss_pages,optional"`
	Ctx         *int64  `parquet:"ctx_switches,optional"`
	IO          *int64  `parquet:"io_bytes,optional"`
	IOWait      *int64  `parquet:"iowait_permille,optional"`
	Started     *int64  `parquet:"started_tmsp,optional"` // the TMSP of the process's NEW dataset
	Ended       bool    `parquet:"ended"`                 // an STP row

	ppid                          int32
	cmd                           string
	cpu, rss, ctx, io, iow, start int64
}

// KPIIRQ is a row of kpi_irqs: one CPU's count of one interrupt in an IRQ
// dataset (cumulative since boot, as /proc/interrupts has it).
type KPIIRQ struct {
	File        string `parquet:"file,dict"`
	ECU         string `parquet:"ecu,dict"`
	StorageTime int64  `parquet:"storage_time,timestamp(nanosecond:local)"`
	TMSP        int64  `parquet:"tmsp"`
	IRQ         string `parquet:"irq,dict"`
	CPU         int32  `parquet:"cpu"`
	Count       int64  `parquet:"count"`
}

func (r *KPIProcess) estimate() int64 { return int64(rowFixed + 64 + len(r.cmd)) }
func (r *KPIIRQ) estimate() int64     { return int64(rowFixed + len(r.IRQ)) }

// kpiExport turns the dlt-kpi messages of a DLT stream into
// kpi_processes and kpi_irqs rows, one per dataset as perfwire kpi --json
// prints them.
type kpiExport struct {
	name, host string
	procs      *parts[KPIProcess]
	irqs       *parts[KPIIRQ]
	known      map[int32]*procInfo
	sel        dltkpi.Selector
}

// procInfo is what NEW and CHK datasets said about a live process.
type procInfo struct {
	ppid    int32
	hasPPID bool
	cmd     string
	started int64
	hasNew  bool
}

func newKPIExport(o *Output, name, host string) *kpiExport {
	k := &kpiExport{name: name, host: host, known: map[int32]*procInfo{}}
	if o.d.wants(TableKPIProcesses) {
		k.procs = newParts(o, TableKPIProcesses, (*KPIProcess).estimate)
	}
	if o.d.wants(TableKPIIRQs) {
		k.irqs = newParts(o, TableKPIIRQs, (*KPIIRQ).estimate)
	}
	if k.procs == nil && k.irqs == nil {
		return nil
	}
	return k
}

// rows counts the rows written; a nil kpiExport (no KPI table wanted)
// has none.
func (k *kpiExport) rows() int64 {
	if k == nil {
		return 0
	}
	var n int64
	if k.procs != nil {
		n += k.procs.rows()
	}
	if k.irqs != nil {
		n += k.irqs.rows()
	}
	return n
}

// push writes the rows of m's datasets, if m is a KPI message. A KPI
// message that does not parse is passed over, as perfwire kpi does.
func (k *kpiExport) push(m dlt.Message) error {
	if k == nil {
		return nil
	}
	km, src, err := k.sel.FromDLT(m)
	if err != nil {
		return nil
	}
	ecu, part, ns := placeOf(m, k.host)
	tmsp := int64(src.TMSP)
	for d, err := range km.All() {
		if err != nil || d.Truncated {
			continue
		}
		switch d.Kind {
		case dltkpi.KindCHK:
			p := k.info(d.PID)
			p.cmd = validText(d.Cmd)
		case dltkpi.KindIRQ:
			if k.irqs == nil {
				continue
			}
			irq := validText(d.IRQ)
			for c := range d.Counts() {
				r, err := k.irqs.next(part, ns)
				if err != nil {
					return err
				}
				*r = KPIIRQ{File: k.name, ECU: ecu, StorageTime: ns, TMSP: tmsp, IRQ: irq, CPU: int32(c.CPU), Count: c.Count}
				if err := k.irqs.done(r); err != nil {
					return err
				}
			}
		case dltkpi.KindNEW, dltkpi.KindACT, dltkpi.KindSTP:
			p := k.info(d.PID)
			if d.Kind == dltkpi.KindNEW {
				*p = procInfo{ppid: d.PPID, hasPPID: true, cmd: validText(d.Cmd), started: tmsp, hasNew: true}
			}
			if k.procs != nil {
				if err := k.process(part, ecu, ns, tmsp, &d, p); err != nil {
					return err
				}
			}
			if d.Kind == dltkpi.KindSTP {
				delete(k.known, d.PID)
			}
		}
	}
	return nil
}

func (k *kpiExport) info(pid int32) *procInfo {
	p := k.known[pid]
	if p == nil {
		p = &procInfo{}
		k.known[pid] = p
	}
	return p
}

func (k *kpiExport) process(part, ecu string, ns, tmsp int64, d *dltkpi.Dataset, p *procInfo) error {
	r, err := k.procs.next(part, ns)
	if err != nil {
		return err
	}
	r.File, r.ECU, r.StorageTime, r.TMSP, r.Kind, r.PID = k.name, ecu, ns, tmsp, d.Kind.String(), d.PID
	if p.hasPPID {
		r.ppid, r.PPID = p.ppid, &r.ppid
	}
	if p.cmd != "" {
		r.cmd, r.Command = p.cmd, &r.cmd
	}
	if p.hasNew {
		r.start, r.Started = p.started, &r.start
	}
	if d.Kind == dltkpi.KindACT {
		r.cpu, r.CPU = int64(d.CPU), &r.cpu
		r.rss, r.RSS = d.RSS, &r.rss
		r.ctx, r.Ctx = d.Ctx, &r.ctx
		r.io, r.IO = int64(d.IO), &r.io
		r.iow, r.IOWait = int64(d.IOWait), &r.iow
	}
	r.Ended = d.Kind == dltkpi.KindSTP
	return k.procs.done(r)
}
