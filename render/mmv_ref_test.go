package render

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/schema"
)

// ReadMMV is the reference AppendMMV is held to (checkAppendMMV): the
// MMVFile built as values, field by field, from mmv.File, which
// AppendMMV writes in place. It was mmv_read's implementation before
// 2026-11-27.
func ReadMMV(in []byte, bigEndian bool) schema.MMVFile {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	r, err := mmv.Parse(in, mmv.Options{Order: order})
	if err != nil {
		return schema.MMVFile{Error: schema.ErrorOf(err), Metrics: []schema.MMVMetric{}, Indoms: []schema.MMVIndom{}, Instances: []schema.MMVInstance{}, Values: []schema.MMVValue{}, Labels: []schema.MMVLabel{}}
	}
	h := r.Header()
	res := schema.MMVFile{
		Version: h.Version, Gen: h.Gen1, Flags: uint32(h.Flags), Process: h.Process, Cluster: h.Cluster,
		Metrics:   make([]schema.MMVMetric, 0, r.NumMetrics()),
		Indoms:    make([]schema.MMVIndom, 0, r.NumIndoms()),
		Instances: make([]schema.MMVInstance, 0, r.NumInstances()),
		Values:    make([]schema.MMVValue, 0, r.NumValues()),
		Labels:    make([]schema.MMVLabel, 0, r.NumLabels()),
	}
	// A value names its metric and instance: each name is converted to a
	// string once, and the values' numbers share one allocation.
	names := make([]string, r.NumMetrics())
	for m := range r.Metrics() {
		names[m.Index] = string(m.Name)
		res.Metrics = append(res.Metrics, schema.MMVMetric{
			Name: names[m.Index], Item: m.Item, Type: int32(m.Type), TypeName: m.Type.String(),
			Sem: uint32(m.Sem), Units: uint32(m.Units), Indom: m.Indom,
			ShortText: string(m.ShortText), HelpText: string(m.HelpText),
		})
	}
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		res.Indoms = append(res.Indoms, schema.MMVIndom{Serial: d.Serial, Count: d.Count, ShortText: string(d.ShortText), HelpText: string(d.HelpText)})
	}
	for i := range r.NumInstances() {
		in := r.Instance(i)
		var serial uint32
		if in.Indom >= 0 {
			serial = r.Indom(in.Indom).Serial
		}
		res.Instances = append(res.Instances, schema.MMVInstance{Indom: serial, ID: in.ID, Name: string(in.Name)})
	}
	nums := make([]struct {
		i int64
		u uint64
		f float64
	}, r.NumValues())
	for v := range r.Values() {
		mv := schema.MMVValue{Metric: names[v.Metric], Missing: v.Missing()}
		if v.Instance >= 0 {
			mv.Instance = res.Instances[v.Instance].Name
		}
		if !mv.Missing {
			n := &nums[len(res.Values)]
			switch v.Type {
			case mmv.TypeI32, mmv.TypeI64:
				n.i = v.Int()
				mv.Int = &n.i
			case mmv.TypeU32, mmv.TypeU64, mmv.TypeElapsed:
				n.u = v.Uint()
				mv.Uint = &n.u
			case mmv.TypeFloat, mmv.TypeDouble:
				n.f = v.Float()
				mv.Float = &n.f
			case mmv.TypeString:
				s := string(v.Text())
				mv.Text = &s
			}
		}
		res.Values = append(res.Values, mv)
	}
	for l := range r.Labels() {
		res.Labels = append(res.Labels, schema.MMVLabel{Flags: uint32(l.Flags), Identity: l.Identity, Internal: l.Internal, JSON: string(l.Payload)})
	}
	return res
}
