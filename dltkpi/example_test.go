package dltkpi_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
)

// The verbose payload of one ACT message, as dlt-kpi sends it.
func actPayload() []byte {
	var p []byte
	p = dltkpi.AppendArgument(p, []byte("ACT"))
	p = dltkpi.AppendArgument(p, []byte("15207;275;808;292;17429;0"))
	p = dltkpi.AppendArgument(p, []byte("78;5;0;3497;0;0"))
	return p
}

func ExampleParse() {
	m, err := dltkpi.Parse(actPayload())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Kind, m.Datasets)
	for d, err := range m.All() {
		if err != nil {
			continue // malformed datasets do not stop the message
		}
		fmt.Printf("pid %d cpu %d‰ rss %d pages\n", d.PID, d.CPU, d.RSS)
	}
	// Output:
	// ACT 2
	// pid 15207 cpu 275‰ rss 808 pages
	// pid 78 cpu 5‰ rss 0 pages
}

func ExampleParseDataset() {
	// NEW splits on the first two ';' only: the command keeps the rest.
	d, _ := dltkpi.ParseDataset(dltkpi.KindNEW, []byte("15178;14985;semi;colon;;name;1"))
	fmt.Printf("%d %d %q\n", d.PID, d.PPID, d.Cmd)
	irq, _ := dltkpi.ParseDataset(dltkpi.KindIRQ, []byte("LOC;cpu0:350458;cpu1:343627;"))
	for c := range irq.Counts() {
		fmt.Printf("%s cpu%d %d\n", irq.IRQ, c.CPU, c.Count)
	}
	// Output:
	// 15178 14985 "semi;colon;;name;1"
	// LOC cpu0 350458
	// LOC cpu1 343627
}

func ExampleEncodeGroup() {
	long := make([]byte, 700)
	for i := range long {
		long[i] = 'x'
	}
	cmd := append([]byte("/bin/"), long...)
	ds := [][]byte{
		dltkpi.AppendNew(nil, 100, 1, cmd),
		dltkpi.AppendNew(nil, 101, 1, cmd),
	}
	// Each 711-byte dataset costs 718 bytes and the identifier 10, so the
	// second does not fit the 1390-byte buffer: libdlt fills the rest with
	// a fragment and dlt-kpi repeats the dataset in the next message.
	payloads, _ := dltkpi.EncodeGroup(dltkpi.KindNEW, ds, 0)
	for _, p := range payloads {
		m, _ := dltkpi.Parse(p)
		fmt.Println(m.Kind, m.Sync, m.Datasets, m.Fragments, len(p))
	}
	// Output:
	// NEW BEG 0 0 20
	// NEW  1 1 1390
	// NEW  1 0 728
	// NEW END 0 0 20
}

func ExampleReassembler() {
	r := dltkpi.NewReassembler(dltkpi.Options{})
	src := dltkpi.Source{SEID: 14698, TMSP: 11517792}
	push := func(args ...string) {
		var p []byte
		for _, a := range args {
			p = dltkpi.AppendArgument(p, []byte(a))
		}
		r.PushPayload(src, p, nil)
		src.MCNT++
		for r.Next() {
			ev := r.Event()
			switch ev.Type {
			case dltkpi.EventDataset:
				fmt.Println(ev.Type, ev.Kind, string(ev.Dataset.Raw), "orphan:", ev.Orphan)
			case dltkpi.EventGroupEnd:
				fmt.Println(ev.Type, ev.Kind, ev.Group.Datasets, "complete:", ev.Group.Complete)
			default:
				fmt.Println(ev.Type, ev.Kind)
			}
		}
	}
	push("STP", "BEG")
	push("IRQ", "24;cpu0:1;cpu1:0;") // another thread's kind, outside its group
	push("STP", "15176", "15174")
	push("STP", "END")
	// Output:
	// begin STP
	// dataset IRQ 24;cpu0:1;cpu1:0; orphan: true
	// dataset STP 15176 orphan: false
	// dataset STP 15174 orphan: false
	// end STP 2 complete: true
}

func ExampleTracker() {
	r := dltkpi.NewReassembler(dltkpi.Options{})
	t := dltkpi.NewTracker(dltkpi.Options{})
	src := dltkpi.Source{SEID: 1}
	push := func(args ...string) {
		var p []byte
		for _, a := range args {
			p = dltkpi.AppendArgument(p, []byte(a))
		}
		r.PushPayload(src, p, nil)
		src.MCNT++
		for r.Next() {
			t.Apply(r.Event())
		}
	}
	src.TMSP = 10000 // 1 s
	push("NEW", "BEG")
	push("NEW", "15207;14985;busy-normal-1", "15209;0;/bin/busy loop")
	push("NEW", "END")
	push("ACT", "15207;275;808;292;17429;0")
	src.TMSP = 20000 // 2 s
	push("ACT", "15207;270;810;300;18429;0")
	for _, p := range t.Processes() {
		fmt.Printf("%d %q shifted=%v rss=%d KiB ctx+%d io+%d in %d ms\n",
			p.PID, p.Cmd, p.StatShifted, p.RSSBytes(4096)/1024, p.CtxDelta, p.IODelta, p.Interval/10)
	}
	// Output:
	// 15207 "busy-normal-1" shifted=false rss=3240 KiB ctx+8 io+1000 in 1000 ms
	// 15209 "/bin/busy loop" shifted=true rss=0 KiB ctx+0 io+0 in 0 ms
}

// Reading a capture: package dlt frames the messages, PushDLT selects
// and parses the KPI ones, the tracker keeps the table.
func ExampleReassembler_PushDLT() {
	data, err := os.ReadFile("testdata/kpi-odd.dlt")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := dltkpi.NewReassembler(dltkpi.Options{})
	t := dltkpi.NewTracker(dltkpi.Options{})
	s := dlt.NewScanner(data, dlt.Options{})
	for s.Next() {
		r.PushDLT(dltkpi.Selector{}, s.Message())
		for r.Next() {
			t.Apply(r.Event())
		}
	}
	st := r.Stats()
	fmt.Println("KPI messages:", st.Messages, "other:", st.Skipped)
	fmt.Println("NEW groups:", st.Groups[dltkpi.KindNEW], "CHK groups:", st.Groups[dltkpi.KindCHK], "fragments:", st.Fragments)
	p, _ := t.Process(14698)
	fmt.Printf("%d %s\n", p.PID, p.Cmd)
	// Output:
	// KPI messages: 447 other: 5
	// NEW groups: 26 CHK groups: 26 fragments: 13
	// 14698 /usr/bin/dlt-kpi
}
