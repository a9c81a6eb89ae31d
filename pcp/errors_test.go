package pcp

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// allCodes lists every exported PM_ERR_* constant that PCP 6.0.3 knows.
var allCodes = []Code{
	ErrGeneric, ErrPMNS, ErrNoPMNS, ErrDupPMNS, ErrText, ErrAppVersion, ErrValue, ErrTimeout,
	ErrNoData, ErrReset, ErrName, ErrPMID, ErrInDom, ErrInst, ErrUnit, ErrConv, ErrTrunc, ErrSign,
	ErrProfile, ErrIPC, ErrEOF, ErrNotHost, ErrEOL, ErrMode, ErrLabel, ErrLogRec, ErrNotArchive,
	ErrLogFile, ErrNoContext, ErrProfileSpec, ErrPMIDLog, ErrInDomLog, ErrInstLog, ErrNoProfile,
	ErrNoAgent, ErrPermission, ErrConnLimit, ErrAgain, ErrIsConn, ErrNotConn, ErrNeedPort,
	ErrNonLeaf, ErrType, ErrThread, ErrNoContainer, ErrBadStore, ErrLogOverlap, ErrLogHost,
	ErrLogChangeType, ErrLogChangeSem, ErrLogChangeInDom, ErrLogChangeUnits, ErrNeedClientCert,
	ErrBadDerive, ErrNoLabels, ErrPMDAFenced, ErrRecType, ErrFeature, ErrTLS, ErrBotch,
	ErrTooSmall, ErrTooBig, ErrFault, ErrPMDAReady, ErrPMDANotReady, ErrNYI,
}

// pmerrList parses pmerr -l output: code, name, message per line.
func pmerrList(t testing.TB, text string) map[Code][2]string {
	t.Helper()
	m := make(map[Code][2]string)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.Contains(lines[0], "Symbolic Name") {
		t.Fatalf("pmerr -l heading %q", lines[0])
	}
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		code, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatal(err)
		}
		// The message starts after the name column's padding.
		i := strings.Index(line, f[1]) + len(f[1])
		m[Code(code)] = [2]string{f[1], strings.TrimLeft(line[i:], " ")}
	}
	return m
}

func checkList(t *testing.T, list map[Code][2]string) {
	if len(list) != len(allCodes) {
		t.Errorf("pmerr lists %d codes, we have %d constants", len(list), len(allCodes))
	}
	for _, c := range allCodes {
		want, ok := list[c]
		if !ok {
			t.Errorf("constant %d not listed by pmerr", c)
			continue
		}
		if c.Name() != want[0] || c.Message() != want[1] {
			t.Errorf("%d: Name %q Message %q, pmerr %q %q", c, c.Name(), c.Message(), want[0], want[1])
		}
		if c.String() != want[0] || c.Error() != want[1] {
			t.Errorf("%d: String %q Error %q", c, c.String(), c.Error())
		}
	}
}

func TestCodesPmerrList(t *testing.T) {
	b, err := os.ReadFile("testdata/pmerr-l.txt")
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, pmerrList(t, string(b)))
}

// checkSingle compares "Code: N 0x... Text: message" lines of pmerr.
func checkSingle(t *testing.T, text string) int {
	n := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "Code: ")
		if !ok {
			continue
		}
		num, rest, _ := strings.Cut(rest, " ")
		_, want, ok := strings.Cut(rest, " Text: ")
		if !ok {
			t.Fatalf("pmerr line %q", sc.Text())
		}
		c, err := strconv.Atoi(num)
		if err != nil {
			t.Fatal(err)
		}
		if got := Code(c).Message(); got != want {
			t.Errorf("Code(%d).Message() = %q, pmerr %q", c, got, want)
		}
		n++
	}
	return n
}

func TestCodesPmerrSingle(t *testing.T) {
	b, err := os.ReadFile("testdata/pmerr-codes.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n := checkSingle(t, string(b)); n < 1000 {
		t.Errorf("only %d pmerr lines", n)
	}
}

func TestCodeNameless(t *testing.T) {
	for _, c := range []Code{0, -1, -12, 5, -12352, ErrArg, -21345, -30000} {
		if n := c.Name(); n != "" {
			t.Errorf("Code(%d).Name() = %q, want none", c, n)
		}
		if s := c.String(); s != strconv.Itoa(int(c)) {
			t.Errorf("Code(%d).String() = %q", c, s)
		}
	}
}

func TestCodeIsError(t *testing.T) {
	var err error = Code(-12362) // as decoded from a PDU
	if !errors.Is(err, ErrConv) || errors.Is(err, ErrTrunc) {
		t.Error("errors.Is does not match codes by value")
	}
	wrapped := errors.Join(errors.New("context"), err)
	c, ok := errors.AsType[Code](wrapped)
	if !ok || c != ErrConv {
		t.Errorf("AsType = %d, %v", c, ok)
	}
}

// V1 vectors follow docs/pcp-pdu.md §7.2: base −1000 instead of −12345.
func TestV1(t *testing.T) {
	tests := []struct {
		code Code
		v1   int32
	}{
		{0, 0},
		{-1, -1},
		{-104, -104},
		{ErrGeneric, -1000},
		{ErrPMID, -1013},
		{ErrPermission, -1042},
		{ErrNYI, -9999},
	}
	for _, tt := range tests {
		if got := ToV1(tt.code); got != tt.v1 {
			t.Errorf("ToV1(%d) = %d, want %d", tt.code, got, tt.v1)
		}
		if got := FromV1(tt.v1); got != tt.code {
			t.Errorf("FromV1(%d) = %d, want %d", tt.v1, got, tt.code)
		}
	}
	// Values between the two bases are V1-only territory: −999 stays.
	if FromV1(-999) != -999 || ToV1(-12344) != -12344 {
		t.Error("values outside the rebased ranges must pass unchanged")
	}
	for _, c := range allCodes {
		if FromV1(ToV1(c)) != c {
			t.Errorf("%d does not survive V1", c)
		}
	}
}

func TestMessageAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = ErrPMID.Message(); _ = Code(-2).Message() }); n != 0 {
		t.Errorf("Message of a fixed text allocates %v times", n)
	}
}
