package render

import (
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/schema"
)

// DecodeEvents is the reference AppendEvents is held to (TestAppendEvents):
// the EventArray built as values, with eventRecords as a RESULT's and an
// archive record's event values are, which AppendEvents writes in place.
// It was events_decode's and perfwire events' implementation before
// 2026-11-27.
func DecodeEvents(in []byte) schema.EventArray {
	a, err := eventrec.Parse(in, eventrec.Options{})
	if err != nil {
		return schema.EventArray{Error: schema.ErrorOf(err), Records: []schema.EventRecord{}}
	}
	return schema.EventArray{HighRes: a.HighRes(), Records: eventRecords(a)}
}
