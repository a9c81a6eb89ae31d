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
	flagsID, missedID := u.FlagsID, u.MissedID
	if flagsID == 0 {
		flagsID = DefaultFlagsID
	}
	if missedID == 0 {
		missedID = DefaultMissedID
	}
	u.results, u.values, u.ends = u.results[:0], u.values[:0], u.ends[:0]
	s := a.Scanner()
	for s.Next() {
		r := s.rec
		if r.flags != 0 {
			u.values = append(u.values, Value{ID: flagsID, Inst: pcp.InNull, Type: pcp.TypeU32, InsituFmt: true, Insitu: uint32(r.flags)})
		}
		if n, ok := r.Missed(); ok {
			u.values = append(u.values, Value{ID: missedID, Inst: pcp.InNull, Type: pcp.TypeU32, InsituFmt: true, Insitu: uint32(n)})
		}
		ps := r.ParamScanner()
		for ps.Next() {
			p := ps.p
			v := Value{ID: p.ID, Inst: pcp.InNull, Type: p.Type}
			if (p.Type == pcp.Type32 || p.Type == pcp.TypeU32) && len(p.Value) == 4 {
				v.InsituFmt = true
				v.Insitu = be32(p.Value)
			} else {
				v.Block = p.Value
			}
			u.values = append(u.values, v)
		}
		u.results = append(u.results, Result{Sec: r.sec, Nsec: r.Nanoseconds()})
		u.ends = append(u.ends, len(u.values))
	}
	// Windows into u.values are taken only now, once appends can no
	// longer move it.
	start := 0
	for i, end := range u.ends {
		u.results[i].Values = u.values[start:end:end]
		start = end
	}
	return u.results
}
