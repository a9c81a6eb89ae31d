package main

import (
	"slices"

	"github.com/perfwire/perfwire/ltt"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
	"github.com/tinylib/msgp/msgp"
)

// newLTTEvent is the schema's view of ev, read from tracefile file
// (block -1 when the caller merged the CPUs' events in time order).
func newLTTEvent(file string, block int, ev *ltt.Event) schema.LTTEvent {
	return schema.LTTEvent{
		File: file, Block: block, Offset: ev.Offset, ID: ev.ID, Event: ev.Type.Name(),
		TSC: ev.TSC, Cycles: ev.Cycles, Time: ev.Time, Fields: appendLTTValue(nil, ev.Payload()),
	}
}

// appendLTTValue appends a decoded value as MessagePack, as schema.LTTEvent's
// fields describes.
func appendLTTValue(b []byte, v ltt.Value) []byte {
	switch v.Kind() {
	case ltt.KindInt:
		return msgp.AppendInt64(b, v.Int())
	case ltt.KindUint:
		return msgp.AppendUint64(b, v.Uint())
	case ltt.KindFloat:
		return render.AppendFloat(b, v.Float())
	case ltt.KindString:
		return msgp.AppendStringFromBytes(b, v.Text())
	case ltt.KindEnum:
		l, ok := v.Label(false)
		if !ok {
			return msgp.AppendUint64(msgp.AppendString(msgp.AppendMapHeader(b, 1), "value"), v.Uint())
		}
		b = msgp.AppendUint64(msgp.AppendString(msgp.AppendMapHeader(b, 2), "value"), v.Uint())
		return msgp.AppendString(msgp.AppendString(b, "label"), l)
	case ltt.KindArray, ltt.KindSequence:
		var body []byte
		n := 0
		for it := v.Iter(); it.Next(); n++ {
			body = appendLTTValue(body, it.Value())
		}
		return append(msgp.AppendArrayHeader(b, uint32(n)), body...)
	}
	// A struct or a union. The elements are counted as they come: an
	// iteration that stops early (a damaged payload) still makes a valid
	// map.
	var body []byte
	n := 0
	if v.Kind() == ltt.KindUnion {
		body = msgp.AppendUint64(msgp.AppendString(body, "tag"), v.Uint())
		n++
	}
	for it := v.Iter(); it.Next(); n++ {
		body = appendLTTValue(msgp.AppendString(body, it.Name()), it.Value())
	}
	return append(msgp.AppendMapHeader(b, uint32(n)), body...)
}

// appendLTTCounts appends counts as a MessagePack map, keys sorted.
func appendLTTCounts(b []byte, counts map[string]int) []byte {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = msgp.AppendMapHeader(b, uint32(len(keys)))
	for _, k := range keys {
		b = msgp.AppendInt(msgp.AppendString(b, k), counts[k])
	}
	return b
}
