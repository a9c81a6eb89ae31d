package diff

import (
	"os"
	"path/filepath"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// synthPDUs are well-formed PDUs of the types that neither the pmcd
// captures nor the PCP QA vectors hold (pmlc ↔ pmlogger traffic, DESCS,
// PMNS_CHILD), made with pduwire's encoders after the layouts of
// docs/pcp-pdu.md §4.10, §4.13 and §4.16, plus the two pmlogger status PDUs
// libpcp's own encoder made (pduwire/testdata/libpcp). They seed the comparison; whether
// libpcp reads them as perfwire does is what the test checks.
func synthPDUs() [][]byte {
	id := pcp.NewID(29, 0, 5)
	host := []byte("pcp-host\x00")
	msgs := []pduwire.Message{
		&pduwire.DescsPDU{Descs: []pduwire.Desc{
			{ID: id, Type: pcp.TypeU32, InDom: pcp.NewInDom(29, 1), Sem: 3},
			{ID: pcp.ID(0xffffffff)},
		}},
		&pduwire.PMNSChildPDU{Subtype: 1, Name: []byte("sample.colour")},
		&pduwire.PMNSChildPDU{Name: []byte("")},
		&pduwire.PMNSChildPDU{Traverse: true, Name: []byte("sampledso")},
		&pduwire.LogRequestPDU{Request: pduwire.LogRequestStatus},
		&pduwire.LogControlPDU{Control: pduwire.LogMandatory, State: pduwire.LogStateOn, Delta: 5000, Metrics: []pduwire.LogMetric{
			{PMID: id, NumVal: 2, Values: []pduwire.LogValue{{Inst: 0, Value: 0}, {Inst: 2, Value: 0}}},
			{PMID: pcp.NewID(29, 0, 6), NumVal: 0},
			{PMID: pcp.NewID(29, 0, 7), NumVal: -12357},
		}},
		&pduwire.LogStatusPDU{Start: pduwire.LogTime{Sec: 1700000000, Frac: 123456789}, Last: pduwire.LogTime{Sec: 1700000010},
			Now: pduwire.LogTime{Sec: 1700000011, Frac: 5}, State: 2, Vol: 3, Size: 1 << 33,
			Strings: [6][]byte{host, []byte("pcp-host.example.org\x00"), []byte("UTC\x00"), nil, []byte("AEST-10\x00"), []byte(":Australia/Sydney\x00")}},
		&pduwire.AttrPDU{Attr: pduwire.AttrUsername, Value: []byte("pcpqa")},
	}
	v2 := &pduwire.LogStatusV2PDU{Start: pduwire.LogTime{Sec: 1700000000, Frac: 999999}, State: 1, Vol: 0, Size: 4096}
	copy(v2.Host[:], "pcp-host")
	copy(v2.FQDN[:], "pcp-host.example.org")
	copy(v2.PMCDTZ[:], "UTC")
	copy(v2.LoggerTZ[:], "UTC")
	msgs = append(msgs, v2)
	var out [][]byte
	for _, m := range msgs {
		out = append(out, m.Append(nil, 0))
	}
	// LOG_STATUS and LOG_STATUS_V2 made by libpcp's __pmSendLogStatus.
	files, _ := filepath.Glob("../../pduwire/testdata/libpcp/*.bin")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			out = append(out, b)
		}
	}
	return out
}
