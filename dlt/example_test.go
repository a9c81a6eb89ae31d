package dlt_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/perfwire/perfwire/dlt"
)

// Scan a .dlt file, keep only dlt-kpi's messages (APID/CTID PROC/PROC)
// and print their arguments.
func ExampleScanner() {
	data, err := os.ReadFile("testdata/kpi-odd.dlt")
	if err != nil {
		panic(err)
	}
	proc := dlt.MakeID("PROC")
	s := dlt.NewScanner(data, dlt.Options{})
	n := 0
	for s.Next() {
		m := s.Message()
		if !m.Verbose() || m.AppID() != proc || m.ContextID() != proc {
			continue // filter on headers before touching the payload
		}
		if n++; n > 3 {
			continue
		}
		ts, _ := m.Timestamp()
		fmt.Print(ts, " ", m.NumArgs(), ":")
		for a, err := range m.Args() {
			if err != nil {
				panic(err)
			}
			fmt.Printf(" %q", a.Bytes()[:min(len(a.Bytes()), 17)])
		}
		fmt.Println()
	}
	if err := s.Err(); err != nil {
		panic(err)
	}
	fmt.Println(n, "KPI messages, skipped", s.Skipped(), "bytes")
	// Output:
	// 11517641 2: "IRQ" "BEG"
	// 11517642 36: "IRQ" "24;cpu0:1;cpu1:0;" "25;cpu0:0;cpu1:1;" "26;cpu0:0;cpu1:14" "28;cpu0:0;cpu1:0;" "29;cpu0:0;cpu1:0;" "30;cpu0:0;cpu1:0;" "31;cpu0:0;cpu1:23" "32;cpu0:67;cpu1:0" "33;cpu0:0;cpu1:0;" "34;cpu0:31;cpu1:0" "35;cpu0:0;cpu1:1;" "36;cpu0:0;cpu1:22" "37;cpu0:0;cpu1:0;" "38;cpu0:0;cpu1:46" "39;cpu0:3585;cpu1" "40;cpu0:0;cpu1:0;" "41;cpu0:10770;cpu" "42;cpu0:0;cpu1:17" "43;cpu0:1;cpu1:0;" "NMI;cpu0:0;cpu1:0" "LOC;cpu0:350458;c" "SPU;cpu0:0;cpu1:0" "PMI;cpu0:0;cpu1:0" "IWI;cpu0:0;cpu1:1" "RTR;cpu0:0;cpu1:0" "RES;cpu0:72509;cp" "CAL;cpu0:151153;c" "TLB;cpu0:58853;cp" "TRM;cpu0:0;cpu1:0" "HYP;cpu0:48;cpu1:" "ERR;cpu0:0;" "MIS;cpu0:0;" "PIN;cpu0:0;cpu1:0" "NPI;cpu0:0;cpu1:0" "PIW;cpu0:0;cpu1:0"
	// 11517642 2: "IRQ" "END"
	// 447 KPI messages, skipped 0 bytes
}

// Encode a verbose log message the way libdlt does, with a storage header
// as dlt-receive writes it, then decode it again.
func ExampleBuilder() {
	ecu := dlt.MakeID("ECU1")
	buf := dlt.AppendStorageHeader(nil, dlt.StorageHeader{Seconds: 1795315932, ECU: ecu})
	m := dlt.NewBuilder(buf, dlt.LogHeader(ecu, dlt.MakeID("PROC"), dlt.MakeID("PROC"), dlt.LevelInfo, 14698, 11727820))
	m.String("NEW")
	m.String("17294;14904;sleep")
	m.Arg(dlt.ArgSpec{Kind: dlt.KindUnsigned, Bits: 16, Coding: dlt.CodingHex, Uint: 0xbeef})
	buf, err := m.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", buf[16:20])

	msg, _, err := dlt.ConsumeMessage(buf, dlt.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(msg.Len(), msg.AppID(), msg.Type(), dlt.SubtypeName(msg.Type(), msg.Subtype()), msg.NumArgs())
	var text []byte
	for a := range msg.Args() {
		text, _ = a.AppendText(append(text, ' '))
	}
	fmt.Printf("[%s]\n", text[1:])
	// Output:
	// 3d 00 00 42
	// 66 PROC log info 3
	// [NEW 17294;14904;sleep 0xbeef]
}

// Errors carry a kind for errors.Is and the input offset.
func ExampleParseError() {
	_, _, err := dlt.ConsumeMessage([]byte("DLT\x02 a DLT v2 storage header"), dlt.Options{})
	fmt.Println(errors.Is(err, dlt.ErrVersion))
	if pe, ok := errors.AsType[*dlt.ParseError](err); ok {
		fmt.Println(pe.Field, pe.Offset)
	}
	fmt.Println(err)
	// Output:
	// true
	// storage header 3
	// dlt: storage header: unsupported version at offset 3
}

// Print messages as `TZ=UTC dlt-convert -a` does (the tool adds an index).
func ExampleMessage_AppendText() {
	data, err := os.ReadFile("testdata/kpi-odd.dlt")
	if err != nil {
		panic(err)
	}
	s := dlt.NewScanner(data, dlt.Options{})
	var line []byte
	for i := 0; i < 5 && s.Next(); i++ {
		if i == 3 {
			continue // a long GET_LOG_INFO response
		}
		line, _ = s.Message().AppendText(line[:0])
		fmt.Printf("%d %s\n", i, line)
	}
	// Output:
	// 0 2026/11/22 02:52:12.374134   11522717 000 ECU1 DA1- DC1- control response N 1 [service(3842), ok, 02 00 00 00 00]
	// 1 2026/11/22 02:52:12.374243   11516306 000 ECU1 DLTD INTM log info V 1 [Daemon launched. Starting to output traces...]
	// 2 2026/11/22 02:52:12.374248   11517633 001 ECU1 DLTD INTM log info V 1 [ApplicationID 'PROC' registered for PID 14698, Description=/proc/-filesystem logger application]
	// 4 2026/11/22 02:52:12.374251   11517641 000 ECU1 PROC PROC log info V 2 [IRQ BEG]
}

// A live stream pushed piece by piece: each record comes out once what
// follows it decides it (here, the next record's header pattern).
func ExampleFeeder() {
	ecu := dlt.MakeID("ECU1")
	var b []byte
	for i := range 3 {
		b = dlt.AppendStorageHeader(b, dlt.StorageHeader{Seconds: uint32(i), ECU: ecu})
		m := dlt.NewBuilder(b, dlt.LogHeader(ecu, dlt.MakeID("APP"), dlt.MakeID("CTX"), dlt.LevelInfo, 1, uint32(i)))
		m.String("hello")
		var err error
		if b, err = m.Finish(); err != nil {
			panic(err)
		}
	}
	f := dlt.NewFeeder(dlt.Options{})
	for off := 0; off < len(b); off += 10 {
		f.Feed(b[off:min(off+10, len(b))])
		for f.Next() {
			fmt.Println("record at", f.Message().Offset())
		}
	}
	f.End()
	for f.Next() {
		fmt.Println("record at", f.Message().Offset(), "(at the end)")
	}
	fmt.Println("error:", f.Err())
	// Output:
	// record at 0
	// record at 54
	// record at 108 (at the end)
	// error: <nil>
}
