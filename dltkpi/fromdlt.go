package dltkpi

import (
	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/internal/wire"
)

// ErrNotKPI: FromDLT was given a message that is not a verbose log
// message of the selected KPI context (daemon messages, control
// responses, other applications). It is returned bare, with no offset.
var ErrNotKPI = wire.NewKind("dltkpi_not_kpi", "not a KPI message")

// DefaultAppID and DefaultContextID are the APID and CTID dlt-kpi logs
// with. dlt-system's /proc logger uses other ids; see Selector.
var (
	DefaultAppID     = dlt.MakeID("PROC")
	DefaultContextID = dlt.MakeID("PROC")
)

// Selector says which DLT messages carry KPI payloads. The zero value
// selects APID/CTID PROC/PROC.
type Selector struct {
	_                [0]func() // not comparable: no equality function in the wasm build
	AppID, ContextID dlt.ID
	// Parser holds the per-message limits; its Order is ignored and
	// taken from each message's MSBF flag.
	Parser Parser
}

func (s Selector) ids() (dlt.ID, dlt.ID) {
	app, ctid := s.AppID, s.ContextID
	if app == (dlt.ID{}) {
		app = DefaultAppID
	}
	if ctid == (dlt.ID{}) {
		ctid = DefaultContextID
	}
	return app, ctid
}

// IsKPI reports whether m is a verbose log message of the selected
// context. It reads headers only. The log level (MTIN) is not checked:
// it follows dlt-kpi's configured log_level.
func (s Selector) IsKPI(m dlt.Message) bool {
	app, ctid := s.ids()
	return m.Verbose() && m.Type() == dlt.TypeLog && m.AppID() == app && m.ContextID() == ctid
}

// FromDLT parses the KPI message carried by m and returns it with the
// header fields the Reassembler needs. It fails with ErrNotKPI (no
// offset) for other messages, and with Parse's errors, whose offsets
// count from the start of m's payload. It is Selector{}.FromDLT.
func FromDLT(m dlt.Message) (Message, Source, error) { return Selector{}.FromDLT(m) }

// FromDLT is the package-level FromDLT with this selector.
func (s Selector) FromDLT(m dlt.Message) (Message, Source, error) {
	// IsKPI, reading the ids from the Source (zero for other messages;
	// ids are never zero), not reading them twice: module size; see
	// wasm/size.
	app, ctid := s.ids()
	var src Source
	if m.Verbose() && m.Type() == dlt.TypeLog {
		src = SourceOf(m)
	}
	if src.AppID != app || src.ContextID != ctid {
		return Message{}, Source{}, ErrNotKPI
	}
	p := s.Parser
	p.Order = m.Order()
	km, err := p.Parse(m.Payload())
	return km, src, err
}

// SourceOf returns the header fields of m that identify its session and
// time.
func SourceOf(m dlt.Message) Source {
	src := Source{MCNT: m.Counter(), NOAR: m.NumArgs()}
	src.ECU, src.AppID, src.ContextID = m.IDs()
	src.SEID, _ = m.SessionID()
	src.TMSP, _ = m.Timestamp()
	return src
}

// PushDLT feeds one DLT message of a capture or stream: KPI messages of
// the selector's context are parsed and pushed (or rejected when they do
// not parse), everything else is counted as skipped.
func (r *Reassembler) PushDLT(sel Selector, m dlt.Message) {
	km, src, err := sel.FromDLT(m)
	switch {
	case err == ErrNotKPI: // as FromDLT returns it; errors.Is linked every Is method into wasm builds
		r.reset()
		r.Skip()
	case err != nil:
		r.Reject(src, err)
	default:
		r.Push(src, km)
	}
}
