package pduwire

// Event record flags that matter for validation (pcp-events.md §4).
const eventFlagMissed = 0x80000000

// checkEvents validates an event-record array value block (header word
// included) at PDU offset off, with ea_len as the bound (pcp-events.md
// §6.2). Decoding records is package eventrec's job; this only makes sure
// a RESULT that passes ParseResult holds well-formed arrays.
func checkEvents(blk []byte, off int, highres bool) error {
	n := uint64(len(blk))
	if n < 8 || n%4 != 0 {
		return fail("event.ea_len", off, ErrEvent)
	}
	nrec := int32(u32(blk[4:]))
	hdrLen := uint64(16)
	if highres {
		hdrLen = 24
	}
	if nrec < 0 || uint64(nrec) > (n-8)/hdrLen {
		return fail("event.nrecords", off+4, ErrEvent)
	}
	p := uint64(8)
	for range nrec {
		if hdrLen > n-p {
			return fail("event.record", off+int(p), ErrEvent)
		}
		flags := u32(blk[p+hdrLen-8:])
		nparams := int32(u32(blk[p+hdrLen-4:]))
		if flags&eventFlagMissed != 0 && flags != eventFlagMissed {
			return fail("event.er_flags", off+int(p+hdrLen-8), ErrEvent)
		}
		if nparams < 0 {
			return fail("event.er_nparams", off+int(p+hdrLen-4), ErrEvent)
		}
		p += hdrLen
		if flags == eventFlagMissed {
			continue
		}
		for range nparams {
			if 8 > n-p {
				return fail("event.param", off+int(p), ErrEvent)
			}
			tl := u32(blk[p+4:])
			eplen := uint64(tl & 0xffffff)
			if eplen < 4 || 4+(eplen+3)&^3 > n-p {
				return fail("event.ep_len", off+int(p)+4, ErrEvent)
			}
			switch tl >> 24 {
			case 0, 1, 4: // 32, U32, FLOAT
				if eplen != 8 {
					return fail("event.ep_len", off+int(p)+4, ErrEvent)
				}
			case 2, 3, 5: // 64, U64, DOUBLE
				if eplen != 12 {
					return fail("event.ep_len", off+int(p)+4, ErrEvent)
				}
			case 6, 7: // STRING, AGGREGATE
			default:
				return fail("event.ep_type", off+int(p)+4, ErrEvent)
			}
			p += 4 + (eplen+3)&^3
		}
	}
	return nil
}
