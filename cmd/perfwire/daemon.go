package main

import (
	"io"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

// readBare hands each message of a running dlt-daemon's TCP stream (bare
// framing: standard headers back to back) to fn as soon as it has
// arrived, until fn returns false or the stream ends.
func readBare(r io.Reader, fn func(dlt.Message) bool) error {
	s := dlt.NewReader(r, dlt.Options{Framing: dlt.FramingBare})
	for s.Next() {
		if !fn(s.Message()) {
			return nil
		}
	}
	return s.Err()
}

// storageRecord appends m with a storage header stamped at t, its ECU id
// the message's or, without one, dlt-receive's default "RECV".
func storageRecord(b []byte, m dlt.Message, t time.Time) []byte {
	ecu, ok := m.HeaderECU()
	if !ok {
		ecu = dlt.ID{'R', 'E', 'C', 'V'}
	}
	b = dlt.AppendStorageHeader(b, dlt.StorageHeader{Seconds: uint32(t.Unix()), Microseconds: int32(t.Nanosecond() / 1000), ECU: ecu})
	return append(b, m.Bytes()...)
}
