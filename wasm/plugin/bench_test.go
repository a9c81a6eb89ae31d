package main

import (
	"testing"

	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
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
		var out []byte
		for b.Loop() {
			out = render.AppendKPIMessages(out[:0], in, 0, 0)
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
			s := render.NewKPISession(in)
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
		var st schema.KPIStep
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

// BenchmarkPDUDecode decodes a pmcd server stream with RESULTs (event
// arrays included) in full.
func BenchmarkPDUDecode(b *testing.B) {
	in := readFile(b, "conv05.server.bin")
	b.Run("native", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			r := render.DecodePDUs(in, 0)
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
			h.run("pdu_decode", in, 0)
		}
	})
}

// BenchmarkPDUFeedOne is the per-call cost of a live stream: one PDU (the
// first RESULT of conv05's server stream) fed to a pdu_stream session.
func BenchmarkPDUFeedOne(b *testing.B) {
	in := readFile(b, "conv05.server.bin")
	var pdu []byte
	for p, err := range pduwireAll(in) {
		if err != nil {
			b.Fatal(err)
		}
		if p.Header.Type.String() == "HIGHRES_RESULT" {
			pdu = p.Bytes
			break
		}
	}
	b.Run("native", func(b *testing.B) {
		s := render.NewPDUSession(0)
		b.SetBytes(int64(len(pdu)))
		b.ReportAllocs()
		for b.Loop() {
			r := s.Feed(pdu)
			if _, err := r.MarshalMsg(nil); err != nil || len(r.PDUs) != 1 {
				b.Fatal(err)
			}
		}
	})
	b.Run("wazero", func(b *testing.B) {
		h := newHost(b)
		s := h.call("pdu_stream", 0)
		b.SetBytes(int64(len(pdu)))
		b.ReportAllocs()
		for b.Loop() {
			hin := h.put(pdu)
			h.take(h.call("pdu_feed", s, hin))
			h.call("free", hin)
		}
	})
}

// BenchmarkMMVRead reads an MMV file with every section.
func BenchmarkMMVRead(b *testing.B) {
	in := readFile(b, "sample2.mmv")
	b.Run("native", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = render.AppendMMV(out[:0], in, false)
		}
	})
	b.Run("wazero", func(b *testing.B) {
		h := newHost(b)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			h.run("mmv_read", in, 0)
		}
	})
}
