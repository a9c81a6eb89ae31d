package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// isoDate finds a calendar date in a figure text. Go's reference time
// (2006-01-02, a time layout) is not one.
var isoDate = regexp.MustCompile(`\b(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]\b`)

// hexWord finds a word of 7 to 40 hex digits; commitHash keeps those with
// a digit and a letter, as abbreviated commit hashes have and numbers and
// words do not.
var hexWord = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)

func commitHash(s string) string {
	for _, w := range hexWord.FindAllString(s, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
			return w
		}
	}
	return ""
}

// history names what in a figure text belongs to the project's history
// rather than to the figure: a date, a commit, an issue; "" when none.
func history(s string) string {
	for _, d := range isoDate.FindAllString(s, -1) {
		if d != "2006-01-02" {
			return "the date " + d
		}
	}
	if h := commitHash(s); h != "" {
		return "the commit " + h
	}
	if m := issueRef.FindString(s); m != "" {
		return "the issue reference " + strings.TrimSpace(m)
	}
	return ""
}

// figureText is one string constant of the bench module's code: a misses
// entry (where is misses[ID]) or any other literal, concatenations of
// literals folded (where is the file).
type figureText struct {
	where string
	line  int
	text  string
}

// benchTexts parses the bench module's non-test Go files and returns
// their string constants.
func benchTexts(t *testing.T) []figureText {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("../..", "bench", "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("bench: no Go files (%v)", err)
	}
	var texts []figureText
	fset := token.NewFileSet()
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.ValueSpec:
				if len(n.Names) == 1 && n.Names[0].Name == "misses" && len(n.Values) == 1 {
					texts = append(texts, missesTexts(t, fset, n.Values[0])...)
					return false
				}
			case ast.Expr:
				if s, ok := constString(n, false); ok {
					texts = append(texts, figureText{name, fset.Position(n.Pos()).Line, s})
					return false
				}
			}
			return true
		})
	}
	return texts
}

// missesTexts returns the entries of the misses map literal.
func missesTexts(t *testing.T, fset *token.FileSet, e ast.Expr) []figureText {
	t.Helper()
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		t.Fatalf("%s: misses is not a map literal", fset.Position(e.Pos()))
	}
	var texts []figureText
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		key, kok := constString(kv.Key, false)
		text, vok := constString(kv.Value, true)
		if !ok || !kok || !vok {
			t.Fatalf("%s: a misses entry that is not a constant string keyed by a figure id", fset.Position(el.Pos()))
		}
		texts = append(texts, figureText{"misses[" + key + "]", fset.Position(el.Pos()).Line, text})
	}
	if len(texts) == 0 {
		t.Fatal("misses: no entries")
	}
	return texts
}

// constString is the value of a string literal or of a concatenation of
// them. With names, a named constant may stand among the literals and
// adds nothing (a misses entry's: its own text is checked where it is
// declared).
func constString(e ast.Expr, names bool) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		return "", names
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok := constString(e.X, names)
			b, ok2 := constString(e.Y, names)
			return a + b, ok && ok2
		}
	case *ast.ParenExpr:
		return constString(e.X, names)
	}
	return "", false
}

// TestFigureTextsSayTheRule: the texts that bench writes into RESULTS.md
// (the misses entries, the figures' notes, titles and verdicts: every
// string constant of the bench module's code) hold no date, commit hash
// or issue number. A figure text says what the figure measures and the
// rule or cause behind its verdict; its history belongs in commit
// messages.
func TestFigureTextsSayTheRule(t *testing.T) {
	for _, ft := range benchTexts(t) {
		if h := history(ft.text); h != "" {
			t.Errorf("bench %s (line %d): a figure text cites %s; say the measurement and the rule instead", ft.where, ft.line, h)
		}
	}
}

// The history patterns find dates, commits and issues and leave the
// figures' facts alone.
func TestFigureHistoryPatterns(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"On 2026-11-22 the profile showed the time going to copies.", true},
		{"Since 80c1d3b it writes its MessagePack in place.", true},
		{"three harness runs at 26f065d gave 0.30x", true},
		{"as measured for issue 33", true},
		{"prov.date = time.Now().UTC().Format(\"2006-01-02 15:04\")", false},
		{"every value of one fetch, summed as 64-bit words, gives %#x for each", false},
		{"98982 messages, 66674811 bytes", false},
		{"the charts are drawn when scrolled near; a decade of defaced data", false},
		{"pmcd -f -A -U root -p PORT", false},
	} {
		if got := history(tc.text) != ""; got != tc.want {
			t.Errorf("history(%q) = %q, want found %v", tc.text, history(tc.text), tc.want)
		}
	}
}
