package mmv_test

import (
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

// bigFile builds a v1 file with 10 metrics over one indom of 1,000
// instances: 10,000 values.
func bigFile(b *testing.B) []byte {
	d := mmv.IndomDef{Serial: 1}
	for i := range 1000 {
		d.Instances = append(d.Instances, mmv.InstanceDef{ID: int32(i), Name: "cpu" + strconv.Itoa(i)})
	}
	reg := &mmv.Registry{Cluster: 9, Gen: 1, Indoms: []mmv.IndomDef{d}}
	for i := range 10 {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{Name: "m" + strconv.Itoa(i), Item: uint32(i),
			Type: mmv.TypeU64, Sem: pcp.SemCounter, Indom: 1})
	}
	p, err := reg.Plan()
	if err != nil {
		b.Fatal(err)
	}
	return p.AppendFile(nil, nil)
}

// BenchmarkParse validates each real file.
func BenchmarkParse(b *testing.B) {
	for _, name := range realFiles(b) {
		data := readFile(b, name)
		b.Run(name[len("testdata/"):], func(b *testing.B) { benchParse(b, data) })
	}
}

// benchParse times the validation of data.
func benchParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mmv.Parse(data, mmv.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// bigValues is bigFile parsed, for a benchmark that reads its values and
// counts their bytes and its allocations.
func bigValues(b *testing.B) mmv.File {
	r, err := mmv.Parse(bigFile(b), mmv.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(r.NumValues() * mmv.ValueSize))
	b.ReportAllocs()
	return r
}

// BenchmarkReadAllValues reads the 10,000 values of a file through an
// already validated File, as a live reader does on every poll.
func BenchmarkReadAllValues(b *testing.B) {
	r := bigValues(b)
	var sum uint64
	for b.Loop() {
		for i := range r.NumValues() {
			sum += r.Value(i).Uint()
		}
	}
	_ = sum
}

// BenchmarkParseBig validates the 10,000-value file.
func BenchmarkParseBig(b *testing.B) { benchParse(b, bigFile(b)) }

// BenchmarkCounterAdd is a counter update: the cost of one Slot.Add.
func BenchmarkCounterAdd(b *testing.B) {
	p, _ := sampleRegistry(1, false).Plan()
	data := p.AppendFile(nil, binary.NativeEndian)
	s, _ := p.Slot(data, binary.NativeEndian, 3, 1)
	b.SetBytes(8)
	b.ReportAllocs()
	for b.Loop() {
		s.Add(1)
	}
}

// BenchmarkSetString replaces a string value.
func BenchmarkSetString(b *testing.B) {
	p, _ := sampleRegistry(1, false).Plan()
	data := p.AppendFile(nil, binary.NativeEndian)
	mi, _, _ := p.Lookup("string", "")
	s, _ := p.Slot(data, binary.NativeEndian, mi, 0)
	b.SetBytes(mmv.StringSize)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.SetString("a status line")
	}
}

// BenchmarkDump formats a real v3 file as mmvdump text.
func BenchmarkDump(b *testing.B) {
	data := readFile(b, "testdata/lab/sample3.mmv")
	r, _ := mmv.Parse(data, mmv.Options{})
	buf := make([]byte, 0, 1<<14)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		buf = mmv.AppendDump(buf[:0], &r, "sample3.mmv", 0)
	}
}

// BenchmarkWrite lays out and publishes the sample v3 file.
func BenchmarkWrite(b *testing.B) {
	p, _ := sampleRegistry(3, true).Plan()
	data := make([]byte, p.Size())
	b.SetBytes(int64(p.Size()))
	b.ReportAllocs()
	for b.Loop() {
		p.Write(data, nil)
		mmv.Publish(data, nil)
	}
}

// BenchmarkReadAllWords re-reads the 10,000 value words of a file whose
// metadata a poller resolved once.
func BenchmarkReadAllWords(b *testing.B) {
	r := bigValues(b)
	var sum uint64
	for b.Loop() {
		for i := range r.NumValues() {
			v, _ := r.Words(i)
			sum += v
		}
	}
	_ = sum
}
