package doccheck

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueRef finds a comment that cites an issue instead of saying the
// rule: "issue 18", "issue #24", "(#24)".
var issueRef = regexp.MustCompile(`(?i)\bissues? #?[0-9]+|\(#[0-9]+\)|\s#[0-9]{2,}\b`)

// sizeDelta finds a comment that narrates what a change cost or saved
// in bytes ("cost the modules 800 bytes", "saved 3 KB"): the rule it
// implies belongs there, the measurement in the commit message. It
// matches a clause that holds a byte figure, a word of change and a word
// naming the build, in any order.
var sizeDelta = clauses{
	regexp.MustCompile(`\b[0-9][0-9.,]* ?(KB|kB|bytes)\b`),
	regexp.MustCompile(`(?i)\b(cost|costs|saved|saves|saving|added|adds|grew|shrank|more|less|smaller|larger|was|were)\b`),
	regexp.MustCompile(`(?i)\b(wasm|WebAssembly|modules?|plugins?|code)\b`),
}

// clauses matches a comment with a clause (split at '.' followed by a
// space, or ';') that every one of its patterns matches.
type clauses []*regexp.Regexp

func (cs clauses) MatchString(c string) bool {
	for _, cl := range regexp.MustCompile(`\.\s|;|\.$`).Split(c, -1) {
		all := true
		for _, re := range cs {
			all = all && re.MatchString(cl)
		}
		if all {
			return true
		}
	}
	return false
}

// TestCommentsSayTheRule reads the comments of the module's Go files (not
// generated code), its JavaScript, its shell scripts and the Makefile,
// and reports each line that cites an issue number or a byte-count
// delta; in the bench module, whose figures are its subject, each line
// that cites an issue.
func TestCommentsSayTheRule(t *testing.T) {
	root := "../.."
	err := walkFiles(root, func(path, rel string, d fs.DirEntry) error {
		var marker string
		switch {
		case strings.HasSuffix(path, ".go"), strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".mjs"):
			marker = "//"
		case strings.HasSuffix(path, ".sh"), d.Name() == "Makefile":
			marker = "#"
		default:
			return nil
		}
		if rel == "wasm/size/main.go" || rel == "internal/doccheck/history_test.go" {
			return nil // the size lessons with their measurements; this test's examples
		}
		return checkComments(t, path, rel, marker, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	bench, err := filepath.Glob(filepath.Join(root, "bench", "*.go"))
	if err != nil || len(bench) == 0 {
		t.Fatalf("bench: no Go files (%v)", err)
	}
	for _, path := range bench {
		rel, _ := filepath.Rel(root, path)
		if err := checkComments(t, path, rel, "//", false); err != nil {
			t.Fatal(err)
		}
	}
}

// checkComments reports the lines of path whose comment, after marker,
// cites an issue or, with deltas, narrates a byte-count delta.
func checkComments(t *testing.T, path, rel, marker string, deltas bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n < 5 && strings.HasPrefix(line, "// Code generated") {
			return nil
		}
		i := strings.Index(line, marker)
		if i < 0 || marker == "#" && i > 0 && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		c := line[i:]
		if issueRef.MatchString(c) {
			t.Errorf("%s:%d: a comment cites an issue; say the rule instead: %s", rel, n, strings.TrimSpace(c))
		}
		if deltas && sizeDelta.MatchString(c) {
			t.Errorf("%s:%d: a comment narrates a byte-count delta; say the rule (\"module size; see wasm/size\"): %s", rel, n, strings.TrimSpace(c))
		}
	}
	return sc.Err()
}

// The patterns find what they are for and leave facts alone.
func TestHistoryPatterns(t *testing.T) {
	for _, tc := range []struct {
		line         string
		issue, delta bool
	}{
		{"// Every failure goes to one fail call (issue 18).", true, false},
		{"# shared pmapi.Client: issue #24.", true, false},
		{"// here, which cost the WebAssembly modules some 800 bytes with its tables", false, true},
		{"// inlined into its callers it cost the wasm plugins 3 KB.", false, true},
		{"// a map literal's code was 1 KB more.", false, true},
		{"// Kept out of line: module size; see wasm/size.", false, false},
		{"// docs/pcp-pdu.md §8.1, item 11: duplicate block references.", false, false},
		{"// It fails with [ErrLimit] when s has 65535 bytes or more.", false, false},
		{"// A PDU of the default client limit (64 MiB) arriving 64 KiB at a time", false, false},
	} {
		if got := issueRef.MatchString(tc.line); got != tc.issue {
			t.Errorf("issueRef(%q) = %v, want %v", tc.line, got, tc.issue)
		}
		if got := sizeDelta.MatchString(tc.line); got != tc.delta {
			t.Errorf("sizeDelta(%q) = %v, want %v", tc.line, got, tc.delta)
		}
	}
}
