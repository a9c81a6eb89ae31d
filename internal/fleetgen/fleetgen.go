// Package fleetgen writes the archives of a simulated fleet with
// perfwire's archive writer: each host's metrics replay a real
// recording's numeric series, scaled per host. The fleet figure
// (export/fleet) and the export's memory tests use it.
package fleetgen

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Source is a real recording's numeric series, the shapes the fleet's
// metrics take: each synthetic metric replays one of them, scaled per
// host, so the values vary as recorded values do (and compress as they
// do), not as random numbers or constants would.
type Source struct {
	name   string
	sem    pcp.Sem
	units  pcp.Units
	values []float64
}

// ReadSource takes every numeric series of the archive at base.
func ReadSource(base string) ([]Source, error) {
	a, err := archive.OpenFS(os.DirFS(filepath.Dir(base)), filepath.Base(base), archive.Options{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	type key struct {
		id   pcp.ID
		inst int32
	}
	index := map[key]int{}
	var out []Source
	s := a.NewScanner()
	for s.Next() {
		vss := s.Record().Result.Scan()
		for vss.Next() {
			vs := vss.ValueSet()
			m, ok := a.Meta.Metric(vs.PMID)
			if !ok || m.Type > pcp.TypeDouble || len(m.Names) == 0 {
				continue
			}
			for j := range vs.Len() {
				v := vs.Value(j)
				at, err := pcp.Extract(v.Raw(), m.Type, pcp.TypeDouble)
				if err != nil {
					continue
				}
				k := key{vs.PMID, v.Inst}
				i, ok := index[k]
				if !ok {
					i = len(out)
					index[k] = i
					out = append(out, Source{name: m.Names[0], sem: m.Sem, units: m.Units})
				}
				out[i].values = append(out[i].values, at.Float64())
			}
		}
	}
	return out, s.Err()
}

// Metric is one of a host's metrics: its descriptor and the series it
// replays.
type Metric struct {
	archive.Metric
	src *Source
}

// Metrics makes n singular metrics from the sources: U64 for the
// counters (their recorded increments accumulated), DOUBLE for the rest.
func Metrics(srcs []Source, n int) []Metric {
	out := make([]Metric, n)
	for k := range out {
		s := &srcs[k%len(srcs)]
		d := pcp.Desc{ID: pcp.ID(400<<22 | uint32(k/1024)<<10 | uint32(k%1024)), InDom: pcp.InDomNull,
			Type: pcp.TypeDouble, Sem: pcp.SemInstant, Units: s.units}
		if s.sem == pcp.SemCounter {
			d.Type, d.Sem = pcp.TypeU64, pcp.SemCounter
		}
		out[k] = Metric{Metric: archive.Metric{Desc: d, Names: []string{"fleet." + s.name + "." + strconv.Itoa(k)}}, src: s}
	}
	return out
}

// Compression is how WriteHost stores an archive's files.
type Compression int

const (
	// Plain files, as pmlogger writes them.
	Plain Compression = iota
	// Zstd: the .meta and each volume compressed on its own with zstd's
	// default level and a .zst suffix, as pmlogger_daily leaves a day
	// when PCP_COMPRESS is zstd; the .index stays plain, as it does.
	Zstd
)

// WriteHost writes host h's archive: samples records interval apart from
// start, each with every metric, its files stored as c says. It returns
// the files' size before compression.
func WriteHost(base string, h int, metrics []Metric, start time.Time, interval time.Duration, samples int, c Compression) (int64, error) {
	files := make([]*os.File, 3)
	bufs := make([]*bufio.Writer, 3)
	var plain counted
	zs := make([]*zstd.Encoder, 3)
	for i, suf := range []string{"meta", "index", "0"} {
		compress := c == Zstd && suf != "index"
		name := base + "." + suf
		if compress {
			name += ".zst"
		}
		f, err := os.Create(name)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		files[i] = f
		var to io.Writer = f
		if compress {
			// One goroutine per encoder: the hosts are written
			// GOMAXPROCS at a time already.
			z, err := zstd.NewWriter(f, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
			if err != nil {
				return 0, err
			}
			zs[i], to = z, z
		}
		bufs[i] = bufio.NewWriterSize(io.MultiWriter(to, &plain), 1<<16)
	}
	host := "host" + strconv.Itoa(10000 + h)[1:]
	l := archive.Label{Version: 3, PID: int32(1000 + h), Start: archive.TimestampOf(start), Hostname: host, TZ: "UTC", Zoneinfo: ":Etc/UTC"}
	w, err := archive.NewWriter(l, bufs[0], bufs[1], bufs[2])
	if err != nil {
		return 0, err
	}
	ctx := `{"hostname":"` + host + `","domainname":"fleet","machineid":"` + strconv.FormatUint(uint64(h)*2654435761, 16) + `"}`
	if err := w.Labels(archive.LabelSets{Time: l.Start, Type: pduwire.LabelContext, Ident: uint32(pcp.IDNull),
		Sets: []pduwire.LabelSet{contextSet(ctx)}}); err != nil {
		return 0, err
	}
	for _, m := range metrics {
		if err := w.Metric(m.Metric); err != nil {
			return 0, err
		}
	}
	rng := rand.New(rand.NewPCG(uint64(h), 42))
	scale := make([]float64, len(metrics))
	acc := make([]float64, len(metrics))
	for k := range scale {
		scale[k] = 0.5 + rng.Float64()
	}
	payload := make([]byte, 8*len(metrics))
	r := pduwire.ResultPDU{Sets: make([]pduwire.ValueSetData, len(metrics))}
	vals := make([]pduwire.ValueData, len(metrics))
	for i := range samples {
		t := start.Add(time.Duration(i)*interval + time.Duration(rng.IntN(2000))*time.Microsecond)
		for k, m := range metrics {
			src := m.src.values
			v := src[i%len(src)] * scale[k]
			p := payload[8*k : 8*k+8]
			if m.Type == pcp.TypeU64 {
				if i > 0 {
					inc := src[i%len(src)] - src[(i-1+len(src))%len(src)]
					acc[k] += math.Abs(inc)*scale[k] + float64(rng.IntN(3))
				}
				binary.BigEndian.PutUint64(p, uint64(acc[k]))
			} else {
				// 1 % of noise: a day of a gauge does not repeat the
				// recording's 30 samples exactly, and exact repeats would
				// let zstd's long matches shrink the archives unrealistically.
				binary.BigEndian.PutUint64(p, math.Float64bits(v*(1+0.01*rng.NormFloat64())))
			}
			vals[k] = pduwire.ValueData{Inst: pcp.InNull, BlockType: m.Type, Payload: p}
			r.Sets[k] = pduwire.ValueSetData{PMID: m.ID, ValFmt: pduwire.ValDPTR, Values: vals[k : k+1]}
		}
		if err := w.Result(archive.TimestampOf(t), &r); err != nil {
			return 0, err
		}
	}
	if err := w.Finish(); err != nil {
		return 0, err
	}
	for i, b := range bufs {
		if err := b.Flush(); err != nil {
			return 0, err
		}
		if zs[i] != nil {
			if err := zs[i].Close(); err != nil {
				return 0, err
			}
		}
		if err := files[i].Close(); err != nil {
			return 0, err
		}
	}
	return int64(plain), nil
}

// counted counts the bytes written to it.
type counted int64

func (c *counted) Write(p []byte) (int, error) {
	*c += counted(len(p))
	return len(p), nil
}

// contextSet is the context label set of the JSON text s, indexed as
// the labels package's parser indexes it.
func contextSet(s string) pduwire.LabelSet {
	var set labels.Set
	if err := labels.Parse(&set, []byte(s), labels.Options{Flags: labels.Context}); err != nil {
		panic(err) // the text is this program's own
	}
	out := pduwire.LabelSet{Inst: pcp.InNull, NLabels: int32(set.Len()), JSON: set.JSON}
	for _, l := range set.Index {
		out.Labels = append(out.Labels, pduwire.LabelEntry{Name: l.NameOff, NameLen: l.NameLen, Flags: uint8(l.Flags),
			Value: l.ValueOff, ValueLen: l.ValueLen})
	}
	return out
}
