package eventdefs

import (
	"strings"

	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/ltt"
)

// ParseError is the error returned for malformed descriptions: Field
// names what was expected, Offset is the byte offset in the input.
type ParseError = wire.Error

// Kinds of parse failure, matched with errors.Is.
var (
	// ErrSyntax: a token that the dialect does not allow there.
	ErrSyntax = wire.ErrSyntax
	// errUndefined: a typeref to a name no <type> defines.
	errUndefined = wire.NewKind("eventdefs_undefined", "undefined type name")
	// errCycle: named types that contain themselves.
	errCycle = wire.NewKind("eventdefs_cycle", "recursive type")
	// ErrLimit: an input or a type expansion over its limit (internal/wire's).
	ErrLimit = wire.ErrLimit
	// errDepth: nesting deeper than Options.MaxDepth.
	errDepth = wire.NewKind("eventdefs_depth", "nesting too deep")
	// errAttribute ("eventdefs_attribute"): an unknown, missing or
	// malformed attribute. Unexported, as no caller branches on it.
	errAttribute = wire.NewKind("eventdefs_attribute", "bad attribute")
)

// Options bound what a description may cost to parse and to use. Each
// zero field means its own default.
type Options struct {
	// MaxDepth bounds the nesting of type elements, which the recursive
	// parser follows (default 32, also the most ltt.NewDecoder accepts).
	MaxDepth int
	// MaxNodes bounds the size of a type once its typerefs are expanded
	// (default 65536): named types can reference each other so that the
	// expansion, which the checksum and the reader walk, grows
	// exponentially with the file.
	MaxNodes int
	// MaxBytes bounds the input (default 1 MiB; core.xml is 9.6 KB).
	MaxBytes int
}

// Defaults of [Options].
const (
	DefaultMaxDepth = 32
	DefaultMaxNodes = 1 << 16
	DefaultMaxBytes = 1 << 20
)

func (l Options) withDefaults() Options {
	l.MaxDepth = wire.Default(l.MaxDepth, DefaultMaxDepth)
	l.MaxNodes = wire.Default(l.MaxNodes, DefaultMaxNodes)
	l.MaxBytes = wire.Default(l.MaxBytes, DefaultMaxBytes)
	return l
}

func errAt(field string, off int, kind error) error {
	return wire.NewError("eventdefs", field, off, kind)
}

// limitAt is errAt for a value over its limit.
func limitAt(field string, off int, kind error, value, limit int) error {
	return wire.NewValueError("eventdefs", field, off, kind, int64(value), int64(limit))
}

// parser holds one file's state: named types are shared by every
// facility of the file and may be referenced before their definition.
type parser struct {
	lx    lexer
	named map[string]*namedType
	lim   Options
}

type namedType struct {
	t       *ltt.Type
	defined bool
	ref     int // offset of the first reference, for errors
}

// Parse reads every facility of one eventdefs file under o (the zero
// Options are the defaults). Events keep document order (their index is
// their id offset); typerefs are expanded, so each names the same
// *ltt.Type as its <type> definition. It fails with a *ParseError
// wrapping one of the Err* kinds; exceeding a limit is the kind "eventdefs_depth" or
// [ErrLimit] (MaxBytes at offset 0, MaxNodes), with the value and the
// limit.
func Parse(src []byte, o Options) ([]*ltt.Facility, error) {
	lim := o.withDefaults()
	if len(src) > lim.MaxBytes {
		return nil, limitAt("input", 0, ErrLimit, len(src), lim.MaxBytes)
	}
	p := &parser{lx: lexer{src: string(src)}, named: map[string]*namedType{}, lim: lim}
	var out []*ltt.Facility
	for p.lx.peek().kind != tokEOF {
		f, err := p.facility()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	for name, n := range p.named {
		if !n.defined {
			return nil, errAt("typeref "+name, n.ref, errUndefined)
		}
	}
	memo := map[*ltt.Type]int{}
	for _, f := range out {
		for _, e := range f.Events {
			if _, err := expandedSize(e.Type, memo, p.lim.MaxNodes); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// expandedSize counts the nodes of t's expansion, memoised per named
// type; a type met again while it is being counted is a cycle.
func expandedSize(t *ltt.Type, memo map[*ltt.Type]int, maxNodes int) (int, error) {
	if t == nil {
		return 0, nil
	}
	if n, ok := memo[t]; ok {
		if n < 0 {
			return 0, errAt("type", 0, errCycle)
		}
		return n, nil
	}
	memo[t] = -1
	n := 1
	add := func(u *ltt.Type) error {
		m, err := expandedSize(u, memo, maxNodes)
		if n += m; n > maxNodes {
			return limitAt("type", 0, ErrLimit, n, maxNodes)
		}
		return err
	}
	if err := add(t.Elem); err != nil {
		return 0, err
	}
	for _, f := range t.Fields {
		if err := add(f.Type); err != nil {
			return 0, err
		}
	}
	memo[t] = n
	return n, nil
}

func (p *parser) expect(k tokKind, what string) (token, error) {
	t := p.lx.next()
	if t.kind != k {
		return t, errAt(what, t.off, ErrSyntax)
	}
	return t, nil
}

// keyword reports whether t is the name kw, ignoring case as LTTV did
// from 2005.
func keyword(t token, kw string) bool { return t.kind == tokName && strings.EqualFold(t.text, kw) }

// open consumes '<' kw.
func (p *parser) open(kw string) error {
	if _, err := p.expect(tokLT, "<"+kw); err != nil {
		return err
	}
	t := p.lx.next()
	if !keyword(t, kw) {
		return errAt("<"+kw, t.off, ErrSyntax)
	}
	return nil
}

// closeTag consumes '<' '/' kw '>'.
func (p *parser) closeTag(kw string) error {
	for _, k := range []tokKind{tokLT, tokSlash} {
		if _, err := p.expect(k, "</"+kw+">"); err != nil {
			return err
		}
	}
	t := p.lx.next()
	if !keyword(t, kw) {
		return errAt("</"+kw+">", t.off, ErrSyntax)
	}
	_, err := p.expect(tokGT, "</"+kw+">")
	return err
}

// attr is one attribute; value keeps quoted text without its quotes.
type attr struct {
	name, value string
	quoted      bool
	off         int
}

// attrs reads attributes up to '>' or '/>' and reports which ended the tag.
func (p *parser) attrs(buf []attr) ([]attr, bool, error) {
	for {
		t := p.lx.next()
		switch t.kind {
		case tokGT:
			return buf, false, nil
		case tokSlash:
			_, err := p.expect(tokGT, "/>")
			return buf, true, err
		case tokName:
			if _, err := p.expect(tokEq, t.text+"="); err != nil {
				return nil, false, err
			}
			v := p.lx.next()
			if v.kind != tokName && v.kind != tokNumber && v.kind != tokString {
				return nil, false, errAt(t.text, v.off, errAttribute)
			}
			buf = append(buf, attr{name: t.text, value: v.text, quoted: v.kind == tokString, off: v.off})
		default:
			return nil, false, errAt("attribute", t.off, ErrSyntax)
		}
	}
}

// nameAttr reads `name=X>` and returns X; the tag must not self-close.
func (p *parser) nameAttr(elem string) (string, int, error) {
	as, closed, err := p.attrs(nil)
	if err != nil {
		return "", 0, err
	}
	off := p.lx.off
	if closed || len(as) != 1 || !strings.EqualFold(as[0].name, "name") {
		return "", off, errAt(elem+" name", off, errAttribute)
	}
	return as[0].value, as[0].off, nil
}

// isNext reports whether the next tokens are '<' kw (or '<' '/' when kw
// is "/").
func (p *parser) isNext(kw string) bool {
	save := p.lx.off
	defer func() { p.lx.off = save }()
	if p.lx.next().kind != tokLT {
		return false
	}
	t := p.lx.next()
	if kw == "/" {
		return t.kind == tokSlash
	}
	return keyword(t, kw)
}

// description reads an optional <description>text</description> and
// reports whether it was there.
func (p *parser) description() (string, bool, error) {
	if !p.isNext("description") {
		return "", false, nil
	}
	if err := p.open("description"); err != nil {
		return "", false, err
	}
	if _, err := p.expect(tokGT, "<description>"); err != nil {
		return "", false, err
	}
	text := strings.TrimSpace(p.lx.text())
	return text, true, p.closeTag("description")
}

func (p *parser) facility() (*ltt.Facility, error) {
	if err := p.open("facility"); err != nil {
		return nil, err
	}
	name, _, err := p.nameAttr("facility")
	if err != nil {
		return nil, err
	}
	f := &ltt.Facility{Name: name}
	if f.Description, _, err = p.description(); err != nil {
		return nil, err
	}
	for !p.isNext("/") {
		switch {
		case p.isNext("event"):
			e, err := p.event()
			if err != nil {
				return nil, err
			}
			f.Events = append(f.Events, e)
		case p.isNext("type"):
			if err := p.namedDef(); err != nil {
				return nil, err
			}
		default:
			t := p.lx.peek()
			return nil, errAt("<event> or <type>", t.off, ErrSyntax)
		}
	}
	return f, p.closeTag("facility")
}

func (p *parser) event() (ltt.EventDef, error) {
	var e ltt.EventDef
	if err := p.open("event"); err != nil {
		return e, err
	}
	name, off, err := p.nameAttr("event")
	if err != nil {
		return e, err
	}
	e.Name = name
	var hasDesc bool
	if e.Description, hasDesc, err = p.description(); err != nil {
		return e, err
	}
	switch {
	case p.isNext("struct"):
		e.Type, err = p.typ(0)
	case p.isNext("typeref"):
		e.Type, err = p.typ(0)
	case !hasDesc:
		// LTTV refused an event with neither payload nor description.
		return e, errAt("event "+name, off, ErrSyntax)
	}
	if err != nil {
		return e, err
	}
	return e, p.closeTag("event")
}

func (p *parser) namedDef() error {
	if err := p.open("type"); err != nil {
		return err
	}
	name, off, err := p.nameAttr("type")
	if err != nil {
		return err
	}
	if _, _, err := p.description(); err != nil {
		return err
	}
	if !p.isNext("struct") {
		return errAt("type "+name+" must be a struct", p.lx.off, ErrSyntax)
	}
	t, err := p.typ(0)
	if err != nil {
		return err
	}
	n := p.ref(name, off)
	if n.defined {
		return errAt("type "+name+" defined twice", off, ErrSyntax)
	}
	*n.t = *t
	n.defined = true
	return p.closeTag("type")
}

// ref returns the shared entry for a named type, creating a placeholder
// that the definition fills in later.
func (p *parser) ref(name string, off int) *namedType {
	n := p.named[name]
	if n == nil {
		n = &namedType{t: &ltt.Type{}, ref: off}
		p.named[name] = n
	}
	return n
}

var sizeCodes = map[string]ltt.SizeCode{
	"1": ltt.Size1, "2": ltt.Size2, "4": ltt.Size4, "8": ltt.Size8,
	"short": ltt.SizeShort, "medium": ltt.SizeMedium, "long": ltt.SizeLong,
}

var kinds = map[string]ltt.Kind{
	"int": ltt.KindInt, "uint": ltt.KindUint, "float": ltt.KindFloat, "string": ltt.KindString,
	"enum": ltt.KindEnum, "array": ltt.KindArray, "sequence": ltt.KindSequence,
	"struct": ltt.KindStruct, "union": ltt.KindUnion,
}

// typ parses one type element.
func (p *parser) typ(depth int) (*ltt.Type, error) {
	if depth > p.lim.MaxDepth {
		return nil, limitAt("type", p.lx.off, errDepth, depth, p.lim.MaxDepth)
	}
	if _, err := p.expect(tokLT, "type element"); err != nil {
		return nil, err
	}
	kw := p.lx.next()
	if kw.kind != tokName {
		return nil, errAt("type element", kw.off, ErrSyntax)
	}
	word := strings.ToLower(kw.text)
	as, closed, err := p.attrs(nil)
	if err != nil {
		return nil, err
	}
	if word == "typeref" {
		if !closed || len(as) != 1 || !strings.EqualFold(as[0].name, "name") {
			return nil, errAt("typeref name", kw.off, errAttribute)
		}
		return p.ref(as[0].value, as[0].off).t, nil
	}
	kind, ok := kinds[word]
	if !ok {
		return nil, errAt("type element", kw.off, ErrSyntax)
	}
	t := &ltt.Type{Kind: kind}
	// Attributes are positional: the size comes first whatever its name,
	// then an optional quoted format.
	needSize := kind != ltt.KindString && kind != ltt.KindStruct
	if needSize {
		if len(as) == 0 {
			return nil, errAt(word+" size", kw.off, errAttribute)
		}
		a := as[0]
		as = as[1:]
		if kind == ltt.KindArray {
			n, ok := parseCount(a.value)
			if !ok {
				return nil, errAt("array size", a.off, errAttribute)
			}
			t.Count = n
		} else if t.Size, ok = sizeCodes[strings.ToLower(a.value)]; !ok {
			return nil, errAt(word+" size", a.off, errAttribute)
		}
	}
	if len(as) > 0 && strings.EqualFold(as[0].name, "format") && as[0].quoted {
		t.Format = as[0].value
		as = as[1:]
	}
	if len(as) > 0 {
		return nil, errAt(word+" attribute", as[0].off, errAttribute)
	}
	leaf := kind == ltt.KindInt || kind == ltt.KindUint || kind == ltt.KindFloat || kind == ltt.KindString
	if leaf {
		if !closed {
			return nil, errAt(word+" must be empty", kw.off, ErrSyntax)
		}
		return t, nil
	}
	if closed {
		if kind == ltt.KindStruct {
			return t, nil
		}
		return nil, errAt(word+" content", kw.off, ErrSyntax)
	}
	switch kind {
	case ltt.KindEnum:
		for p.isNext("label") {
			l, err := p.label()
			if err != nil {
				return nil, err
			}
			t.Labels = append(t.Labels, l)
		}
	case ltt.KindArray, ltt.KindSequence:
		if t.Elem, err = p.typ(depth + 1); err != nil {
			return nil, err
		}
	case ltt.KindStruct, ltt.KindUnion:
		for p.isNext("field") {
			f, err := p.field(depth)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, f)
		}
	}
	return t, p.closeTag(kw.text)
}

func parseCount(s string) (uint32, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
	}
	return uint32(n), n <= 0xffffffff
}

func (p *parser) label() (ltt.Label, error) {
	var l ltt.Label
	if err := p.open("label"); err != nil {
		return l, err
	}
	as, closed, err := p.attrs(nil)
	if err != nil {
		return l, err
	}
	if !closed || len(as) == 0 || len(as) > 2 || !strings.EqualFold(as[0].name, "name") ||
		len(as) == 2 && !strings.EqualFold(as[1].name, "value") {
		return l, errAt("label", p.lx.off, errAttribute)
	}
	l.Name = as[0].value
	if len(as) == 2 {
		l.Value = as[1].value
	}
	return l, nil
}

func (p *parser) field(depth int) (ltt.Field, error) {
	var f ltt.Field
	if err := p.open("field"); err != nil {
		return f, err
	}
	name, _, err := p.nameAttr("field")
	if err != nil {
		return f, err
	}
	f.Name = name
	if _, _, err := p.description(); err != nil {
		return f, err
	}
	if f.Type, err = p.typ(depth + 1); err != nil {
		return f, err
	}
	return f, p.closeTag("field")
}
