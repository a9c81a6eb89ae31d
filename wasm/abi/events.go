package abi

import "github.com/perfwire/perfwire/eventrec"

// DecodeEvents decodes one PCP event record array (the value block of a
// PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT value, from its type/length
// word on) with eventrec's strict defaults. The records have the schema
// of those in a RESULT value.
func DecodeEvents(in []byte) EventArray {
	a, err := eventrec.Parse(in, eventrec.Options{})
	if err != nil {
		return EventArray{Error: ErrorOf(err), Records: []EventRecord{}}
	}
	return EventArray{HighRes: a.HighRes(), Records: eventRecords(a)}
}
