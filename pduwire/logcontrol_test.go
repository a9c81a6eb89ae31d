package pduwire_test

import (
	"errors"
	"testing"

	"github.com/perfwire/perfwire/pduwire"
)

// TestLogControlMinimum pins LOG_CONTROL's minimum to what libpcp 6.0.3's
// __pmDecodeLogControl accepts (found by the differential fuzzer,
// fuzz/diff seed 236edad28020e4fc): 32 bytes, its structure's size, even
// without metrics; 28 is too short. What Append makes of an empty request
// is what that decoder takes.
func TestLogControlMinimum(t *testing.T) {
	empty := (&pduwire.LogControlPDU{Control: 13, State: 2, Delta: 1000}).Append(nil, 0)
	if len(empty) != 32 {
		t.Fatalf("Append without metrics: %d bytes, libpcp wants 32", len(empty))
	}
	var m pduwire.LogControlPDU
	if err := m.UnmarshalBinary(empty); err != nil || m.Control != 13 || m.State != 2 || m.Delta != 1000 || len(m.Metrics) != 0 {
		t.Fatalf("32-byte LOG_CONTROL: %+v, %v", m, err)
	}
	short := append([]byte(nil), empty[:28]...)
	short[3] = 28
	if err := m.UnmarshalBinary(short); !errors.Is(err, pduwire.ErrTruncated) {
		t.Fatalf("28-byte LOG_CONTROL: %v, want ErrTruncated", err)
	}
	long := append(append([]byte(nil), empty...), 0, 0, 0, 0)
	long[3] = 36
	if err := m.UnmarshalBinary(long); !errors.Is(err, pduwire.ErrTrailing) {
		t.Fatalf("36-byte LOG_CONTROL without metrics: %v, want ErrTrailing", err)
	}
}
