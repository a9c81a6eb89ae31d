package main

import (
	"encoding/binary"
	"errors"
	"strings"
)

// wasmLayout is what a WebAssembly module's bytes are spent on: function
// bodies by Go package (from the "name" section of a build without -s),
// the data section (read-only data, pclntab, type descriptors) and the
// rest (names, imports, exports, tables).
type wasmLayout struct {
	Code, Data, Other int
	Pkg               map[string]int // code bytes by package
}

var errWasm = errors.New("not a WebAssembly module")

// uleb reads an unsigned LEB128 number at the start of b.
func uleb(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errWasm
	}
	return v, b[n:], nil
}

// vec reads a length-prefixed byte vector at the start of b.
func vec(b []byte) ([]byte, []byte, error) {
	n, rest, err := uleb(b)
	if err != nil || n > uint64(len(rest)) {
		return nil, nil, errWasm
	}
	return rest[:n], rest[n:], nil
}

// layoutOf splits module b into code by package, data and the rest.
func layoutOf(b []byte) (wasmLayout, error) {
	l := wasmLayout{Pkg: map[string]int{}}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return l, errWasm
	}
	l.Other = 8
	b = b[8:]
	var imported uint64
	var bodies []int
	names := map[uint64]string{}
	for len(b) > 0 {
		id := b[0]
		body, rest, err := vec(b[1:])
		if err != nil {
			return l, err
		}
		head := len(b) - len(rest) - len(body)
		b = rest
		switch id {
		case 2: // imports: function imports shift the function index space
			if imported, err = countFuncImports(body); err != nil {
				return l, err
			}
			l.Other += head + len(body)
		case 10: // code
			l.Other += head
			n, p, err := uleb(body)
			if err != nil {
				return l, err
			}
			l.Other += len(body) - len(p)
			for range n {
				_, q, err := vec(p)
				if err != nil {
					return l, err
				}
				bodies = append(bodies, len(p)-len(q))
				p = q
			}
		case 11: // data
			l.Data += head + len(body)
		case 0: // custom: "name" maps function indices to Go symbols
			l.Other += head + len(body)
			if err := readFuncNames(body, names); err != nil {
				return l, err
			}
		default:
			l.Other += head + len(body)
		}
	}
	for i, n := range bodies {
		l.Code += n
		l.Pkg[pkgOfSymbol(names[imported+uint64(i)])] += n
	}
	return l, nil
}

// countFuncImports counts the function imports of an import section.
func countFuncImports(p []byte) (uint64, error) {
	n, p, err := uleb(p)
	if err != nil {
		return 0, err
	}
	var funcs uint64
	for range n {
		for range 2 { // module and field names
			if _, p, err = vec(p); err != nil {
				return 0, err
			}
		}
		if len(p) == 0 {
			return 0, errWasm
		}
		kind := p[0]
		p = p[1:]
		switch kind {
		case 0: // function: type index
			funcs++
			if _, p, err = uleb(p); err != nil {
				return 0, err
			}
		default: // Go's modules import only functions
			return 0, errWasm
		}
	}
	return funcs, nil
}

// readFuncNames adds the function names of a "name" custom section to names.
func readFuncNames(body []byte, names map[uint64]string) error {
	name, p, err := vec(body)
	if err != nil || string(name) != "name" {
		return err
	}
	for len(p) > 0 {
		id := p[0]
		sub, rest, err := vec(p[1:])
		if err != nil {
			return err
		}
		p = rest
		if id != 1 { // function names
			continue
		}
		n, q, err := uleb(sub)
		if err != nil {
			return err
		}
		for range n {
			var idx uint64
			var s []byte
			if idx, q, err = uleb(q); err != nil {
				return err
			}
			if s, q, err = vec(q); err != nil {
				return err
			}
			names[idx] = string(s)
		}
	}
	return nil
}

// perfwirePrefix is how the wasm name section spells the module path
// (the linker writes '/' as '_').
const perfwirePrefix = "github.com_perfwire_perfwire_"

// pkgOfSymbol names the package a function belongs to, with perfwire's
// module path cut off. A generic function
// instantiated for a perfwire type (slices' sort for dltkpi's rows) is
// charged to its package "for" that perfwire package, since that is
// where the code would have to change.
func pkgOfSymbol(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	name, pre := sym, ""
	if rest, ok := strings.CutPrefix(name, perfwirePrefix); ok {
		name = rest
	} else if rest, ok := strings.CutPrefix(name, "github.com"); ok {
		name, pre = rest, "github.com"
	}
	pkg := name
	if i := strings.IndexByte(name, '.'); i >= 0 {
		pkg = name[:i]
	}
	if pkg == "type_" { // type:.eq.T and type:.hash.T, compiler-made
		return "type:eq/hash"
	}
	pkg = pre + strings.ReplaceAll(pkg, "_", "/")
	if i := strings.Index(sym, "go.shape"); i >= 0 {
		if j := strings.Index(sym[i:], perfwirePrefix); j >= 0 {
			for_ := sym[i+j+len(perfwirePrefix):]
			if k := strings.IndexByte(for_, '.'); k >= 0 {
				for_ = for_[:k]
			}
			pkg += " (for " + strings.ReplaceAll(for_, "_", "/") + ")"
		} else if strings.HasPrefix(sym[i:], "go.shape.struct") {
			// A struct shape names its fields' types, not its package.
			pkg += " (for struct types)"
		}
	}
	return pkg
}
