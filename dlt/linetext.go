package dlt

import (
	"strconv"

	"github.com/perfwire/perfwire/internal/rfc3339"
)

// Names dlt-convert prints for control service ids 1-20 and for the
// status byte of control responses (empty: printed as hex).
var (
	serviceNames = [...]string{"", "set_log_level", "set_trace_status", "get_log_info",
		"get_default_log_level", "store_config", "reset_to_factory_default",
		"set_com_interface_status", "set_com_interface_max_bandwidth", "set_verbose_mode",
		"set_message_filtering", "set_timing_packets", "get_local_time", "use_ecu_id",
		"use_session_id", "use_timestamp", "use_extended_header", "set_default_log_level",
		"set_default_trace_status", "get_software_version", "message_buffer_overflow"}
	statusNames = [...]string{"ok", "not_supported", "error", "perm_denied", "warning", "", "", "", "no_matching_context_id"}
)

// AppendText appends the message as one line of `dlt-convert -a` (DLT
// 2.18.8) with TZ=UTC, without the leading index and without a newline:
//
//	2026/11/22 02:52:12.374270   11517794 008 ECU1 PROC PROC log info V 2 [NEW BEG]
//
// The date and time come from the storage header (the Unix epoch without
// one); the timestamp is right-aligned in 10 columns or "----------";
// the counter has at least 3 digits; ids are padded with '-'; a message
// without extended header shows "--- --- N -". The payload in brackets is
// [Message.AppendPayloadText]: the line is [Message.AppendHeaderText],
// " [", the payload text and "]". The tool cuts lines at its 10,024-byte
// text buffer; this does not. It never fails.
func (m Message) AppendText(b []byte) ([]byte, error) {
	b = append(m.AppendHeaderText(b), " ["...)
	b = m.AppendPayloadText(b)
	return append(b, ']'), nil
}

// AppendHeaderText appends the part of the message's [Message.AppendText]
// line before the payload: the storage time, timestamp, counter, ids,
// type, subtype, mode and argument count, without the " [" that follows
// them. A caller that makes the payload text itself (from the arguments'
// [Arg.AppendText], as [Message.AppendPayloadText] does) writes the line
// without making the payload text twice.
func (m Message) AppendHeaderText(b []byte) []byte {
	sh := m.StorageHeader()
	b = appendDateTime(b, sh.Seconds)
	us, dot := sh.Microseconds, "."
	if us < 0 {
		us, dot = -us, ".-"
	}
	b = appendPadded(b, dot, uint64(us), 6, '0')
	if ts, ok := m.Timestamp(); ok {
		b = appendPadded(b, " ", uint64(ts), 10, ' ')
	} else {
		b = append(b, " ----------"...)
	}
	b = appendPadded(b, " ", uint64(m.Counter()), 3, '0')
	ecu, app, ctx := m.IDs()
	// A space and each id in 4 columns, '-' from its length on.
	for _, id := range [...]ID{ecu, app, ctx} {
		c := [5]byte{' ', id[0], id[1], id[2], id[3]}
		for i := id.Len(); i < 4; i++ {
			c[1+i] = '-'
		}
		b = append(b, c[:]...)
	}
	if !m.HasExtendedHeader() {
		b = append(b, " --- --- N -"...)
	} else {
		t, mode := m.Type(), " N "
		if m.Verbose() {
			mode = " V "
		}
		b = appendStrings(b, " ", t.String(), " ", SubtypeName(t, m.Subtype()), mode)
		b = strconv.AppendInt(b, int64(m.NumArgs()), 10)
	}
	return b
}

// AppendPayloadText appends the payload as dlt-convert -a shows it
// between the brackets:
//
//   - verbose: the arguments' [Arg.AppendText] joined by single spaces,
//     up to the first argument that fails to decode (followed by the
//     space the tool prints before trying it);
//   - control: the service name (ids 1-20; otherwise "service(N)", or
//     nothing for time messages), then for responses the status name
//     (or its hex value), then the remaining bytes in hex;
//   - other non-verbose: the message id in decimal, ", ", the rest in hex.
//
// A non-verbose payload shorter than 4 bytes counts as message id 0 with
// no data, as the tool does.
func (m Message) AppendPayloadText(b []byte) []byte {
	if m.Verbose() {
		s := m.ArgScanner()
		i := 0
		for ; s.Next(); i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b, _ = s.arg.AppendText(b)
		}
		// The tool writes the separator before it tries the next
		// argument, so a failure after the first leaves a space.
		if i > 0 && s.Remaining() > 0 {
			b = append(b, ' ')
		}
		return b
	}
	id, ok := m.MessageID()
	var rest []byte
	if ok {
		rest = m.Payload()[4:]
	}
	if m.Type() != TypeControl || !m.HasExtendedHeader() {
		return appendHexBytes(strconv.AppendUint(b, uint64(id), 10), ", ", rest, ' ')
	}
	switch {
	case id > 0 && id < uint32(len(serviceNames)):
		b = append(b, serviceNames[id]...)
	case m.Subtype() == ControlTime:
	default:
		b = append(strconv.AppendUint(append(b, "service("...), uint64(id), 10), ')')
	}
	if len(rest) != 0 && m.Subtype() == ControlResponse {
		if st := rest[0]; int(st) < len(statusNames) && statusNames[st] != "" {
			b = appendStrings(b, ", ", statusNames[st])
		} else {
			b = appendHexBytes(b, ", ", rest[:1], ' ')
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return b
	}
	return appendHexBytes(b, ", ", rest, ' ')
}

// appendStrings appends each of ss: one call where an append per text
// costs WebAssembly code at every one.
//
//go:noinline
func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = append(b, s...)
	}
	return b
}

// appendPadded appends pre, then v in decimal, left-padded with pad to
// width.
func appendPadded(b []byte, pre string, v uint64, width int, pad byte) []byte {
	var d [20]byte
	s := strconv.AppendUint(d[:0], v, 10)
	b = append(b, pre...)
	for i := len(s); i < width; i++ {
		b = append(b, pad)
	}
	return append(b, s...)
}

// appendDateTime appends secs since the Unix epoch as UTC
// "YYYY/MM/DD HH:MM:SS": RFC 3339's "YYYY-MM-DDTHH:MM:SSZ" (a uint32 of
// seconds is always a year of four digits) with the tool's separators.
func appendDateTime(b []byte, secs uint32) []byte {
	var t [32]byte
	s := rfc3339.Append(t[:0], int64(secs), 0, 0)[:19]
	s[4], s[7], s[10] = '/', '/', ' '
	return append(b, s...)
}
