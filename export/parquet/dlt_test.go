package parquet

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

// exportDLT exports testdata/NAME.dlt into a new directory.
func exportDLT(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open("testdata/" + name + ".dlt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	out := (&Dir{Root: dir}).Output("t")
	if _, err := out.DLT(dlt.NewReader(f, dlt.Options{}), name+".dlt", ""); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// convertLine is one line of dlt-convert -a (TZ=UTC): index, storage
// time, timestamp, counter, ids, type, subtype, mode, argument count and
// payload.
var convertLine = regexp.MustCompile(`^(\d+) (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6}) +(\d+|----------) (\d{3,}) (\S{4}) (\S{4}) (\S{4}) (?:(\S+) (\S+) ([VN]) (\d+)|--- --- N -) \[(.*)\]$`)

// lineOf is the dlt-convert -a line a dlt_messages row stands for, built
// from its columns as the tool lays them out.
func lineOf(r *DLTMessage) string {
	id := func(s string) string { return s + strings.Repeat("-", 4-len(s)) }
	ts := "----------"
	if r.Timestamp != nil {
		ts = strconv.FormatInt(*r.Timestamp, 10)
		ts = strings.Repeat(" ", max(0, 10-len(ts))) + ts
	}
	cnt := strconv.Itoa(int(r.Counter))
	cnt = strings.Repeat("0", max(0, 3-len(cnt))) + cnt
	head := "--- --- N -"
	if r.Type != "" {
		mode := "N"
		if r.Verbose {
			mode = "V"
		}
		head = r.Type + " " + r.Subtype + " " + mode + " " + strconv.Itoa(int(r.NumArgs))
	}
	payload := r.Payload
	if r.PayloadRaw != nil {
		payload = string(r.PayloadRaw)
	}
	return strconv.FormatInt(r.Index, 10) + " " + time.Unix(0, r.StorageTime).UTC().Format("2006/01/02 15:04:05.000000") +
		" " + ts + " " + cnt + " " + id(r.ECU) + " " + id(r.APID) + " " + id(r.CTID) + " " + head + " [" + payload + "]"
}

// TestDLTMessagesEqualDLTConvert: every dlt_messages row, its columns
// laid out as dlt-convert -a prints a message, is the tool's line for
// that message (testdata/*.ascii.txt, TZ=UTC dlt-convert -a), and the
// verbose arguments joined by spaces are the payload.
func TestDLTMessagesEqualDLTConvert(t *testing.T) {
	for _, name := range []string{"kpi-odd", "excerpt-irq-strtok-race"} {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile("testdata/" + name + ".ascii.txt")
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
			rows := readTable[DLTMessage](t, exportDLT(t, name), TableDLTMessages)
			if len(rows) != len(want) {
				t.Fatalf("%d rows, dlt-convert prints %d lines", len(rows), len(want))
			}
			for i := range rows {
				r := &rows[i]
				if !convertLine.MatchString(want[r.Index]) {
					t.Fatalf("dlt-convert line %q does not parse", want[r.Index])
				}
				if got := lineOf(r); got != want[r.Index] {
					t.Errorf("row %d:\n got %q\nwant %q", r.Index, got, want[r.Index])
				}
				if r.Verbose && strings.Join(r.Args, " ") != r.Payload && r.PayloadRaw == nil {
					t.Errorf("row %d: args %q, payload %q", r.Index, r.Args, r.Payload)
				}
			}
		})
	}
}
