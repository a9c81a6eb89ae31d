package eventrec

import (
	"github.com/perfwire/perfwire/pcp"
)

// Identifiers libpcp gives its anonymous metrics event.flags and
// event.missed in a fresh client (domain 511, the dynamic-PMID domain;
// PCP QA prints them as 511.0.1 and 511.0.2). They are assigned at run
// time, so [Unpacker] lets callers replace them.
var (
	DefaultFlagsID  = pcp.NewID(511, 0, 1)
	DefaultMissedID = pcp.NewID(511, 0, 2)
)

// Value is one value set of an unpacked record, as pmUnpackEventRecords
// builds it: always one value, instance PM_IN_NULL. 32-bit values (and
// the synthetic event.flags / event.missed) are in-situ in Insitu;
// everything else is a pointer value whose payload is the Block view.
type Value struct {
	ID   pcp.ID
	Inst int32    // always pcp.InNull
	Type pcp.Type // the parameter's type; pcp.TypeU32 for flags/missed
	// InsituFmt reports PM_VAL_INSITU; otherwise the value is PM_VAL_DPTR.
	InsituFmt bool
	Insitu    uint32 // the in-situ word, when InsituFmt
	Block     []byte // the value bytes, when !InsituFmt (aliases the array)
}

// Result is one unpacked record: its timestamp and value sets.
type Result struct {
	Sec  int64 // tv_sec
	Nsec int64 // sub-second part in nanoseconds (microseconds × 1000 for EVENT)
	// Values are the value sets in libpcp's order: event.flags first when
	// the flags are non-zero, then event.missed for a missed marker, or
	// the parameters in record order.
	Values []Value
}

// Unpacker turns validated arrays into per-record results, reusing its
// slices, so a steady-state loop allocates nothing. The results alias
// the array's bytes and the Unpacker's storage: they are valid until the
// next Unpack.
type Unpacker struct {
	// FlagsID and MissedID identify the synthetic values; zero means
	// DefaultFlagsID / DefaultMissedID.
	FlagsID, MissedID pcp.ID

	results []Result
	values  []Value
	ends    []int // end of each result's window in values
}

// Unpack unpacks every record of a, in order, and returns the results.
// It mirrors pmUnpackEventRecords: a record with non-zero flags gets a
// leading event.flags value (U32, in-situ, the whole flags word); a missed
// marker becomes event.flags plus event.missed (the lost count) and
// nothing else; each parameter becomes its own value set. An empty array
// gives no results. a must come from [Parse], so Unpack cannot
// fail.
func (u *Unpacker) Unpack(a Array) []Result {
	// The walk checks again what Parse checked, so that bytes changed
	// since end the results early rather than panic.
	_ = u.unpack(a.b, a.typ, a.n, &a.options)
	return u.results
}

// UnpackBytes is [Parse] and [Unpacker.Unpack] in one pass over b: it
// checks each record and parameter as it unpacks it, and fails where and
// as Parse fails, with the same errors and offsets. On error the
// results are nil.
func (u *Unpacker) UnpackBytes(b []byte, opts Options) ([]Result, error) {
	eaLen, typ, n, err := parseHeader(b, &opts)
	if err == nil {
		err = u.unpack(b[:eaLen:eaLen], typ, n, &opts)
	}
	if err != nil {
		return nil, err
	}
	return u.results, nil
}

// unpack fills u.results from the n records of the array b (ea_len
// bytes) of type typ, checking each record and parameter as Scanner.Next
// does; on error the results hold the records before the bad one.
func (u *Unpacker) unpack(b []byte, typ pcp.Type, n int32, opts *Options) error {
	flagsID, missedID := u.FlagsID, u.MissedID
	if flagsID == 0 {
		flagsID = DefaultFlagsID
	}
	if missedID == 0 {
		missedID = DefaultMissedID
	}
	results, values, ends := u.results[:0], u.values[:0], u.ends[:0]
	highRes := typ == pcp.TypeHighResEvent
	hdr, scale := recordHeaderLen, int64(1000)
	if highRes {
		hdr, scale = hrRecordHeaderLen, 1
	}
	maxParams := int64(opts.maxParams())
	var err error
	off := arrayHeaderLen
	// The checks of recordHeader and paramLen are made here inline, as
	// one test each, so that the registers survive the loop; where one
	// fails, those functions are called for the error.
	for ; n > 0; n-- {
		if hdr > len(b)-off {
			_, _, _, _, err = recordHeader(b, off, highRes, opts)
			break
		}
		h := b[off : off+hdr]
		var (
			sec, frac int64
			lim       uint64
		)
		if highRes {
			sec, frac, lim = int64(be64(h)), int64(be64(h[8:])), 1e9
		} else {
			sec, frac, lim = int64(int32(be32(h))), int64(int32(be32(h[4:]))), 1e6
		}
		flags, np := Flags(be32(h[hdr-8:])), int32(be32(h[hdr-4:]))
		if !opts.Lenient && uint64(frac) >= lim || flags&FlagMissed != 0 && flags != FlagMissed || np < 0 ||
			flags != FlagMissed && (int64(np) > maxParams || uint64(np)*paramHeaderLen > uint64(len(b)-off-hdr)) {
			_, _, _, _, err = recordHeader(b, off, highRes, opts)
			break
		}
		off += hdr
		if flags != 0 {
			values = append(values, Value{ID: flagsID, Inst: pcp.InNull, Type: pcp.TypeU32, InsituFmt: true, Insitu: uint32(flags)})
		}
		if flags == FlagMissed {
			values = append(values, Value{ID: missedID, Inst: pcp.InNull, Type: pcp.TypeU32, InsituFmt: true, Insitu: uint32(np)})
			np = 0
		}
		for ; np > 0; np-- {
			p := b[off:]
			if len(p) < paramHeaderLen {
				err = paramError(b, off, opts.Base)
				break
			}
			w := be32(p[4:])
			epLen := int(w & maxEALen)
			pl := (epLen + 7) &^ 3
			if fl := int(paramLens[w>>24]); epLen < 4 || pl > len(p) || fl != 0 && epLen != fl {
				err = paramError(b, off, opts.Base)
				break
			}
			v := Value{ID: pcp.ID(be32(p)), Inst: pcp.InNull, Type: pcp.Type(w >> 24)}
			if (v.Type == pcp.Type32 || v.Type == pcp.TypeU32) && epLen == 8 {
				v.InsituFmt = true
				v.Insitu = be32(p[8:])
			} else {
				v.Block = p[paramHeaderLen : 4+epLen : 4+epLen]
			}
			values = append(values, v)
			off += pl
		}
		if err != nil {
			break
		}
		results = append(results, Result{Sec: sec, Nsec: frac * scale})
		ends = append(ends, len(values))
	}
	// Windows into values are taken only now, once appends can no
	// longer move it.
	start := 0
	for i, end := range ends {
		results[i].Values = values[start:end:end]
		start = end
	}
	u.results, u.values, u.ends = results, values, ends
	return err
}
