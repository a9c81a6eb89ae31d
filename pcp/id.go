package pcp

import "strconv"

// ID is a pmID: the 32-bit metric identifier. Read as a big-endian word,
// bit 31 is a flag (0 on the wire), bits 30–22 the domain (the PMDA),
// bits 21–10 the cluster and bits 9–0 the item.
type ID uint32

// IDNull is PM_ID_NULL, the "no metric" identifier.
const IDNull ID = 0xffffffff

// NewID packs domain (0–511), cluster (0–4095) and item (0–1023); higher
// bits of each argument are dropped, as libpcp's bit fields do.
func NewID(domain, cluster, item uint32) ID {
	return ID((domain&0x1ff)<<22 | (cluster&0xfff)<<10 | item&0x3ff)
}

// Domain returns the PMDA domain number.
func (id ID) Domain() uint32 { return uint32(id) >> 22 & 0x1ff }

// Cluster returns the cluster number.
func (id ID) Cluster() uint32 { return uint32(id) >> 10 & 0xfff }

// Item returns the item number.
func (id ID) Item() uint32 { return uint32(id) & 0x3ff }

// String formats the identifier as libpcp's pmIDStr does:
// "domain.cluster.item", or "PM_ID_NULL". It is kept out of line, for
// its many callers: module size; see wasm/size.
//
//go:noinline
func (id ID) String() string {
	if id == IDNull {
		return "PM_ID_NULL"
	}
	var buf [16]byte
	b, _ := id.AppendText(buf[:0])
	return string(b)
}

// AppendText appends the "domain.cluster.item" form to b
// (encoding.TextAppender); it never fails.
func (id ID) AppendText(b []byte) ([]byte, error) {
	// The three numbers are below 10,000 (at most 511.4095.1023): their
	// digits are stored here, with no strconv call per number (the
	// WebAssembly decode of a RESULT's PMIDs spends most in calls).
	for k, v := range [...]uint32{id.Domain(), id.Cluster(), id.Item()} {
		if k > 0 {
			b = append(b, '.')
		}
		if v >= 1000 {
			b = append(b, byte('0'+v/1000))
		}
		if v >= 100 {
			b = append(b, byte('0'+v/100%10))
		}
		if v >= 10 {
			b = append(b, byte('0'+v/10%10))
		}
		b = append(b, byte('0'+v%10))
	}
	return b, nil
}

// InDom is a pmInDom: an instance-domain identifier. Bit 31 is a flag,
// bits 30–22 the domain, bits 21–0 the serial number.
type InDom uint32

// InDomNull is PM_INDOM_NULL: the metric has a single value.
const InDomNull InDom = 0xffffffff

// InNull is PM_IN_NULL, the instance number of a singular value.
const InNull int32 = -1

// NewInDom packs domain (0–511) and serial (0–4194303).
func NewInDom(domain, serial uint32) InDom {
	return InDom((domain&0x1ff)<<22 | serial&0x3fffff)
}

// Domain returns the PMDA domain number.
func (in InDom) Domain() uint32 { return uint32(in) >> 22 & 0x1ff }

// Serial returns the serial number within the domain.
func (in InDom) Serial() uint32 { return uint32(in) & 0x3fffff }

// String formats the identifier as pmInDomStr does: "domain.serial", or
// "PM_INDOM_NULL".
func (in InDom) String() string {
	if in == InDomNull {
		return "PM_INDOM_NULL"
	}
	b := strconv.AppendUint(nil, uint64(in.Domain()), 10)
	b = append(b, '.')
	return string(strconv.AppendUint(b, uint64(in.Serial()), 10))
}
