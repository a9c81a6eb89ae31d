package dlt

import "testing"

// headerOf returns the Header that re-encodes m's standard and extended
// header.
func headerOf(m Message) Header {
	h := Header{
		Counter:   m.Counter(),
		Order:     m.Order(),
		Extended:  m.HasExtendedHeader(),
		Verbose:   m.Verbose(),
		Type:      m.Type(),
		Subtype:   m.Subtype(),
		AppID:     m.AppID(),
		ContextID: m.ContextID(),
	}
	h.ECU, h.WithECU = m.HeaderECU()
	h.SessionID, h.WithSessionID = m.SessionID()
	h.Timestamp, h.WithTimestamp = m.Timestamp()
	return h
}

// specOf returns the ArgSpec that re-encodes a.
func specOf(a Arg) ArgSpec {
	s := ArgSpec{
		Kind:       a.Kind(),
		Bits:       a.Bits(),
		Coding:     a.Coding(),
		VarInfo:    a.HasVarInfo(),
		Name:       string(a.Name()),
		Unit:       string(a.Unit()),
		FixedPoint: a.HasFixedPoint(),
		Bool:       a.Bool(),
		Float:      a.Float(),
		Data:       nil,
	}
	if s.FixedPoint {
		s.Quantization = a.Quantization()
		s.FixedOffset = a.FixedOffset()
	}
	switch s.Kind {
	case KindSigned, KindUnsigned:
		s.UintHi, s.Uint = a.Uint128()
	case KindString, KindRaw, KindTrace:
		s.Data = a.Bytes()
	}
	return s
}

// reencode rebuilds m (with a storage header when m had one) from its
// decoded fields, optionally flipping the payload byte order.
func reencode(t testing.TB, dst []byte, m Message, flip bool) []byte {
	t.Helper()
	if m.HasStorageHeader() {
		dst = AppendStorageHeader(dst, m.StorageHeader())
	}
	h := headerOf(m)
	h.Order = orderOf(isBig(h.Order) != flip)
	if !m.Verbose() {
		if flip {
			t.Fatal("cannot flip a non-verbose payload")
		}
		out, err := AppendMessage(dst, h, m.NumArgs(), m.Payload())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	b := NewBuilder(dst, h)
	for a, err := range m.Args() {
		if err != nil {
			t.Fatal(err)
		}
		b.Arg(specOf(a))
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// scanAll returns every message of data, failing the test on any error.
func scanAll(t testing.TB, data []byte, opt Options) []Message {
	t.Helper()
	var ms []Message
	s := NewScanner(data, opt)
	for s.Next() {
		ms = append(ms, s.Message())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return ms
}
