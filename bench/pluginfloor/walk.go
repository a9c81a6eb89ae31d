// Package pluginfloor holds the decode walks under the plugin figures:
// each call's decoder from the same package over the same input, every
// value read to its own type, with no render output. The bench harness
// times each natively, and module (a GOOS=js build, not shipped) runs
// the same walks in Node, so that a plugin figure shows in the same run
// what Go's WebAssembly code does in that Node when render costs
// nothing. Each walk returns a checksum of what it read, the same on
// both sides.
package pluginfloor

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/dltkpi"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// mix folds x into the checksum s.
func mix(s uint32, x uint64) uint32 { return s*31 + uint32(x) + uint32(x>>32) }

// KPI is kpi_decode's walk: the DLT scanner, each message's dlt-kpi
// fields (dltkpi.Selector.FromDLT) and every dataset of it, as
// render.AppendKPIMessages reads them.
func KPI(in []byte) uint32 {
	var s uint32
	sc := dlt.NewScanner(in, dlt.Options{})
	var sel dltkpi.Selector
	for sc.Next() {
		km, src, err := sel.FromDLT(sc.Message())
		if err != nil {
			continue
		}
		s = mix(s, uint64(src.TMSP)<<8|uint64(km.Kind)<<2|uint64(km.Sync))
		ds := km.Scanner()
		for ds.Next() {
			d, err := ds.Dataset()
			if err != nil || d.Truncated {
				s = mix(s, uint64(len(d.Raw)))
				continue
			}
			s = mix(s, uint64(d.Kind)+uint64(int64(d.PID))+d.CPU+uint64(d.RSS)+uint64(d.Ctx)+d.IO+d.IOWait+
				uint64(len(d.Cmd))+uint64(len(d.IRQ)))
		}
	}
	return mix(s, uint64(sc.Offset()))
}

// PDUs is the walk of pdu_decode and of a PDU stream session: the PDU
// scanner, and each PDU's body decoded as render decodes it (a RESULT's
// value sets walked in place, every value read; the other types of the
// figures' inputs into a value of their type, a LABEL into one reused).
func PDUs(in []byte) uint32 {
	var s uint32
	sc := pduwire.NewScanner(in, pduwire.Options{})
	var lab pduwire.LabelPDU
	for sc.Next() {
		p := sc.PDU()
		s = mix(s, uint64(p.Header.Type)<<32|uint64(p.Header.Len))
		var err error
		switch t := p.Header.Type; t {
		case pduwire.TypeResult, pduwire.TypeHighResResult:
			var r pduwire.Result
			if r, err = pduwire.ParseResult(p.Bytes); err != nil {
				break
			}
			s = mix(s, uint64(r.Sec)+uint64(r.Nsec))
			sets := r.Scan()
			for sets.Next() {
				vs := sets.ValueSet()
				s = mix(s, Values(uint64(vs.PMID)+uint64(vs.NumVal), vs))
			}
		case pduwire.TypeDesc:
			var m pduwire.DescPDU
			err = m.UnmarshalBinary(p.Bytes)
			s = mix(s, uint64(m.Desc.ID)+uint64(m.Desc.InDom))
		case pduwire.TypeError:
			var m pduwire.ErrorPDU
			err = m.UnmarshalBinary(p.Bytes)
			s = mix(s, uint64(m.Code))
		case pduwire.TypeInstance:
			var m pduwire.InstancePDU
			err = m.UnmarshalBinary(p.Bytes)
			for _, e := range m.Instances {
				s = mix(s, uint64(e.Inst)+uint64(len(e.Name)))
			}
		case pduwire.TypeLabel:
			err = lab.UnmarshalBinary(p.Bytes)
			for _, e := range lab.Sets {
				s = mix(s, uint64(e.Inst)+uint64(len(e.JSON))+uint64(len(e.Labels)))
			}
		case pduwire.TypePMNSIDs:
			var m pduwire.PMNSIDsPDU
			err = m.UnmarshalBinary(p.Bytes)
			for _, id := range m.PMIDs {
				s = mix(s, uint64(id))
			}
		case pduwire.TypePMNSNames:
			var m pduwire.PMNSNamesPDU
			err = m.UnmarshalBinary(p.Bytes)
			for _, n := range m.Names {
				s = mix(s, uint64(len(n)))
			}
		default:
			_, err = pduwire.Decode(p.Bytes)
		}
		if err != nil {
			s = mix(s, 1)
		}
	}
	return s
}

// Values folds every value of vs into sum, each read to its own type
// with Value's accessors (what the bench's sumAtom folds for the same
// value): the one loop every figure that reads a RESULT's values runs,
// natively and in the floor module.
func Values(sum uint64, vs pduwire.ValueSet) uint64 {
	for i := range vs.Len() {
		v := vs.Value(i)
		var x uint64
		if !v.Block() {
			x = uint64(int64(int32(v.Word)))
		} else {
			switch v.BlockType() {
			case pcp.Type64, pcp.TypeU64:
				x = v.Uint64()
			case pcp.TypeDouble:
				x = math.Float64bits(v.Float64())
			case pcp.TypeFloat:
				x = uint64(math.Float32bits(float32(v.Float64())))
			default:
				n := bytes.IndexByte(v.Payload(), 0)
				if n < 0 {
					n = len(v.Payload())
				}
				x = uint64(n)
			}
		}
		sum = sum*31 + x
	}
	return sum
}

// MMV is mmv_read's walk: the file validated (mmv.Parse), then its
// metrics, indoms, instances, labels and every value read as
// render.AppendMMV reads them.
func MMV(in []byte) uint32 {
	r, err := mmv.Parse(in, mmv.Options{Order: binary.LittleEndian})
	if err != nil {
		return 1
	}
	h := r.Header()
	s := mix(0, h.Gen1+uint64(h.Flags))
	for i := range r.NumMetrics() {
		m := r.Metric(i)
		s = mix(s, uint64(len(m.Name))+uint64(m.Item)+uint64(m.Type)+uint64(m.Units)+uint64(len(m.ShortText)+len(m.HelpText)))
	}
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		s = mix(s, uint64(d.Serial)+uint64(d.Count)+uint64(len(d.ShortText)+len(d.HelpText)))
	}
	for i := range r.NumInstances() {
		in := r.Instance(i)
		s = mix(s, uint64(in.ID)+uint64(len(in.Name)))
	}
	for i := range r.NumLabels() {
		l := r.Label(i)
		s = mix(s, uint64(l.Identity)+uint64(len(l.Payload)))
	}
	v := mmv.Value{Index: -1}
	for r.NextValue(&v) {
		x := uint64(v.Metric) + uint64(v.Instance)
		switch v.Type {
		case mmv.TypeI32, mmv.TypeI64:
			x += uint64(v.Int())
		case mmv.TypeU32, mmv.TypeU64, mmv.TypeElapsed:
			x += v.Uint()
		case mmv.TypeFloat, mmv.TypeDouble:
			x += math.Float64bits(v.Float())
		case mmv.TypeString:
			x += uint64(len(v.Text()))
		}
		s = mix(s, x)
	}
	return s
}
