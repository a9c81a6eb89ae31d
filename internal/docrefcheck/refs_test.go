package docrefcheck

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// A section number after §: "4", "4.8"; a range's end after "–".
	sectionRE = regexp.MustCompile(`§\s*(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?(\d+(?:\.\d+)*))?`)
	// A file name right before a §, with or without the docs/ prefix (or a
	// Markdown link's target, "[a.md](a.md)", before the section sign).
	citedRE = regexp.MustCompile(`((?:[\w./-]*/)?[\w-]+\.md)\)?\s*\(?$`)
	// "spec" and a section sign with no file name between them.
	bareSpecRE = regexp.MustCompile(`(?i)\bspec\s+§`)
	// A numbered Markdown heading: "## 4. Body layouts", "### 4.8 Value blocks".
	headingRE = regexp.MustCompile(`^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s`)
)

// repoRoot is two levels up from this package.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// headings returns the section numbers of a Markdown file's headings.
func headings(t *testing.T, path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	nums := map[string]bool{}
	s := bufio.NewScanner(f)
	inFence := false
	for s.Scan() {
		line := s.Text()
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil && !inFence {
			nums[m[1]] = true
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return nums
}

// problems lists what is wrong with the § references of one comment's
// text: each must resolve to a docs/ file (named before it in the same
// comment) that has a heading with that number.
// In a line of a file of docs/ (self non-empty), a bare §N before any
// file name is a section of self, and a name without a folder is a
// sibling file.
func problems(text, self string, sections func(doc string) map[string]bool) []string {
	var out []string
	for _, m := range bareSpecRE.FindAllStringIndex(text, -1) {
		out = append(out, "cites "+strings.TrimSpace(text[m[0]:m[1]])+" without naming a docs/ file")
	}
	doc := self
	for _, m := range sectionRE.FindAllStringSubmatchIndex(text, -1) {
		before := text[:m[0]]
		if c := citedRE.FindStringSubmatch(strings.TrimRight(before, " \t\n/")); c != nil {
			doc = c[1]
			if self != "" && !strings.Contains(doc, "/") {
				doc = "docs/" + doc
			}
			if !strings.HasPrefix(doc, "docs/") {
				out = append(out, "cites "+doc+" outside docs/ (write docs/"+filepath.Base(doc)+")")
				doc = ""
				continue
			}
		}
		num := text[m[2]:m[3]]
		if doc == "" {
			out = append(out, "§"+num+" names no docs/ file")
			continue
		}
		nums := sections(doc)
		if nums == nil {
			out = append(out, doc+" does not exist")
			continue
		}
		for _, n := range []string{num, rangeEnd(text, m)} {
			if n != "" && !nums[n] {
				out = append(out, doc+" has no section "+n)
			}
		}
	}
	return out
}

func rangeEnd(text string, m []int) string {
	if m[4] < 0 {
		return ""
	}
	return text[m[4]:m[5]]
}

// TestSectionReferences parses every Go file of the repository and checks
// the § references of its comments against the headings of docs/.
func TestSectionReferences(t *testing.T) {
	root := repoRoot(t)
	cache := map[string]map[string]bool{}
	sections := func(doc string) map[string]bool {
		if nums, ok := cache[doc]; ok {
			return nums
		}
		nums := headings(t, filepath.Join(root, filepath.FromSlash(doc)))
		cache[doc] = nums
		return nums
	}
	files, refs := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, g := range f.Comments {
			var b strings.Builder
			for _, c := range g.List {
				b.WriteString(c.Text)
				b.WriteByte('\n')
			}
			text := b.String()
			refs += strings.Count(text, "§")
			for _, p := range problems(text, "", sections) {
				t.Errorf("%s:%d: %s", rel, fset.Position(g.Pos()).Line, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 || refs < 100 {
		t.Fatalf("walked %d Go files with %d § references: the walk missed the repository", files, refs)
	}
	t.Logf("%d Go files, %d § references", files, refs)
}

// TestDocsCrossReferences checks the § references between the files of
// docs/: a bare §N is a section of the file it is written in.
func TestDocsCrossReferences(t *testing.T) {
	root := repoRoot(t)
	sections := func(doc string) map[string]bool {
		return headings(t, filepath.Join(root, filepath.FromSlash(doc)))
	}
	mds, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(mds) < 8 {
		t.Fatalf("docs/*.md: %d files, %v", len(mds), err)
	}
	for _, path := range mds {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		self := "docs/" + filepath.Base(path)
		for i, line := range strings.Split(string(b), "\n") {
			for _, p := range problems(line, self, sections) {
				t.Errorf("%s:%d: %s", self, i+1, p)
			}
		}
	}
}

// TestProblems pins what the check reports, so that it cannot pass by
// finding nothing.
func TestProblems(t *testing.T) {
	docs := map[string]map[string]bool{"docs/a.md": {"4": true, "4.8": true, "16": true, "17": true}}
	sections := func(doc string) map[string]bool { return docs[doc] }
	for _, c := range []struct {
		text string
		want []string
	}{
		{"// a PDU (docs/a.md §4.8).\n", nil},
		{"// docs/a.md §4 and §4.8, then\n// §16–17.\n", nil},
		{"// (docs/a.md\n// §4.8).\n", nil},
		{"// a PDU (spec §4.8).\n", []string{"cites spec § without naming a docs/ file", "§4.8 names no docs/ file"}},
		{"// a PDU (§4.8).\n", []string{"§4.8 names no docs/ file"}},
		{"// a PDU (a.md §4.8).\n", []string{"cites a.md outside docs/ (write docs/a.md)"}},
		{"// docs/a.md §4.9.\n", []string{"docs/a.md has no section 4.9"}},
		{"// docs/a.md §16–18.\n", []string{"docs/a.md has no section 18"}},
		{"// docs/b.md §1.\n", []string{"docs/b.md does not exist"}},
	} {
		got := problems(c.text, "", sections)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}
