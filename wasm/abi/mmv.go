package abi

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/mmv"
)

// AppendMMV validates an MMV file image (little-endian, or big-endian
// when bigEndian is set) and appends to dst its entries and its values
// as they are now, as the MessagePack MMVFile mmv_read returns, written
// straight from the reader's views: no MMVFile value, no string per
// name, text or value (issue 18 item 7). mmvdump's text layout is left
// to the host (natively, mmv.AppendDump): the plugin carries the
// content, not the formatter.
func AppendMMV(dst, in []byte, bigEndian bool) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	r, err := mmv.NewReader(in, mmv.Options{Order: order})
	e := beginMap(dst, 11)
	e.err("\xa5error", ErrorOf(err))
	if err != nil {
		e.b = append(e.b, mmvFailed...)
		e.n += 10
		return e.end()
	}
	h := r.Header()
	e.int("\xa7version", int64(h.Version))
	e.uint("\xa3gen", h.Gen1)
	e.uint("\xa5flags", uint64(uint32(h.Flags)))
	e.int("\xa7process", int64(h.Process))
	e.int("\xa7cluster", int64(h.Cluster))
	// The entries' maps have all their keys: their headers are written
	// here, not counted by beginMap and end.
	// A value names its metric and instance: their names as the metrics
	// and instances wrote them, strings of the result (from names[k][0]
	// to names[k][1], the instances after the metrics), each value's
	// copied from there by one append.
	nm, ni := r.NumMetrics(), r.NumInstances()
	names := make([][2]int, nm+ni)
	e.array("\xa7metrics", nm)
	for i := range nm { // no metric is refused
		m := r.Metric(i)
		f := enc{b: append(e.b, 0x89)}
		s := len(f.b) + 5
		f.b = appendKeyBytes(f.b, "\xa4name", m.Name)
		names[i] = [2]int{s, len(f.b)}
		f.uint("\xa4item", uint64(m.Item))
		f.int("\xa4type", int64(m.Type))
		f.str("\xa9type_name", m.Type.String())
		f.uint("\xa3sem", uint64(uint32(m.Sem)))
		f.uint("\xa5units", uint64(uint32(m.Units)))
		f.uint("\xa5indom", uint64(m.Indom))
		f.b = appendKeyBytes(f.b, "\xa9shorttext", m.ShortText)
		f.b = appendKeyBytes(f.b, "\xa8helptext", m.HelpText)
		e.b = f.b
	}
	e.array("\xa6indoms", r.NumIndoms())
	for i := range r.NumIndoms() {
		d := r.Indom(i)
		f := enc{b: append(e.b, 0x84)}
		f.uint("\xa6serial", uint64(d.Serial))
		f.int("\xa5count", int64(d.Count))
		f.b = appendKeyBytes(f.b, "\xa9shorttext", d.ShortText)
		f.b = appendKeyBytes(f.b, "\xa8helptext", d.HelpText)
		e.b = f.b
	}
	e.array("\xa9instances", ni)
	for i := range ni {
		in := r.Instance(i)
		var serial uint32
		if in.Indom >= 0 {
			serial = r.Indom(in.Indom).Serial
		}
		f := enc{b: append(e.b, 0x83)}
		f.uint("\xa5indom", uint64(serial))
		f.int("\xa2id", int64(in.ID))
		s := len(f.b) + 5
		f.b = appendKeyBytes(f.b, "\xa4name", in.Name)
		names[nm+i] = [2]int{s, len(f.b)}
		e.b = f.b
	}
	// The values, most of a file's result, store their keys themselves
	// rather than call enc's methods (see appendValueSet).
	e.array("\xa6values", r.NumValues())
	b := e.b
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
			b = appendInt64(append(b, 0xa1, 'i'), v.Int())
		case v.Type == mmv.TypeU32 || v.Type == mmv.TypeU64 || v.Type == mmv.TypeElapsed:
			b = appendUint64(append(b, 0xa1, 'u'), v.Uint())
		case v.Type == mmv.TypeFloat || v.Type == mmv.TypeDouble:
			b = appendFloat64(append(b, 0xa1, 'f'), v.Float())
		case v.Type == mmv.TypeString:
			b = appendStr(append(b, 0xa1, 's'), v.Text())
		default:
			b[at] = 0x82
		}
	}
	e.b = b
	e.array("\xa6labels", r.NumLabels())
	for i := range r.NumLabels() {
		l := r.Label(i)
		f := enc{b: append(e.b, 0x84)}
		f.uint("\xa5flags", uint64(uint32(l.Flags)))
		f.uint("\xa8identity", uint64(l.Identity))
		f.int("\xa8internal", int64(l.Internal))
		f.b = appendKeyBytes(f.b, "\xa4json", l.Payload)
		e.b = f.b
	}
	return e.end()
}

// appendKeyBytes appends k, a key already encoded, and v as a MessagePack
// string: one call where appending the key and the string are two.
//
//go:noinline
func appendKeyBytes(b []byte, k string, v []byte) []byte {
	return appendStr(append(b, k...), v)
}

// mmvFailed is the rest of a refused file's MMVFile after its error:
// zero numbers, empty arrays.
const mmvFailed = "\xa7version\x00\xa3gen\x00\xa5flags\x00\xa7process\x00\xa7cluster\x00" +
	"\xa7metrics\x90\xa6indoms\x90\xa9instances\x90\xa6values\x90\xa6labels\x90"
