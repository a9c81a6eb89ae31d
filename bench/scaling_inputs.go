package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/ltt/eventdefs"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// scaler is one decoder of the scaling figure: how to build an input of
// about a given size from real records, and what one pass over it counts.
type scaler struct {
	name string
	what string // what a pass counts
	// minSize is the smallest input the decoder's real records make and
	// maxSize the largest its format allows (0: no bound); sizes outside
	// are left out, with why.
	minSize, maxSize int
	why              string
	build            func(size int) (scaleInput, error)
}

// scaleInput is one built input: its size, how much of it a pass holds
// in memory, the records it holds by construction, and one pass.
type scaleInput struct {
	bytes    int
	resident int // bytes of the input in memory during a pass
	want     uint64
	// pass decodes the whole input once and returns the records read and
	// a checksum of what it read in them.
	pass    func() (n, sum uint64, err error)
	cleanup func()
}

// scalers are the decoders of the figure, each read the way its own
// figure or its users read it.
var scalers = []scaler{
	{name: "pduwire RESULT (one PDU, ResultScanner)", what: "values", build: buildResult},
	{name: "pduwire.Reader PDU stream (64 KB reads)", what: "PDUs", build: buildStream},
	{name: "eventrec arrays (≤ 1 MB each)", what: "records", build: buildEvents},
	{name: "labels.Parse (one set per line)", what: "label sets", build: buildLabels},
	{name: "dltkpi (kpi) over a DLT capture", what: "datasets", build: buildKPI},
	{name: "dlt.Reader file scan (64 KB reads)", what: "messages", build: buildDLTScan},
	{name: "mmv.Parse + every value", what: "values", maxSize: 40 << 20,
		why: "the MMV writer (Registry.Plan) and pmdammv stop at 1,048,576 values (mmv.DefaultMaxValues), about 35 MB of this layout", build: buildMMV},
	{name: "archive.Scanner + pcp.Extract", what: "records", build: buildArchive},
	{name: "ltt tracefile (every event)", what: "events", minSize: lttBlock,
		why: "one real block is 1,000,000 bytes (smp_example's ltt_block_size)", build: buildLTT},
}

// cycleRecords appends recs cyclically while the total stays within size
// (at least one record) and returns the bytes and the record count. Past
// one whole cycle it repeats whole cycles only, so that counts follow
// from the cycle's.
func cycleRecords(recs [][]byte, size int) ([]byte, int) {
	one := 0
	for _, r := range recs {
		one += len(r)
	}
	if size >= one {
		reps := size / one
		out := make([]byte, 0, reps*one)
		for range reps {
			for _, r := range recs {
				out = append(out, r...)
			}
		}
		return out, reps * len(recs)
	}
	var out []byte
	n := 0
	for _, r := range recs {
		if n > 0 && len(out)+len(r) > size {
			break
		}
		out = append(out, r...)
		n++
	}
	return out, n
}

// resultSets are the value sets of result-1000.bin (libpcp's encoding).
func resultSets() ([]pduwire.ValueSetData, error) {
	pdu, err := os.ReadFile("testdata/result-1000.bin")
	if err != nil {
		return nil, err
	}
	var r pduwire.ResultPDU
	if err := r.UnmarshalBinary(pdu); err != nil {
		return nil, err
	}
	return r.Sets, nil
}

// buildResult makes one RESULT of result-1000.bin's value sets repeated
// to about size bytes, read value by value with a ResultScanner.
func buildResult(size int) (scaleInput, error) {
	sets, err := resultSets()
	if err != nil {
		return scaleInput{}, err
	}
	empty := (&pduwire.ResultPDU{Sec: 1}).Append(nil, 0)
	per := make([]int, len(sets))
	for i := range sets {
		one := pduwire.ResultPDU{Sec: 1, Sets: sets[i : i+1]}
		per[i] = len(one.Append(nil, 0)) - len(empty)
	}
	var res pduwire.ResultPDU
	res.Sec = 1
	total, values := len(empty), 0
	for i := 0; len(res.Sets) == 0 || total+per[i%len(sets)] <= size; i++ {
		res.Sets = append(res.Sets, sets[i%len(sets)])
		total += per[i%len(sets)]
		values += len(sets[i%len(sets)].Values)
	}
	pdu := res.Append(make([]byte, 0, total), 0)
	res.Sets = nil
	return scaleInput{bytes: len(pdu), resident: len(pdu), want: uint64(values), pass: func() (uint64, uint64, error) {
		return scanResult(pdu)
	}}, nil
}

// scanResult reads every value of a RESULT to its own type.
func scanResult(pdu []byte) (uint64, uint64, error) {
	s, err := pduwire.NewResultScanner(pdu)
	if err != nil {
		return 0, 0, err
	}
	var n, sum uint64
	for s.Next() {
		vs := s.ValueSet()
		for i := range vs.Len() {
			sum = sum*31 + valueBits(vs.Value(i))
			n++
		}
	}
	return n, sum, s.Err()
}

// valueBits is a value read to its own type, as a checksum word.
func valueBits(v pduwire.Value) uint64 {
	if !v.Block() {
		return uint64(int64(int32(v.Word)))
	}
	switch v.BlockType() {
	case pcp.Type64, pcp.TypeU64:
		return v.Uint64()
	case pcp.TypeDouble:
		return math.Float64bits(v.Float64())
	}
	return uint64(len(v.Payload()))
}

// streamPDUs are the PDUs of streamPattern one by one.
func streamPDUs() ([][]byte, error) {
	pat, _, err := streamPattern()
	if err != nil {
		return nil, err
	}
	var pdus [][]byte
	for p, err := range pduwire.All(pat, pduwire.Options{}) {
		if err != nil {
			return nil, err
		}
		pdus = append(pdus, p.Bytes)
	}
	return pdus, nil
}

// buildStream delivers the stream figure's recorded RESULT PDUs, repeated
// to about size bytes, in 64 KB reads; only the pattern is in memory.
func buildStream(size int) (scaleInput, error) {
	pdus, err := streamPDUs()
	if err != nil {
		return scaleInput{}, err
	}
	pat, n, reps := repeatedPattern(pdus, size)
	total := reps * len(pat)
	return scaleInput{bytes: total, resident: len(pat), want: uint64(n * reps), pass: func() (uint64, uint64, error) {
		return readStream(&chunkSource{pat: pat, left: total, chunk: 64 << 10})
	}}, nil
}

// repeatedPattern is cycleRecords' bytes for at most one cycle, and how
// many times a source repeats them to make size bytes.
func repeatedPattern(recs [][]byte, size int) (pat []byte, n, reps int) {
	one := 0
	for _, r := range recs {
		one += len(r)
	}
	pat, n = cycleRecords(recs, min(size, one))
	return pat, n, max(1, size/len(pat))
}

// readStream frames src with pduwire.Reader and reads every value of
// every RESULT.
func readStream(src io.Reader) (uint64, uint64, error) {
	r := pduwire.NewReader(src, pduwire.Options{})
	var n, sum uint64
	for r.Next() {
		_, s, err := scanResult(r.PDU().Bytes)
		if err != nil {
			return n, sum, err
		}
		sum = sum*31 + s
		n++
	}
	return n, sum, r.Err()
}

// eventRecords are the EVENT records of the conv05 arrays (as the
// events-100 figure takes them).
func eventRecords() ([]eventrec.Record, error) {
	names, _ := filepath.Glob("testdata/events/conv05.pdu0.HIGHRES_RESULT.29.0.*.bin")
	var recs []eventrec.Record
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		a, err := eventrec.Parse(b, eventrec.Options{})
		if err != nil {
			return nil, err
		}
		if a.HighRes() {
			continue
		}
		for r := range a.Records() {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no EVENT records in testdata/events")
	}
	return recs, nil
}

// eventArrayMax caps one array: a value block's length is 24 bits, so
// one array cannot pass 16 MB; larger inputs are arrays back to back, as
// a stream of results carries them.
const eventArrayMax = 1 << 20

// buildEvents packs the conv05 EVENT records with eventrec.Builder into
// arrays of at most eventArrayMax bytes, about size bytes in all.
func buildEvents(size int) (scaleInput, error) {
	recs, err := eventRecords()
	if err != nil {
		return scaleInput{}, err
	}
	empty, err := eventrec.NewBuilder(nil, pcp.TypeEvent).Finish()
	if err != nil {
		return scaleInput{}, err
	}
	per := make([]int, len(recs))
	for i, r := range recs {
		bld := eventrec.NewBuilder(nil, pcp.TypeEvent)
		addEventRecord(bld, r)
		arr, err := bld.Finish()
		if err != nil {
			return scaleInput{}, err
		}
		per[i] = len(arr) - len(empty)
	}
	var arrays [][]byte
	total, want := 0, 0
	for i := 0; i == 0 || total+len(empty)+per[i%len(recs)] <= size; {
		bld := eventrec.NewBuilder(nil, pcp.TypeEvent)
		n := len(empty)
		for first := true; first || (n+per[i%len(recs)] <= eventArrayMax && total+n+per[i%len(recs)] <= size); i++ {
			addEventRecord(bld, recs[i%len(recs)])
			n += per[i%len(recs)]
			want++
			first = false
		}
		arr, err := bld.Finish()
		if err != nil {
			return scaleInput{}, err
		}
		// Cloned to its length: the builder's spare capacity is not input.
		arrays = append(arrays, bytes.Clone(arr))
		total += len(arr)
	}
	return scaleInput{bytes: total, resident: total, want: uint64(want), pass: func() (uint64, uint64, error) {
		return unpackEvents(arrays)
	}}, nil
}

// unpackEvents validates each array and reads every record and parameter.
func unpackEvents(arrays [][]byte) (uint64, uint64, error) {
	var n, sum uint64
	for _, b := range arrays {
		a, err := eventrec.Parse(b, eventrec.Options{})
		if err != nil {
			return n, sum, err
		}
		s := a.Scanner()
		for s.Next() {
			r := s.Record()
			sum = sum*31 + uint64(r.Seconds())
			ps := r.ParamScanner()
			for ps.Next() {
				p := ps.Param()
				sum = sum*31 + uint64(p.ID) + uint64(len(p.Value))
			}
			n++
		}
		if err := s.Err(); err != nil {
			return n, sum, err
		}
	}
	return n, sum, nil
}

// labelTexts are bench's label sets: the five of merge-5.jsonl and the
// ten-label parse-10.json, one per line.
func labelTexts() ([][]byte, error) {
	var texts [][]byte
	for _, name := range []string{"testdata/labels/merge-5.jsonl", "testdata/labels/parse-10.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for line := range bytes.SplitSeq(bytes.TrimSpace(b), []byte("\n")) {
			texts = append(texts, append(line, '\n'))
		}
	}
	return texts, nil
}

// buildLabels repeats the label sets, one per line, to about size bytes:
// one set is at most labels.MaxJSONLen bytes, so a large input is many.
func buildLabels(size int) (scaleInput, error) {
	texts, err := labelTexts()
	if err != nil {
		return scaleInput{}, err
	}
	in, n := cycleRecords(texts, size)
	var set labels.Set
	return scaleInput{bytes: len(in), resident: len(in), want: uint64(n), pass: func() (uint64, uint64, error) {
		return parseLabelLines(&set, in)
	}}, nil
}

// parseLabelLines parses every line of in into set.
func parseLabelLines(set *labels.Set, in []byte) (uint64, uint64, error) {
	var n, sum uint64
	for len(in) > 0 {
		line := in
		if i := bytes.IndexByte(in, '\n'); i >= 0 {
			line, in = in[:i], in[i+1:]
		} else {
			in = nil
		}
		if err := labels.Parse(set, line, labels.Options{}); err != nil {
			return n, sum, err
		}
		sum += uint64(set.Len())
		n++
	}
	return n, sum, nil
}

// dltRecords are the records (storage header + message) of DLT captures.
func dltRecords(names ...string) ([][]byte, error) {
	var recs [][]byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		s := dlt.NewScanner(b, dlt.Options{})
		for s.Next() {
			recs = append(recs, s.Message().Bytes())
		}
		if err := s.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return recs, nil
}

// kpiCaptures are the dlt-kpi captures the kpi and dlt figures read.
var kpiCaptures = []string{"testdata/kpi-odd.dlt", "testdata/kpi-huge-argv0.dlt"}

// buildKPI repeats the kpi captures' KPI messages to about size bytes in
// memory and parses every dataset of each.
func buildKPI(size int) (scaleInput, error) {
	recs, err := dltRecords(kpiCaptures...)
	if err != nil {
		return scaleInput{}, err
	}
	var sel dltkpi.Selector
	var kpis [][]byte
	for _, r := range recs {
		if m, _, err := dlt.ConsumeMessage(r, dlt.Options{}); err == nil && sel.IsKPI(m) && m.Order() == binary.LittleEndian {
			kpis = append(kpis, r)
		}
	}
	in, _ := cycleRecords(kpis, size)
	want, _, err := kpiDatasets(in)
	if err != nil {
		return scaleInput{}, err
	}
	return scaleInput{bytes: len(in), resident: len(in), want: want, pass: func() (uint64, uint64, error) {
		return kpiDatasets(in)
	}}, nil
}

// kpiDatasets scans a capture and decodes every dataset of every KPI
// message, every ACT field read.
func kpiDatasets(in []byte) (uint64, uint64, error) {
	var sel dltkpi.Selector
	var n, sum uint64
	s := dlt.NewScanner(in, dlt.Options{})
	for s.Next() {
		m := s.Message()
		if !sel.IsKPI(m) || m.Order() != binary.LittleEndian {
			continue
		}
		k, err := dltkpi.Parse(m.Payload())
		if err != nil {
			return n, sum, err
		}
		ds := k.Scanner()
		for ds.Next() {
			d, err := ds.Dataset()
			if err != nil {
				continue
			}
			if d.Kind == dltkpi.KindACT && !d.Truncated {
				sum += uint64(d.PID) + d.CPU + uint64(d.RSS) + uint64(d.Ctx) + d.IO + d.IOWait
			}
			n++
		}
	}
	return n, sum, s.Err()
}

// buildDLTScan delivers the kpi captures' records, repeated to about
// size bytes, in 64 KB reads (a file read from the page cache); only the
// pattern is in memory. One Reader, Reset at each pass, reads them all,
// as a reader of many files would: a new Reader's buffer, grown from
// 4 KB to its bound and faulted in, is a fixed cost of the first pass.
func buildDLTScan(size int) (scaleInput, error) {
	recs, err := dltRecords(kpiCaptures...)
	if err != nil {
		return scaleInput{}, err
	}
	pat, n, reps := repeatedPattern(recs, size)
	total := reps * len(pat)
	src := &chunkSource{}
	r := dlt.NewReader(src, dlt.Options{})
	return scaleInput{bytes: total, resident: len(pat), want: uint64(n * reps), pass: func() (uint64, uint64, error) {
		*src = chunkSource{pat: pat, left: total, chunk: 64 << 10}
		r.Reset(src)
		var c, sum uint64
		for r.Next() {
			sum = sum*31 + uint64(r.Message().Len())
			c++
		}
		return c, sum, r.Err()
	}}, nil
}

// mmvOptions lift the value limit to what the largest input holds.
var mmvOptions = mmv.Options{Order: binary.NativeEndian, MaxValues: 1 << 30}

// buildMMV lays out an MMV file of about size bytes and reads every value.
func buildMMV(size int) (scaleInput, error) {
	one, err := mmvFile(1)
	if err != nil {
		return scaleInput{}, err
	}
	two, err := mmvFile(2)
	if err != nil {
		return scaleInput{}, err
	}
	per := len(two) - len(one)
	n := max(1, 1+(size-len(one))/per)
	data, err := mmvFile(n)
	if err != nil {
		return scaleInput{}, err
	}
	return scaleInput{bytes: len(data), resident: len(data), want: uint64(n * mmvMetrics), pass: func() (uint64, uint64, error) {
		f, err := mmv.Parse(data, mmvOptions)
		if err != nil {
			return 0, 0, err
		}
		var c, sum uint64
		for v := range f.Values() {
			sum += v.Raw()
			c++
		}
		return c, sum, nil
	}}, nil
}

// archiveRecords is the number of result records in m3: the "N metrics"
// lines of pmdumplog -a (archive/testdata/m3.pmdumplog-a.txt).
const archiveRecords = 62

// buildArchive writes the archive figure's v3 archive (m3's records
// repeated) of about size bytes to a temporary directory; a pass reads it
// through the file system, so only the reader's buffers are in memory.
func buildArchive(size int) (scaleInput, error) {
	dir, err := os.MkdirTemp("", "perfwire-bench-scaling-")
	if err != nil {
		return scaleInput{}, err
	}
	n, err := writeBigArchive(filepath.Join(dir, "big"), size)
	if err != nil {
		os.RemoveAll(dir)
		return scaleInput{}, err
	}
	rounds, err := archiveRounds(size)
	if err != nil {
		os.RemoveAll(dir)
		return scaleInput{}, err
	}
	return scaleInput{bytes: n, want: uint64(rounds * archiveRecords), cleanup: func() { os.RemoveAll(dir) },
		pass: func() (uint64, uint64, error) { return scanArchive(dir) }}, nil
}

// archiveRounds is how many times writeBigArchive writes m3's records
// for size bytes: its volumes less their 808-byte labels, per round.
func archiveRounds(size int) (int, error) {
	per := 0
	for _, v := range []string{"0", "1", "2"} {
		st, err := os.Stat("../archive/testdata/m3." + v)
		if err != nil {
			return 0, err
		}
		per += int(st.Size()) - 808
	}
	return max(1, (size+per-1)/per), nil
}

// scanArchive is readArchive counting records.
func scanArchive(dir string) (uint64, uint64, error) {
	a, err := archive.OpenFS(os.DirFS(dir), "big", archive.Options{})
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	var n, sum uint64
	s := a.NewScanner()
	for s.Next() {
		x, _ := sumRecord(a, s.Record())
		sum += x
		n++
	}
	return n, sum, s.Err()
}

// lttBlock is smp_example's block size, and lttEvents the events of its
// two blocks (cpu/0, cpu/1) as LTTV counts them (docs/ltt.md §14).
const lttBlock = 1000000

var lttEvents = [2]uint64{85917, 87240}

// buildLTT makes a tracefile of smp_example's two real blocks, in turn,
// as many as fit in size bytes; a pass reads it block by block through
// Tracefile's ReadAt, as tracedir reads a file.
func buildLTT(size int) (scaleInput, error) {
	const dir = "../ltt/testdata/smp_example/"
	sys, err := os.ReadFile(dir + "info/system.xml")
	if err != nil {
		return scaleInput{}, err
	}
	s, err := eventdefs.ParseSystem(sys)
	if err != nil {
		return scaleInput{}, err
	}
	o, err := s.Options()
	if err != nil {
		return scaleInput{}, err
	}
	d, err := ltt.NewDecoder(o, ltt.Core())
	if err != nil {
		return scaleInput{}, err
	}
	var blocks [2][]byte
	for i := range blocks {
		if blocks[i], err = os.ReadFile(dir + "cpu/" + strconv.Itoa(i)); err != nil {
			return scaleInput{}, err
		}
	}
	n := max(1, size/lttBlock)
	in := make([]byte, 0, n*lttBlock)
	var want uint64
	for i := range n {
		in = append(in, blocks[i%2]...)
		want += lttEvents[i%2]
	}
	return scaleInput{bytes: len(in), resident: len(in), want: want, pass: func() (uint64, uint64, error) {
		t := d.Tracefile(bytes.NewReader(in), int64(len(in)))
		var c, sum uint64
		for b, err := range t.Blocks() {
			if err != nil {
				return c, sum, err
			}
			sc := b.Scanner()
			for sc.Next() {
				sum += uint64(sc.Event().ID)
				c++
			}
			if err := sc.Err(); err != nil {
				return c, sum, err
			}
		}
		return c, sum, nil
	}}, nil
}
