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

// AppendEvents appends to dst the MessagePack EventArray of
// DecodeEvents(in), written straight from the array (events_decode).
func AppendEvents(dst, in []byte) []byte {
	a, err := eventrec.Parse(in, eventrec.Options{})
	e := beginMap(dst, 3)
	if err != nil {
		e.b, _ = ErrorOf(err).MarshalMsg(e.key("\xa5error"))
		a = eventrec.Array{} // no records
	} else {
		e.null("\xa5error")
	}
	e.bool("\xa7highres", a.HighRes())
	e.b = appendEventRecords(e.key("\xa7records"), a)
	return e.end()
}
