package schema

//go:generate go tool msgp -io=false -tests=false -file dltdecodetypes.go -o dltdecodetypes_gen.go
//go:generate go run ./internal/encgen -file dltdecodetypes.go

// DLTDecode is the result of dlt_decode: the messages of a DLT file, in
// order, each with what `perfwire dlt` prints and filters on, and the
// damage the scanner resynchronised over.
type DLTDecode struct {
	_ noCompare

	Error         *Error       `msg:"error"`
	Messages      []DLTDecoded `msg:"messages"`
	SkippedBytes  int          `msg:"skipped_bytes"`  // bytes passed over to resynchronise
	SkippedPlaces int          `msg:"skipped_places"` // in how many places
	SkipError     *Error       `msg:"skip_error"`     // why the first place was skipped
}

// DLTDecoded is one message: its DLTMessage (`perfwire dlt --json`'s
// line) and its dlt-convert -a line, exact bytes, without the index and
// with the storage time in UTC; payload_at is where the payload text
// starts in it. ext, level (1 fatal … 6 verbose for a log message, else
// 0), sec and usec (the storage time) are what the CLI's filters read.
type DLTDecoded struct {
	_ noCompare

	Message   DLTMessage `msg:"message"`
	Text      []byte     `msg:"text"`
	PayloadAt int        `msg:"payload_at"`
	Ext       bool       `msg:"ext"`
	Level     int        `msg:"level"`
	Sec       uint32     `msg:"sec"`
	Usec      int32      `msg:"usec"`
}
