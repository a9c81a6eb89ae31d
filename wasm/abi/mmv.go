package abi

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/mmv"
)

// ReadMMV validates an MMV file image (little-endian, or big-endian when
// bigEndian is set) and returns its metadata, its values as they are now,
// and mmvdump's text for it.
func ReadMMV(in []byte, bigEndian bool) MMVFile {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	r, err := mmv.NewReader(in, order)
	if err != nil {
		return MMVFile{Error: errorOf(err), Metrics: []MMVMetric{}, Instances: []MMVInstance{}, Values: []MMVValue{}}
	}
	h := r.Header()
	res := MMVFile{
		Version: h.Version, Gen: h.Gen1, Flags: uint32(h.Flags), Process: h.Process, Cluster: h.Cluster,
		Metrics:   make([]MMVMetric, 0, r.NumMetrics()),
		Instances: make([]MMVInstance, 0, r.NumInstances()),
		Values:    make([]MMVValue, 0, r.NumValues()),
	}
	for m := range r.Metrics() {
		res.Metrics = append(res.Metrics, MMVMetric{
			Name: string(m.Name), Item: m.Item, Type: int32(m.Type), TypeName: m.Type.String(),
			Sem: uint32(m.Sem), Units: uint32(m.Units), Indom: m.Indom,
			ShortText: string(m.ShortText), HelpText: string(m.HelpText),
		})
	}
	for i := range r.NumInstances() {
		in := r.Instance(i)
		var serial uint32
		if in.Indom >= 0 {
			serial = r.Indom(in.Indom).Serial
		}
		res.Instances = append(res.Instances, MMVInstance{Indom: serial, ID: in.ID, Name: string(in.Name)})
	}
	for v := range r.Values() {
		mv := MMVValue{Metric: string(r.Metric(v.Metric).Name), Missing: v.Missing()}
		if v.Instance >= 0 {
			mv.Instance = string(r.Instance(v.Instance).Name)
		}
		if !mv.Missing {
			switch v.Type {
			case mmv.TypeI32, mmv.TypeI64:
				n := v.Int()
				mv.Int = &n
			case mmv.TypeU32, mmv.TypeU64, mmv.TypeElapsed:
				n := v.Uint()
				mv.Uint = &n
			case mmv.TypeFloat, mmv.TypeDouble:
				f := v.Float()
				mv.Float = &f
			case mmv.TypeString:
				s := string(v.Text())
				mv.Text = &s
			}
		}
		res.Values = append(res.Values, mv)
	}
	res.Dump = string(mmv.AppendDump(nil, &r, "", 0))
	return res
}
