package render

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/schema"
)

// AppendMMV validates an MMV file image (little-endian, or big-endian
// when bigEndian is set) and appends to dst its entries and its values
// as they are now, as the MessagePack MMVFile mmv_read returns, written
// straight from the reader's views: no MMVFile value, no string per
// name, text or value. mmvdump's text layout is left
// to the host (natively, mmv.AppendDump): the plugin carries the
// content, not the formatter.
func AppendMMV(dst, in []byte, bigEndian bool) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	r, err := mmv.Parse(in, mmv.Options{Order: order})
	e := schema.BeginMap(dst, 11)
	e.Err("\xa5error", schema.ErrorOf(err))
	if err != nil {
		e.B = append(e.B, mmvFailed...)
		e.N += 10
		return e.End()
	}
	h := r.Header()
	e.Int("\xa7version", int64(h.Version))
	e.Uint("\xa3gen", h.Gen1)
	e.Uint("\xa5flags", uint64(uint32(h.Flags)))
	e.Int("\xa7process", int64(h.Process))
	e.Int("\xa7cluster", int64(h.Cluster))
	// The entries' maps have all their keys: their headers are written
	// here, not counted by beginMap and end.
	// A value names its metric and instance: their names as the metrics
	// and instances wrote them, strings of the result (from names[k][0]
	// to names[k][1], the instances after the metrics), each value's
	// copied from there by one append.
	nm, ni := r.NumMetrics(), r.NumInstances()
	names := make([][2]int, nm+ni)
	e.Array("\xa7metrics", nm)
	for i := range nm { // no metric is refused
		m := r.Metric(i)
		f := schema.Map{B: append(e.B, 0x89)}
		s := len(f.B) + 5
		f.B = appendKeyBytes(f.B, "\xa4name", m.Name)
		names[i] = [2]int{s, len(f.B)}
		f.Uint("\xa4item", uint64(m.Item))
		f.Int("\xa4type", int64(m.Type))
		f.Str("\xa9type_name", m.Type.String())
		f.Uint("\xa3sem", uint64(uint32(m.Sem)))
		f.Uint("\xa5units", uint64(uint32(m.Units)))
		f.Uint("\xa5indom", uint64(m.Indom))
		f.B = appendKeyBytes(f.B, "\xa9shorttext", m.ShortText)
		f.B = appendKeyBytes(f.B, "\xa8helptext", m.HelpText)
		e.B = f.B
	}
	e.Array("\xa6indoms", r.NumIndoms())
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		f := schema.Map{B: append(e.B, 0x84)}
		f.Uint("\xa6serial", uint64(d.Serial))
		f.Int("\xa5count", int64(d.Count))
		f.B = appendKeyBytes(f.B, "\xa9shorttext", d.ShortText)
		f.B = appendKeyBytes(f.B, "\xa8helptext", d.HelpText)
		e.B = f.B
	}
	e.Array("\xa9instances", ni)
	for i := range ni {
		in := r.Instance(i)
		var serial uint32
		if in.Indom >= 0 {
			serial = r.Indom(in.Indom).Serial
		}
		f := schema.Map{B: append(e.B, 0x83)}
		f.Uint("\xa5indom", uint64(serial))
		f.Int("\xa2id", int64(in.ID))
		s := len(f.B) + 5
		f.B = appendKeyBytes(f.B, "\xa4name", in.Name)
		names[nm+i] = [2]int{s, len(f.B)}
		e.B = f.B
	}
	// The values, most of a file's result, store their keys themselves
	// rather than call enc's methods (see appendValueSet).
	e.Array("\xa6values", r.NumValues())
	b := e.B
	// No metric is refused: Values would give the same. NextValue looks
	// up only the metrics and instances that do not follow the last.
	v := mmv.Value{Index: -1}
	sentinel := h.Flags&mmv.FlagSentinel != 0
	for r.NextValue(&v) {
		// The keys as constant bytes, not appendKeyBytes's string: an
		// append of a string is a memory.copy, which costs V8 a call per
		// value (mmv_read was 10% slower in Node with it). A value of a
		// type mmv_read does not know has two keys, not three.
		at := len(b)
		n := names[v.Metric]
		b = append(append(b, 0x83, 0xa6, 'm', 'e', 't', 'r', 'i', 'c'), b[n[0]:n[1]]...)
		b = append(b, 0xa8, 'i', 'n', 's', 't', 'a', 'n', 'c', 'e')
		if v.Instance < 0 {
			b = append(b, 0xa0)
		} else {
			n = names[nm+v.Instance]
			b = append(b, b[n[0]:n[1]]...)
		}
		switch {
		case sentinel && v.Missing(): // no call in a file without sentinels
			b = append(b, 0xa7, 'm', 'i', 's', 's', 'i', 'n', 'g', 0xc3)
		case v.Type == mmv.TypeI32 || v.Type == mmv.TypeI64:
			b = schema.AppendInt64(append(b, 0xa1, 'i'), v.Int())
		case v.Type == mmv.TypeU32 || v.Type == mmv.TypeU64 || v.Type == mmv.TypeElapsed:
			b = schema.AppendUint64(append(b, 0xa1, 'u'), v.Uint())
		case v.Type == mmv.TypeFloat || v.Type == mmv.TypeDouble:
			b = schema.AppendFloat64(append(b, 0xa1, 'f'), v.Float())
		case v.Type == mmv.TypeString:
			b = schema.AppendStr(append(b, 0xa1, 's'), v.Text())
		default:
			b[at] = 0x82
		}
	}
	e.B = b
	e.Array("\xa6labels", r.NumLabels())
	for i := range r.NumLabels() {
		l := r.Label(i)
		f := schema.Map{B: append(e.B, 0x84)}
		f.Uint("\xa5flags", uint64(uint32(l.Flags)))
		f.Uint("\xa8identity", uint64(l.Identity))
		f.Int("\xa8internal", int64(l.Internal))
		f.B = appendKeyBytes(f.B, "\xa4json", l.Payload)
		e.B = f.B
	}
	return e.End()
}

// appendKeyBytes appends k, a key already encoded, and v as a MessagePack
// string: one call where appending the key and the string are two.
//
//go:noinline
func appendKeyBytes(b []byte, k string, v []byte) []byte {
	return schema.AppendStr(append(b, k...), v)
}

// mmvFailed is the rest of a refused file's MMVFile after its error:
// zero numbers, empty arrays.
const mmvFailed = "\xa7version\x00\xa3gen\x00\xa5flags\x00\xa7process\x00\xa7cluster\x00" +
	"\xa7metrics\x90\xa6indoms\x90\xa9instances\x90\xa6values\x90\xa6labels\x90"
