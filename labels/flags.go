package labels

// Flags is the flags byte of a label index entry: the hierarchy level the
// label came from (one of the first six bits), whether its name was
// flattened from a nested map, and whether it is optional. The same bit
// values name the label set types of a LABEL_REQ PDU.
type Flags uint8

// Flag bits, with libpcp's PM_LABEL_* values.
const (
	Context   Flags = 1 << 0 // host or archive level
	Domain    Flags = 1 << 1 // PMDA level
	InDom     Flags = 1 << 2 // instance-domain level
	Cluster   Flags = 1 << 3 // metric cluster level
	Item      Flags = 1 << 4 // single metric
	Instances Flags = 1 << 5 // per instance
	Compound  Flags = 1 << 6 // name built from nested maps ("a.b")
	Optional  Flags = 1 << 7 // extrinsic label; clear means intrinsic
)

// levelMask selects the six hierarchy bits.
const levelMask = Context | Domain | InDom | Cluster | Item | Instances

// Level returns only the hierarchy bits of f.
func (f Flags) Level() Flags { return f & levelMask }

// Intrinsic reports whether the label is intrinsic (OPTIONAL clear), the
// labels that identify a metric value rather than annotate it.
func (f Flags) Intrinsic() bool { return f&Optional == 0 }

var flagNames = [8]string{"context", "domain", "indom", "cluster", "item", "instances", "compound", "optional"}

// AppendText appends the set bits as comma-separated lower-case names
// ("item,optional"), or "none" when no bit is set. It never fails.
func (f Flags) AppendText(b []byte) ([]byte, error) {
	if f == 0 {
		return append(b, "none"...), nil
	}
	first := true
	for i, name := range flagNames {
		if f&(1<<i) == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, name...)
	}
	return b, nil
}

// String returns the text AppendText produces.
func (f Flags) String() string {
	b, _ := f.AppendText(nil)
	return string(b)
}
