package render

import (
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/schema"
)

// AppendEvents decodes one PCP event record array (the value block of a
// PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT value, from its type/length
// word on) with eventrec's strict defaults and appends to dst its
// MessagePack EventArray, written straight from the array
// (events_decode). The records have the schema of those in a RESULT
// value.
func AppendEvents(dst, in []byte) []byte {
	a, err := eventrec.Parse(in, eventrec.Options{})
	e := schema.BeginMap(dst, 3)
	e.Err("\xa5error", schema.ErrorOf(err))
	if err != nil {
		a = eventrec.Array{} // no records
	}
	e.Bool("\xa7highres", a.HighRes())
	e.B = appendEventRecords(e.Key("\xa7records"), a)
	return e.End()
}
