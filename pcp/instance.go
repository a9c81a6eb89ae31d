package pcp

// Instance is one instance of an instance domain: its internal number
// and its external name, as pmGetInDom lists them.
type Instance struct {
	Inst int32
	Name string
}
