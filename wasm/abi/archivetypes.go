package abi

import "github.com/tinylib/msgp/msgp"

//go:generate go tool msgp -io=false -tests=false -file archivetypes.go -o archivetypes_gen.go

// The archive schema: one data record of a PCP archive, as `perfwire
// archive --json` prints it, one JSON line per record.

// ArchiveRecord is one data record. A mark record (a gap in the
// recording) has mark and no values.
type ArchiveRecord struct {
	_ noCompare

	Timestamp string         `msg:"timestamp"` // RFC 3339, UTC, nanoseconds
	Mark      bool           `msg:"mark,omitempty"`
	Values    []ArchiveValue `msg:"values,omitempty"`
}

// ArchiveValue is one instance's value of one metric. inst is -1 for a
// singular metric. value is a number or a string by the metric's type;
// event arrays are records and aggregates hex, as in Value. A metric that
// failed in this record has error (PCP's message) and no value.
type ArchiveValue struct {
	_ noCompare

	PMID     string        `msg:"pmid"`
	Name     string        `msg:"name"`
	Inst     int32         `msg:"inst"`
	Instance *string       `msg:"instance,omitempty"` // the instance's name, when the domain has it
	Value    *msgp.Raw     `msg:"value,omitempty"`
	Records  []EventRecord `msg:"records,omitempty"`
	Hex      *string       `msg:"hex,omitempty"`
	Error    string        `msg:"error,omitempty"`
}
