package main

import (
	"testing"

	"github.com/perfwire/perfwire/wasm/abi"
)

// The benchmarks run each call natively and inside wazero on the same
// capture; the ratio of their MB/s is the module's throughput relative to
// native code (bench/RESULTS.md). The wazero side includes copying the
// input in and the result out, as a host must.

func BenchmarkKPIDecode(b *testing.B) {
	in := readFile(b, "kpi-odd.dlt")
	b.Run("native", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			r := abi.DecodeKPI(in, 0)
			if _, err := r.MarshalMsg(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wazero", func(b *testing.B) {
		h := newHost(b)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			h.run("kpi_decode", in, 0)
		}
	})
}

// BenchmarkKPISession is the viewer's path: open a session, step through
// the capture, read the table.
func BenchmarkKPISession(b *testing.B) {
	in := readFile(b, "kpi-odd.dlt")
	b.Run("native", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			s := abi.NewKPISession(in)
			for {
				st := s.Step(200)
				if _, err := st.MarshalMsg(nil); err != nil {
					b.Fatal(err)
				}
				if st.Done {
					break
				}
			}
			t := s.Table()
			if _, err := t.MarshalMsg(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wazero", func(b *testing.B) {
		h := newHost(b)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var st abi.KPIStep
		for b.Loop() {
			hin := h.put(in)
			s := h.call("kpi_open", hin)
			h.call("free", hin)
			for {
				if _, err := st.UnmarshalMsg(h.take(h.call("kpi_step", s, 200))); err != nil {
					b.Fatal(err)
				}
				if st.Done {
					break
				}
			}
			h.take(h.call("kpi_table", s))
			h.call("free", s)
		}
	})
}
