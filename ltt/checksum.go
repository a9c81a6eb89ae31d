package ltt

import (
	"hash/crc32"
	"strconv"
)

// Keywords hashed for int, uint and float types, indexed by size code.
var (
	intKeywords   = [...]string{"int8_t", "int16_t", "int32_t", "int64_t", "short int", "int", "long int"}
	uintKeywords  = [...]string{"uint8_t", "uint16_t", "uint32_t", "uint64_t", "unsigned short int", "unsigned int", "unsigned long int"}
	floatKeywords = [...]string{"undef", "undef", "float", "double", "undef", "float", "double"}
)

// checksum is the running register of the facility checksum: the CRC-32
// register kept without the usual final inversion between strings, which
// is how the period parser chained its updates.
type checksum uint32

// feed runs the reflected IEEE table over s by hand: crc32.Update would
// need a []byte, which escapes and allocates for every string.
func (c checksum) feed(s string) checksum {
	r := uint32(c)
	for i := 0; i < len(s); i++ {
		r = crc32.IEEETable[byte(r)^s[i]] ^ r>>8
	}
	return checksum(r)
}

// Checksum computes the facility checksum that facility_load records
// carry: the IEEE CRC-32 of the name, then chained over each event's name
// and type. Descriptions and named-type names are not hashed. Cyclic
// types are not detected here; [NewDecoder] rejects them.
func (f *Facility) Checksum() uint32 {
	// The standard CRC-32 of the name is the register started at all ones
	// and inverted at the end.
	c := ^(^checksum(0)).feed(f.Name)
	for i := range f.Events {
		e := &f.Events[i]
		c = c.feed(e.Name)
		if e.Type != nil {
			c = c.typ(e.Type, 0)
		}
	}
	return uint32(c)
}

// typ feeds one type; depth stops runaway recursion on cyclic input.
func (c checksum) typ(t *Type, depth int) checksum {
	if t == nil || depth > maxTypeDepth {
		return c
	}
	code := int(t.Size)
	if code >= len(intKeywords) {
		code = 0
	}
	switch t.Kind {
	case KindInt:
		c = c.feed(intKeywords[code])
	case KindUint:
		c = c.feed(uintKeywords[code])
	case KindFloat:
		c = c.feed(floatKeywords[code])
	case KindString:
		c = c.feed("string")
	case KindEnum:
		c = c.feed("enum ").feed(uintKeywords[code])
	case KindArray:
		var buf [16]byte
		c = c.feed("array ").feed(string(strconv.AppendUint(buf[:0], uint64(t.Count), 10)))
	case KindSequence:
		var buf [4]byte
		c = c.feed("sequence ").feed(string(strconv.AppendUint(buf[:0], uint64(code), 10)))
	case KindStruct:
		c = c.feed("struct")
	case KindUnion:
		c = c.feed("union")
	}
	c = c.feed(t.Format)
	switch t.Kind {
	case KindArray, KindSequence:
		c = c.typ(t.Elem, depth+1)
	case KindStruct, KindUnion:
		for _, f := range t.Fields {
			c = c.feed(f.Name).typ(f.Type, depth+1)
		}
	case KindEnum:
		for _, l := range t.Labels {
			c = c.feed(l.Name)
			if l.Value != "" {
				c = c.feed("=").feed(l.Value)
			}
		}
	}
	return c
}
