package abi

import "github.com/perfwire/perfwire/eventrec"

// DecodeEvents decodes one PCP event record array (the value block of a
// PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT value, from its type/length
// word on) with eventrec's strict defaults. Parameter text is what
// pminfo prints for the value.
func DecodeEvents(in []byte) EventArray {
	a, err := eventrec.Parse(in)
	if err != nil {
		return EventArray{Error: errorOf(err), Records: []EventRecord{}}
	}
	res := EventArray{HighRes: a.HighRes(), Records: make([]EventRecord, 0, a.Len())}
	var text []byte
	for r := range a.Records() {
		er := EventRecord{Seconds: r.Seconds(), Nanos: r.Nanoseconds(), Flags: uint32(r.Flags()), Params: []EventParam{}}
		if n, ok := r.Missed(); ok {
			er.Missed = n
		}
		for p := range r.Params() {
			text, err = p.AppendText(text[:0])
			if err != nil {
				return EventArray{Error: errorOf(err), Records: []EventRecord{}}
			}
			er.Params = append(er.Params, EventParam{
				PMID: uint32(p.ID), Type: int32(p.Type), Text: string(text),
				Value: append([]byte{}, p.Value...),
			})
		}
		res.Records = append(res.Records, er)
	}
	return res
}
