package mmv

import (
	"bytes"
	"encoding/binary"
)

// Registry returns the registry r's file describes, so that a writer can
// lay the same contents out again: its header, instance domains with
// their instances, metrics and labels (Plan, then Plan.CopyValues for the
// values). A singular metric's indom becomes 0, the one value a Registry
// takes for it. The writer may still reject what a reader accepts (a
// metric of semantics 0, for one).
func (r *File) Registry() *Registry {
	h := r.Header()
	reg := &Registry{Version: h.Version, Flags: h.Flags, Cluster: uint32(h.Cluster), Process: h.Process, Gen: h.Gen1}
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		def := IndomDef{Serial: d.Serial, ShortText: string(d.ShortText), HelpText: string(d.HelpText)}
		for in := range r.Instances(d) {
			def.Instances = append(def.Instances, InstanceDef{ID: in.ID, Name: string(in.Name)})
		}
		reg.Indoms = append(reg.Indoms, def)
	}
	for m := range r.Metrics() {
		indom := m.Indom
		if m.Singular() {
			indom = 0
		}
		reg.Metrics = append(reg.Metrics, MetricDef{Name: string(m.Name), Item: m.Item, Type: m.Type,
			Sem: m.Sem, Units: m.Units, Indom: indom, ShortText: string(m.ShortText), HelpText: string(m.HelpText)})
	}
	for l := range r.Labels() {
		// The reader has checked the payload is {"name":value}, and a
		// label name holds no colon.
		p := l.Payload
		colon := bytes.IndexByte(p, ':')
		reg.Labels = append(reg.Labels, LabelDef{Flags: l.Flags, Identity: l.Identity, Internal: l.Internal,
			Name: string(p[2 : colon-1]), Value: string(p[colon+1 : len(p)-1])})
	}
	return reg
}

// CopyValues stores every value of r in its slot of b, a file laid out in
// byte order order by p, a plan of r.Registry(): numbers by their bits,
// strings as text, and an elapsed timer that was running started again
// at its start time.
func (p *Plan) CopyValues(b []byte, order binary.ByteOrder, r *File) error {
	for v := range r.Values() {
		inst := ""
		if v.Instance >= 0 {
			inst = string(r.Instance(v.Instance).Name)
		}
		mi, ii, err := p.Lookup(string(r.Metric(v.Metric).Name), inst)
		if err != nil {
			return err
		}
		s, err := p.Slot(b, order, mi, ii)
		if err != nil {
			return err
		}
		switch v.Type {
		case TypeString:
			if err := s.SetString(string(v.Text())); err != nil {
				return err
			}
		case TypeElapsed:
			s.SetBits(v.Raw())
			if v.Extra() < 0 {
				s.Start(-v.Extra())
			}
		default:
			s.SetBits(v.Raw())
		}
	}
	return nil
}
