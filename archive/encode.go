package archive

import (
	"encoding/binary"

	"github.com/perfwire/perfwire/pduwire"
)

// The encoders below append one framed record each, in the layout of
// archive version v (2 or 3), as pmlogger writes it (docs/pcp-archive.md).

// beginRecord appends a length word to fill in later and returns where
// the record started.
func beginRecord(dst []byte) ([]byte, int) {
	return append(dst, 0, 0, 0, 0), len(dst)
}

// beginStamped begins a .meta record whose type differs by version
// (typ3 in version 3, typ2 before) and whose time follows the type.
func beginStamped(dst []byte, v int, typ3, typ2 uint32, t Timestamp) ([]byte, int) {
	dst, start := beginRecord(dst)
	if v != 3 {
		typ3 = typ2
	}
	return appendStamp(u32(dst, typ3), t, v), start
}

// endRecord appends the trailer and fills in both length words.
func endRecord(dst []byte, start int) []byte {
	n := uint32(len(dst) - start + 4)
	binary.BigEndian.PutUint32(dst[start:], n)
	return binary.BigEndian.AppendUint32(dst, n)
}

func u32(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }

// AppendDesc appends a .meta descriptor record for m and its names.
func AppendDesc(dst []byte, m Metric) []byte {
	dst, start := beginRecord(dst)
	dst = u32(dst, metaDesc)
	dst = u32(dst, uint32(m.ID))
	dst = u32(dst, uint32(m.Type))
	dst = u32(dst, uint32(m.InDom))
	dst = u32(dst, uint32(m.Sem))
	dst = u32(dst, uint32(m.Units))
	dst = u32(dst, uint32(len(m.Names)))
	for _, n := range m.Names {
		dst = u32(dst, uint32(len(n)))
		dst = append(dst, n...)
	}
	return endRecord(dst, start)
}

// AppendInDom appends a .meta instance domain record of version v: the
// whole domain in.Inst and in.Names as of in.Time (a full record; Delta
// is not written).
func AppendInDom(dst []byte, v int, in Instances) []byte {
	dst, start := beginStamped(dst, v, metaInDom, metaInDomV2, in.Time)
	dst = u32(dst, uint32(in.InDom))
	dst = u32(dst, uint32(len(in.Inst)))
	for _, i := range in.Inst {
		dst = u32(dst, uint32(i))
	}
	off := 0
	for _, n := range in.Names {
		dst = u32(dst, uint32(off))
		off += len(n) + 1
	}
	for _, n := range in.Names {
		dst = append(append(dst, n...), 0)
	}
	return endRecord(dst, start)
}

// AppendLabels appends a .meta label record of version v.
func AppendLabels(dst []byte, v int, ls LabelSets) []byte {
	dst, start := beginStamped(dst, v, metaLabel, metaLabelV2, ls.Time)
	dst = u32(dst, ls.Type)
	dst = u32(dst, ls.Ident)
	dst = u32(dst, uint32(len(ls.Sets)))
	for _, s := range ls.Sets {
		dst = u32(dst, uint32(s.Inst))
		dst = u32(dst, uint32(len(s.JSON)))
		dst = append(dst, s.JSON...)
		if len(s.Labels) == 0 {
			dst = u32(dst, uint32(min(s.NLabels, 0)))
			continue
		}
		dst = u32(dst, uint32(len(s.Labels)))
		for _, l := range s.Labels {
			dst = binary.BigEndian.AppendUint16(dst, l.Name)
			dst = append(dst, l.NameLen, l.Flags)
			dst = binary.BigEndian.AppendUint16(dst, l.Value)
			dst = binary.BigEndian.AppendUint16(dst, l.ValueLen)
		}
	}
	return endRecord(dst, start)
}

// AppendText appends a .meta help text record.
func AppendText(dst []byte, t Text) []byte {
	dst, start := beginRecord(dst)
	dst = u32(dst, metaText)
	dst = u32(dst, t.Type)
	dst = u32(dst, t.Ident)
	dst = append(append(dst, t.Text...), 0)
	return endRecord(dst, start)
}

// AppendResult appends a data record of version v holding r's value sets
// at time t (r's own time is not used). A result without value sets is a
// mark record.
func AppendResult(dst []byte, v int, t Timestamp, r *pduwire.ResultPDU) []byte {
	dst, start := beginRecord(dst)
	dst = appendStamp(dst, t, v)
	// The value sets and blocks are a RESULT PDU's, whose value block
	// pointers count words from 12 bytes before the record's payload
	// (docs/pcp-archive.md §4). A v2 record has the RESULT's layout; in
	// v3 the timestamp is 4 bytes longer, so every pointer moves a word.
	plain := *r
	plain.HighRes = false // the RESULT layout, whatever r came from
	pdu := plain.Append(nil, 0)
	dst = append(dst, pdu[20:]...) // numpmid, value sets, blocks
	if v == 3 {
		shiftPointers(dst[start+4+12:], 1)
	}
	return endRecord(dst, start)
}

// shiftPointers adds words to every value block pointer of the value
// sets in b (numpmid first).
func shiftPointers(b []byte, words uint32) {
	n := int(binary.BigEndian.Uint32(b))
	off := 4
	for range n {
		numval := int32(binary.BigEndian.Uint32(b[off+4:]))
		if numval <= 0 {
			off += 8
			continue
		}
		valfmt := binary.BigEndian.Uint32(b[off+8:])
		off += 12
		for range numval {
			if valfmt != pduwire.ValInsitu {
				binary.BigEndian.PutUint32(b[off+4:], binary.BigEndian.Uint32(b[off+4:])+words)
			}
			off += 8
		}
	}
}

// AppendIndexEntry appends a temporal index entry of version v.
func AppendIndexEntry(dst []byte, v int, e IndexEntry) []byte {
	dst = appendStamp(dst, e.Time, v)
	dst = u32(dst, uint32(e.Vol))
	if v == 3 {
		dst = binary.BigEndian.AppendUint64(dst, uint64(e.MetaOffset))
		return binary.BigEndian.AppendUint64(dst, uint64(e.DataOffset))
	}
	dst = u32(dst, uint32(e.MetaOffset))
	return u32(dst, uint32(e.DataOffset))
}
