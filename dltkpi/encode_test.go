package dltkpi

import (
	"bytes"
	"errors"
	"testing"
)

// TestEncodeGroupMatchesCaptures rebuilds every BEG…END group of the
// captures from its datasets with EncodeGroup and checks that the
// payloads are exactly the ones dlt-kpi sent: same split points, same
// fragments, same bytes.
func TestEncodeGroupMatchesCaptures(t *testing.T) {
	checked, withFragments := 0, 0
	for _, name := range captures {
		msgs := readCapture(t, name)
		open := map[Kind][][]byte{}     // captured payloads of the open group
		datasets := map[Kind][][]byte{} // its complete datasets
		for _, cm := range msgs {
			if !cm.isKPI() {
				continue
			}
			m, err := Parse(cm.payload)
			if err != nil {
				t.Fatal(err)
			}
			k := m.Kind
			switch m.Sync {
			case SyncBegin:
				open[k] = [][]byte{cm.payload}
				datasets[k] = nil
			case SyncEnd:
				if open[k] == nil {
					continue
				}
				want := append(open[k], cm.payload)
				got, err := EncodeGroup(k, datasets[k], 0)
				if err != nil {
					t.Errorf("%s #%d: %v", name, cm.index, err)
					continue
				}
				if len(got) != len(want) {
					t.Errorf("%s #%d: %v group: %d messages, dlt-kpi sent %d", name, cm.index, k, len(got), len(want))
				} else {
					for i := range got {
						if !bytes.Equal(got[i], want[i]) {
							t.Errorf("%s #%d: %v group message %d differs", name, cm.index, k, i)
						}
					}
				}
				if bytes.Contains(bytes.Join(want, nil), []byte(TruncationMarker)) {
					withFragments++
				}
				checked++
				open[k] = nil
			default:
				if open[k] == nil {
					continue
				}
				open[k] = append(open[k], cm.payload)
				for d := range m.All() {
					if !d.Truncated {
						datasets[k] = append(datasets[k], d.Raw)
					}
				}
			}
		}
	}
	if checked < 100 || withFragments < 5 {
		t.Errorf("checked %d groups, %d with fragments: captures not exercised", checked, withFragments)
	}
}

// TestEncodeFlood: the 2000-byte argv[0] of kpi-huge-argv0 can never fit
// a message; EncodeGroup refuses it, and the fragments dlt-kpi sent for
// it are what PayloadBuilder writes into an empty message.
func TestEncodeFlood(t *testing.T) {
	var full []byte
	fragments := 0
	for _, cm := range readCapture(t, "kpi-huge-argv0") {
		if !cm.isKPI() {
			continue
		}
		m, _ := Parse(cm.payload)
		if m.Kind != KindNEW || m.Sync != SyncNone || m.Datasets != 0 {
			continue
		}
		fragments++
		if full == nil {
			truth := readTruth(t, "kpi-huge-argv0")
			for _, p := range truth {
				if p.label == "huge2000" {
					full = AppendNew(nil, p.pid, p.ppid, p.argv0)
				}
			}
		}
		b := NewPayloadBuilder(nil, KindNEW, 0)
		if b.Add(full) {
			t.Fatal("a 2000-byte dataset fitted one message")
		}
		if !bytes.Equal(b.Payload(), cm.payload) {
			t.Fatalf("#%d: flood fragment differs from PayloadBuilder's", cm.index)
		}
	}
	if fragments < 100 {
		t.Fatalf("only %d fragment-only NEW messages", fragments)
	}
	_, err := EncodeGroup(KindNEW, [][]byte{[]byte("1;0;x"), full}, 0)
	// The longest dataset that fits is the FitsMessage boundary below.
	if pe, ok := errors.AsType[*ParseError](err); !ok || !errors.Is(err, ErrLimit) || pe.Offset != 1 ||
		pe.Value != int64(len(full)) || pe.Limit != DefaultBufLen-17 {
		t.Fatalf("EncodeGroup(%d bytes) = %v, want ErrLimit for dataset 1 with limit %d", len(full), err, DefaultBufLen-17)
	}
	if FitsMessage(len(full), 0) || !FitsMessage(DefaultBufLen-17, 0) || FitsMessage(DefaultBufLen-16, 0) {
		t.Error("FitsMessage boundary wrong")
	}
}
