package pcp

import (
	"encoding/binary"
	"math"
	"testing"
)

func TestExtractAllocs(t *testing.T) {
	block := binary.BigEndian.AppendUint64(nil, math.Float64bits(1.75))
	str := []byte("hello from mmv v3\x00")
	var sink Atom
	n := testing.AllocsPerRun(200, func() {
		sink, _ = Extract(Raw{Insitu: true, Word: 42}, Type32, TypeDouble)
		sink, _ = Extract(Raw{Block: block}, TypeDouble, Type64)
		sink, _ = Extract(Raw{Block: block}, TypeDouble, TypeU32)
		sink, _ = Extract(Raw{Block: str}, TypeString, TypeString)
		_, _ = Extract(Raw{Block: block}, Type64, TypeString) // error path
	})
	if n != 0 {
		t.Errorf("Extract allocates %v times per run", n)
	}
	_ = sink
}

func TestConvScaleAllocs(t *testing.T) {
	in, out := NewUnits(1, -1, 0, SpaceByte, TimeSec, 0), NewUnits(1, -1, 0, SpaceMByte, TimeMin, 0)
	n := testing.AllocsPerRun(200, func() {
		_, _ = ConvScale(AtomUint64(1<<40), in, out)
		_, _ = ConvScale(AtomFloat64(1e9), in, out)
		_, _ = ConvScale(AtomInt32(7), in, NewUnits(0, 1, 0, 0, 0, 0)) // error path
	})
	if n != 0 {
		t.Errorf("ConvScale allocates %v times per run", n)
	}
}

func TestAppendTextAllocs(t *testing.T) {
	buf := make([]byte, 0, 128)
	u := Units(0x1e013000)
	d := Desc{ID: NewID(29, 0, 5), Type: TypeU64, InDom: NewInDom(29, 1), Sem: SemCounter, Units: u}
	atoms := []Atom{AtomFloat64(1.75), AtomInt64(-1234567890123), AtomString([]byte("hullo world!")), AtomAggregate([]byte("hullo world!"))}
	n := testing.AllocsPerRun(200, func() {
		buf, _ = u.AppendText(buf[:0])
		buf, _ = d.AppendText(buf[:0])
		for _, a := range atoms {
			buf, _ = a.AppendText(buf[:0])
		}
	})
	if n != 0 {
		t.Errorf("AppendText allocates %v times per run", n)
	}
}
