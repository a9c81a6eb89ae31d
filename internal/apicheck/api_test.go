package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// formats are the format packages docs/api.md's vocabulary holds in,
// relative to the module root.
var formats = []string{
	"pcp", "pduwire", "pmapi", "archive", "labels", "eventrec",
	"mmv", "mmv/mmvfile", "dlt", "dltkpi", "ltt", "ltt/eventdefs", "ltt/tracedir",
}

// pkg is the exported surface of one package, from its non-test sources.
type pkg struct {
	dir     string
	types   map[string]*ast.TypeSpec // non-deprecated exported types
	methods map[string][]*ast.FuncDecl
	funcs   []*ast.FuncDecl // exported functions
	errs    []string        // exported, non-deprecated Err* variables
	fields  []field         // exported, non-deprecated struct fields
}

// field is an exported struct field: its type's and its own name.
type field struct {
	owner, name string
	typ         ast.Expr
}

func deprecated(doc *ast.CommentGroup) bool {
	return doc != nil && strings.Contains(doc.Text(), "Deprecated:")
}

func load(t *testing.T, dir string) *pkg {
	t.Helper()
	p := &pkg{dir: dir, types: map[string]*ast.TypeSpec{}, methods: map[string][]*ast.FuncDecl{}}
	files, err := filepath.Glob(filepath.Join("../..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || deprecated(d.Doc) {
					continue
				}
				if d.Recv == nil {
					p.funcs = append(p.funcs, d)
					continue
				}
				p.methods[recvName(d.Recv.List[0].Type)] = append(p.methods[recvName(d.Recv.List[0].Type)], d)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						if s.Name.IsExported() && !deprecated(doc) {
							p.types[s.Name.Name] = s
							p.addFields(s)
						}
					case *ast.ValueSpec:
						if d.Tok != token.VAR {
							continue
						}
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						for _, n := range s.Names {
							if n.IsExported() && strings.HasPrefix(n.Name, "Err") && !deprecated(doc) {
								p.errs = append(p.errs, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return p
}

// addFields records s's exported, non-deprecated fields when s is a struct.
func (p *pkg) addFields(s *ast.TypeSpec) {
	st, ok := s.Type.(*ast.StructType)
	if !ok {
		return
	}
	for _, f := range st.Fields.List {
		if deprecated(f.Doc) {
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				p.fields = append(p.fields, field{s.Name.Name, n.Name, f.Type})
			}
		}
	}
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvName(x.X)
	}
	return ""
}

// isNamed reports whether e is name or *name.
func isNamed(e ast.Expr, name string) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isIOReader(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "io" && s.Sel.Name == "Reader"
}

func sig(d *ast.FuncDecl) (params, results []ast.Expr) {
	for _, f := range d.Type.Params.List {
		for range max(1, len(f.Names)) {
			params = append(params, f.Type)
		}
	}
	if d.Type.Results != nil {
		for _, f := range d.Type.Results.List {
			for range max(1, len(f.Names)) {
				results = append(results, f.Type)
			}
		}
	}
	return params, results
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func loadAll(t *testing.T) []*pkg {
	var ps []*pkg
	for _, dir := range formats {
		ps = append(ps, load(t, dir))
	}
	return ps
}

// TestNoConfig: options are called Options in every package; no
// exported type is a Config.
func TestNoConfig(t *testing.T) {
	for _, p := range loadAll(t) {
		for name := range p.types {
			if name == "Config" || strings.HasSuffix(name, "Config") {
				t.Errorf("%s.%s: options are named Options (docs/api.md rule 4)", p.dir, name)
			}
		}
	}
}

// TestOptionsNamed: the struct a package's constructors take is Options;
// no second options type beside it.
func TestOptionsNamed(t *testing.T) {
	for _, p := range loadAll(t) {
		for name, s := range p.types {
			if _, ok := s.Type.(*ast.StructType); !ok {
				continue
			}
			if name != "Options" && (strings.HasSuffix(name, "Options") || strings.HasSuffix(name, "Opts")) {
				t.Errorf("%s.%s: one options struct per package, named Options (docs/api.md rule 4)", p.dir, name)
			}
		}
	}
}

// TestReadersReadIOReaders: a type named ...Reader has a constructor
// that takes an io.Reader; one over bytes is a Scanner or a view.
func TestReadersReadIOReaders(t *testing.T) {
	for _, p := range loadAll(t) {
		for name := range p.types {
			if !strings.HasSuffix(name, "Reader") {
				continue
			}
			ok := false
			for _, f := range p.funcs {
				params, results := sig(f)
				returns := false
				for _, r := range results {
					returns = returns || isNamed(r, name)
				}
				for _, a := range params {
					ok = ok || returns && isIOReader(a)
				}
			}
			if !ok {
				t.Errorf("%s.%s: no constructor takes an io.Reader; a walker over bytes is a Scanner (docs/api.md rule 3)", p.dir, name)
			}
		}
	}
}

// isReader reports whether e is an io.Reader or p's own ...Reader type,
// which TestReadersReadIOReaders holds to an io.Reader source.
func (p *pkg) isReader(e ast.Expr) bool {
	if isIOReader(e) {
		return true
	}
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, ok := e.(*ast.Ident)
	return ok && strings.HasSuffix(id.Name, "Reader") && p.types[id.Name] != nil
}

// TestReaderNames: a function, method or struct field named ...Reader
// takes or is a Reader over an io.Reader; a File, a view or a Scanner
// over bytes is not called a Reader (docs/api.md's vocabulary).
func TestReaderNames(t *testing.T) {
	for _, p := range loadAll(t) {
		check := func(what string, params, results []ast.Expr) {
			ok := false
			for _, e := range append(params, results...) {
				ok = ok || p.isReader(e)
			}
			if !ok {
				t.Errorf("%s.%s: named Reader but neither takes nor gives an io.Reader walk; name it for what it is (File, view, Scanner)", p.dir, what)
			}
		}
		for _, f := range p.funcs {
			if strings.HasSuffix(f.Name.Name, "Reader") {
				params, results := sig(f)
				check(f.Name.Name, params, results)
			}
		}
		for recv, ms := range p.methods {
			for _, m := range ms {
				if strings.HasSuffix(m.Name.Name, "Reader") {
					params, results := sig(m)
					check(recv+"."+m.Name.Name, params, results)
				}
			}
		}
		for _, f := range p.fields {
			if strings.HasSuffix(f.name, "Reader") {
				check(f.owner+"."+f.name, nil, []ast.Expr{f.typ})
			}
		}
	}
}

// noErr are the scanners without an Err method, and why none is needed.
var noErr = map[string]string{
	"pduwire.ValueSetScanner": "walks a Result that ParseResult validated whole: it cannot fail",
	"eventrec.ParamScanner":   "walks a Record that Parse validated whole: it cannot fail",
	"dltkpi.DatasetScanner":   "a malformed dataset is reported with it by Dataset() and the walk goes on to the next",
}

// TestScannersShape: every ...Scanner has Next() bool and Err() error.
func TestScannersShape(t *testing.T) {
	for _, p := range loadAll(t) {
		for name := range p.types {
			if !strings.HasSuffix(name, "Scanner") {
				continue
			}
			if _, ok := noErr[p.dir+"."+name]; ok {
				continue
			}
			var next, err bool
			for _, m := range p.methods[name] {
				params, results := sig(m)
				switch m.Name.Name {
				case "Next":
					next = len(params) == 0 && len(results) == 1 && isIdent(results[0], "bool")
				case "Err":
					err = len(params) == 0 && len(results) == 1 && isIdent(results[0], "error")
				}
			}
			if !next || !err {
				t.Errorf("%s.%s: a Scanner has Next() bool and Err() error (docs/api.md rule 3): Next %v, Err %v", p.dir, name, next, err)
			}
		}
	}
}

// shared are the kinds of internal/wire every format package re-exports
// as aliases (docs/api.md rule 6): always allowed.
var shared = map[string]bool{
	"ErrTruncated": true, "ErrLimit": true, "ErrLength": true, "ErrCount": true,
	"ErrTrailing": true, "ErrMagic": true, "ErrVersion": true, "ErrType": true,
	"ErrRange": true, "ErrField": true, "ErrSyntax": true,
}

// own lists, for each package, the exported Err* values of its own and
// why each is exported: a caller branches on it (docs/api.md rule 6).
// A kind no caller branches on is unexported and told apart by its
// Code. Adding one here means saying who branches.
var own = map[string]map[string]string{
	"pcp":     {},
	"pduwire": {},
	"pmapi": {
		"ErrClosed":   "a caller stops using a closed client",
		"ErrProtocol": "a caller drops a connection whose server sent a bad PDU",
	},
	"archive": {
		"ErrEOL":        "pcp.ErrEOL: PMAPI callers end their fetch loop on it",
		"ErrNoFile":     "an archive without a volume or index is told from a damaged one",
		"ErrCompressed": "the caller decompresses and opens again",
		"ErrWriterDone": "a Writer's caller tells use after Finish from an I/O error",
	},
	"labels": {
		"ErrName":      "the package's examples branch on it",
		"ErrDuplicate": "the package's examples branch on it",
	},
	"eventrec": {
		"ErrBuild": "builder misuse, not bad input: a programming error the caller fixes",
	},
	"mmv": {
		"ErrGeneration":  "the writer is mid-layout: read again later",
		"ErrTooLong":     "a publisher shortens the text",
		"ErrNoSuchEntry": "a lookup missed",
	},
	"mmv/mmvfile": {
		"ErrNoDir":       "no MMV directory means no files, not a failure",
		"ErrProcessGone": "a dead writer's file is skipped, as pmdammv does",
	},
	"dlt": {
		"ErrNotVerbose": "a non-verbose message is skipped, not damage",
	},
	"dltkpi": {
		"ErrNotKPI": "returned bare: the Selector's caller skips the message",
	},
	"ltt": {
		"ErrBlockStart": "the CLI retries another LTT version on a bad block start",
		"ErrBlockEnd":   "the CLI retries another LTT version on a bad block end",
		"ErrFacility":   "tracedir wraps it for a facility that does not load",
	},
	"ltt/eventdefs": {},
	"ltt/tracedir":  {},
}

// TestSentinels: every exported Err* value is a shared kind or one of the
// package's listed own kinds; the allowance per package is its list.
func TestSentinels(t *testing.T) {
	for _, p := range loadAll(t) {
		allowed, ok := own[p.dir]
		if !ok {
			t.Errorf("%s: no allowance listed", p.dir)
			continue
		}
		n := 0
		for _, e := range p.errs {
			if shared[e] {
				continue
			}
			n++
			if _, ok := allowed[e]; !ok {
				t.Errorf("%s.%s: exported, but no caller that branches on it is listed; unexport it (its Code still names it)", p.dir, e)
			}
		}
		if n > len(allowed) {
			t.Errorf("%s: %d own sentinels, allowance %d", p.dir, n, len(allowed))
		}
	}
}
