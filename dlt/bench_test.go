package dlt

import "testing"

// BenchmarkScan scans each capture: every message and every argument.
// MB/s is over the file size; msgs/op and allocs/op show the per-message
// cost is allocation-free.
func BenchmarkScan(b *testing.B) {
	for _, c := range captures {
		b.Run(c.name, func(b *testing.B) {
			data := readCapture(b, c.name)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var msgs int
			for b.Loop() {
				msgs, _ = scanArgs(data)
			}
			b.ReportMetric(float64(msgs), "msgs/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*msgs), "ns/msg")
		})
	}
}

// BenchmarkScanHeaders scans headers only, the cost of filtering on
// APID/CTID before touching payloads.
func BenchmarkScanHeaders(b *testing.B) {
	data := readCapture(b, "kpi-odd")
	proc := MakeID("PROC")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(data, Options{})
		for s.Next() {
			_ = s.Message().AppID() == proc
		}
	}
}

// BenchmarkEncode builds a dlt-kpi style ACT message with 10 datasets.
func BenchmarkEncode(b *testing.B) {
	out := make([]byte, 0, 1024)
	h := LogHeader(MakeID("ECU1"), MakeID("PROC"), MakeID("PROC"), LevelInfo, 14698, 11517642)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		m := NewBuilder(AppendStorageHeader(out[:0], StorageHeader{Seconds: 1795315932}), h)
		m.String("ACT")
		for range 10 {
			m.String("14698;5;510;7;4598284;0")
		}
		o, err := m.Finish()
		if err != nil {
			b.Fatal(err)
		}
		n = len(o)
	}
	b.SetBytes(int64(n))
}

// BenchmarkArgsACT50 decodes the arguments of a dlt-kpi ACT message with
// 50 datasets (the message dltkpi's 1 GB/s target is about).
func BenchmarkArgsACT50(b *testing.B) {
	m := NewBuilder(nil, LogHeader(MakeID("ECU1"), MakeID("PROC"), MakeID("PROC"), LevelInfo, 14698, 11517642))
	m.String("ACT")
	for range 50 {
		m.String("14698;5;510;7;4598284;0")
	}
	rec, err := m.Finish()
	if err != nil {
		b.Fatal(err)
	}
	msg, _, err := ConsumeMessage(rec, Options{Framing: FramingBare})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		as := msg.ArgScanner()
		for as.Next() {
			_ = as.Arg().Bytes()
		}
		if as.Err() != nil {
			b.Fatal(as.Err())
		}
	}
}
