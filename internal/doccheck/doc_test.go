package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedHaveDocs parses every non-test Go file of the module (not
// the bench and fuzz/diff modules, not generated code) and reports each
// exported function, method, type, constant and variable without a doc
// comment; a constant or variable in a documented group counts as
// documented, as godoc shows the group's comment.
func TestExportedHaveDocs(t *testing.T) {
	root := "../.."
	var missing []string
	err := walkFiles(root, func(path, rel string, d fs.DirEntry) error {
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) || f.Name.Name == "main" {
			return nil
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil && receiverExported(d) {
					missing = append(missing, rel+": func "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
							missing = append(missing, rel+": type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
								missing = append(missing, rel+": "+n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("no doc comment: %s", m)
	}
}

// receiverExported reports whether a function is a plain function or a
// method of an exported type (methods of unexported types are not in the
// godoc).
func receiverExported(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// skipDir is the WalkDir verdict on a directory of the module: the bench
// and fuzz/diff modules, hidden directories, test data, node_modules and
// the viewer's build output are not the main module's code.
func skipDir(rel string, d fs.DirEntry) error {
	switch rel {
	case "bench", "fuzz/diff", ".git", "viewer/node_modules", "viewer/dist":
		return filepath.SkipDir
	}
	if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
		return filepath.SkipDir
	}
	return nil
}

// walkFiles calls fn for each file of the main module below root (see
// skipDir), with its path relative to root.
func walkFiles(root string, fn func(path, rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			return skipDir(rel, d)
		}
		return fn(path, rel, d)
	})
}
