package eventrec

// Flags is a record's er_flags word.
type Flags uint32

// Flag bits, as PM_EVENT_FLAG_* in pmapi.h.
const (
	FlagPoint  Flags = 1 << 0 // a single point event
	FlagStart  Flags = 1 << 1 // the start of a span
	FlagEnd    Flags = 1 << 2 // the end of a span
	FlagID     Flags = 1 << 3 // the first parameter is a trace id
	FlagParent Flags = 1 << 4 // the second parameter is the parent id
	FlagMissed Flags = 1 << 31
)

// flagNames are printed in bit order, the order pmEventFlagsStr uses.
var flagNames = [...]struct {
	f    Flags
	name string
}{
	{FlagPoint, "point"},
	{FlagStart, "start"},
	{FlagEnd, "end"},
	{FlagID, "id"},
	{FlagParent, "parent"},
}

// String returns the text libpcp's pmEventFlagsStr returns: "missed" when
// the MISSED bit is set (whatever else is), otherwise the names of the
// set bits among point, start, end, id and parent joined by commas, and
// "" when none of them is set. Undefined bits are not printed.
func (f Flags) String() string {
	b, _ := f.AppendText(nil)
	return string(b)
}

// AppendText appends the [Flags.String] form to b
// (encoding.TextAppender); it never fails and allocates only to grow b.
func (f Flags) AppendText(b []byte) ([]byte, error) {
	if f&FlagMissed != 0 {
		return append(b, "missed"...), nil
	}
	first := true
	for _, n := range flagNames {
		if f&n.f == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, n.name...)
	}
	return b, nil
}
