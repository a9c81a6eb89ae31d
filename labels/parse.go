package labels

import "github.com/perfwire/perfwire/internal/wire"

// Parse parses text, one JSON object, into dst and builds its sorted
// index. Nested maps become labels with dotted names flagged Compound
// (an empty map is a label whose value is {}), flat arrays are values
// with their white space removed, and every other value is kept verbatim.
// Unless o.KeepOrder is set the JSON written is the sorted canonical form
// that libpcp produces after a merge.
//
// dst's buffers are reused: parsing into a Set that has held a set of the
// same size allocates nothing. text must not share memory with dst's own
// buffers (parse dst.JSON into another Set). The zero Options give the
// defaults.
//
// Parse fails with a *[ParseError] whose offset points into text and
// whose kind is [ErrSyntax], [ErrTruncated], [ErrName], [ErrDuplicate],
// [ErrLimit] (with the value and the limit), kind "labels_value" or
// kind "labels_depth". On failure dst holds no labels.
func Parse(dst *Set, text []byte, o Options) error {
	p := parser{in: text, o: o, lim: o.Limits.resolve(), s: dst}
	dst.ownJSON()
	dst.JSON = dst.JSON[:0]
	dst.Index = dst.Index[:0]
	dst.src = dst.src[:0]
	dst.path = dst.path[:0]
	err := p.parse()
	if err == nil {
		err = dst.finish(o.KeepOrder, "name")
	}
	if err != nil {
		dst.Reset()
	}
	return err
}

// parser is the state of one Parse call: a strict recursive-descent
// scanner for the JSON subset labels use, writing the compact text into
// s.JSON in input order as it goes.
type parser struct {
	in      []byte
	pos     int
	o       Options
	lim     Limits
	s       *Set
	keys    int // keys seen at the top level
	skipped int // top-level keys dropped by SkipInvalidKeys
}

func (p *parser) parse() error {
	if len(p.in) > p.lim.MaxJSONLen {
		return limitAt("object", p.lim.MaxJSONLen, len(p.in), p.lim.MaxJSONLen)
	}
	p.ws()
	if err := p.expect('{', "object"); err != nil {
		return err
	}
	p.s.JSON = append(p.s.JSON, '{')
	if err := p.members(1, true); err != nil {
		return err
	}
	p.ws()
	if p.pos != len(p.in) {
		return errAt("object", p.pos, ErrSyntax)
	}
	if p.keys > 0 && p.skipped == p.keys {
		return errAt("name", 0, ErrName)
	}
	p.s.JSON = append(p.s.JSON, '}')
	return nil
}

// ws skips JSON white space.
func (p *parser) ws() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// fail reports a missing or wrong byte at the current position:
// truncation at the end of the input, a syntax error otherwise.
func (p *parser) fail(field string) error {
	if p.pos >= len(p.in) {
		return errAt(field, len(p.in), ErrTruncated)
	}
	return errAt(field, p.pos, ErrSyntax)
}

// expect consumes byte c or fails.
func (p *parser) expect(c byte, field string) error {
	if p.pos < len(p.in) && p.in[p.pos] == c {
		p.pos++
		return nil
	}
	return p.fail(field)
}

// members parses the members of an object whose '{' has been consumed,
// up to and including its '}'. emit is false while skipping the value of
// a dropped key.
func (p *parser) members(depth int, emit bool) error {
	p.ws()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		p.ws()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return p.fail("name")
		}
		keyStart := p.pos + 1
		end, err := p.str()
		if err != nil {
			return err
		}
		key := p.in[keyStart : end-1]
		p.ws()
		if err := p.expect(':', "object"); err != nil {
			return err
		}
		p.ws()
		if depth == 1 {
			p.keys++
		}
		switch {
		case !emit:
			err = p.skip(depth)
		case !validName(key, p.o.Names, p.o.Dotted):
			if !p.o.SkipInvalidKeys {
				return errAt("name", keyStart, ErrName)
			}
			if depth == 1 {
				p.skipped++
			}
			err = p.skip(depth)
		default:
			err = p.value(depth, keyStart, key)
		}
		if err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.in) {
			return errAt("object", p.pos, ErrTruncated)
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return nil
		default:
			return errAt("object", p.pos, ErrSyntax)
		}
	}
}

// value parses the value of key and writes the label (or, for a map, its
// leaves) to the output: `"name":` first, checked against the limits
// before the value is read, then the value, then its index entry. An
// empty map, an array and a scalar share that code: in WebAssembly every
// function and call site costs (module size; see wasm/size).
func (p *parser) value(depth, keyStart int, key []byte) error {
	if p.pos >= len(p.in) {
		return errAt("value", p.pos, ErrTruncated)
	}
	c := p.in[p.pos]
	var flags Flags
	if c == '{' {
		if depth+1 > p.lim.MaxDepth {
			return p.tooDeep(depth + 1)
		}
		p.pos++
		p.ws()
		if p.pos >= len(p.in) || p.in[p.pos] != '}' {
			old := len(p.s.path)
			p.s.path = append(append(p.s.path, key...), '.')
			err := p.members(depth+1, true)
			p.s.path = p.s.path[:old]
			return err
		}
		// An empty map stays a label of its own, value {}.
		p.pos++
		flags = Compound
	}
	s := p.s
	if len(s.Index) >= p.lim.MaxLabels {
		return limitAt("labels", keyStart, len(s.Index)+1, p.lim.MaxLabels)
	}
	n := len(s.path) + len(key)
	if n > p.lim.MaxNameLen {
		return limitAt("name", keyStart, n, p.lim.MaxNameLen)
	}
	// The output in a local while this writes it: each store of s.JSON
	// is a write barrier check.
	json := s.JSON
	if len(s.Index) > 0 {
		json = append(json, ',')
	}
	json = append(json, '"')
	nameOff := len(json)
	json = append(append(json, s.path...), key...)
	json = append(json, '"', ':')
	if len(s.path) > 0 || containsDot(key) {
		flags |= Compound
	}
	valueOff := len(json)
	var err error
	switch c {
	case '{':
		json = append(json, '{', '}')
	case '[':
		if depth+1 > p.lim.MaxDepth {
			return p.tooDeep(depth + 1)
		}
		s.JSON = json
		err = p.array(depth, true)
		json = s.JSON
	default:
		start := p.pos
		if err = p.scalar(); err == nil {
			json = append(json, p.in[start:p.pos]...)
		}
	}
	s.JSON = json
	if err != nil {
		return err
	}
	// +1 leaves room for the closing brace. Until this check the offsets
	// may pass 16 bits; the label is then discarded with the error.
	if len(json)+1 > p.lim.MaxJSONLen {
		return limitAt("object", keyStart, len(json)+1, p.lim.MaxJSONLen)
	}
	s.Index = append(s.Index, Label{
		NameOff:  uint16(nameOff),
		NameLen:  uint8(n),
		Flags:    flags | p.o.Flags,
		ValueOff: uint16(valueOff),
		ValueLen: uint16(len(json) - valueOff),
	})
	s.src = append(s.src, int32(keyStart))
	return nil
}

// tooDeep is the errDepth error for a value at p.pos that would nest to
// depth.
func (p *parser) tooDeep(depth int) error {
	return wire.NewValueError("labels", "value", p.pos, errDepth, int64(depth), int64(p.lim.MaxDepth))
}

func containsDot(b []byte) bool {
	for _, c := range b {
		if c == '.' {
			return true
		}
	}
	return false
}

// array parses the array at p.pos. With emit, it is a label's value:
// flat (errUnsupportedValue for an array or object inside), written
// without white space to the output. Without, it belongs to a key that
// SkipInvalidKeys drops: any values, nested ones too, checked and
// discarded. One loop for both: in WebAssembly every function costs
// (module size; see wasm/size).
func (p *parser) array(depth int, emit bool) error {
	p.pos++ // '['
	p.ws()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		if emit {
			p.s.JSON = append(p.s.JSON, '[', ']')
		}
		return nil
	}
	if emit {
		p.s.JSON = append(p.s.JSON, '[')
	}
	for {
		p.ws()
		start := p.pos
		var err error
		switch {
		case !emit:
			err = p.skip(depth + 1)
		case p.pos >= len(p.in):
			return errAt("array", p.pos, ErrTruncated)
		case p.in[p.pos] == '[' || p.in[p.pos] == '{':
			return errAt("array", p.pos, errUnsupportedValue)
		default:
			err = p.scalar()
		}
		if err != nil {
			return err
		}
		end := p.pos
		p.ws()
		if p.pos >= len(p.in) {
			return errAt("array", p.pos, ErrTruncated)
		}
		c := p.in[p.pos]
		if c != ',' && c != ']' {
			return errAt("array", p.pos, ErrSyntax)
		}
		p.pos++
		if emit {
			// The element and the comma or bracket after it, in one
			// append.
			p.s.JSON = append(append(p.s.JSON, p.in[start:end]...), c)
		}
		if c == ']' {
			return nil
		}
	}
}

// skip validates and discards any JSON value, nested arrays included,
// for a key that SkipInvalidKeys drops.
func (p *parser) skip(depth int) error {
	if p.pos >= len(p.in) {
		return errAt("value", p.pos, ErrTruncated)
	}
	switch p.in[p.pos] {
	case '{':
		if depth+1 > p.lim.MaxDepth {
			return p.tooDeep(depth + 1)
		}
		p.pos++
		return p.members(depth+1, false)
	case '[':
		if depth+1 > p.lim.MaxDepth {
			return p.tooDeep(depth + 1)
		}
		return p.array(depth, false)
	}
	return p.scalar()
}

// scalar consumes a string, number, true, false or null.
func (p *parser) scalar() error {
	if p.pos >= len(p.in) {
		return errAt("value", p.pos, ErrTruncated)
	}
	switch c := p.in[p.pos]; {
	case c == '"':
		_, err := p.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		// A JSON number, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
		// read here, not by a function of its own (module size; see
		// wasm/size).
		if c == '-' {
			p.pos++
		}
		if p.pos < len(p.in) && p.in[p.pos] == '0' {
			p.pos++
		} else if err := p.digits(); err != nil {
			return err
		}
		if p.pos < len(p.in) && p.in[p.pos] == '.' {
			p.pos++
			if err := p.digits(); err != nil {
				return err
			}
		}
		if p.pos < len(p.in) && p.in[p.pos]|0x20 == 'e' {
			p.pos++
			if p.pos < len(p.in) && (p.in[p.pos] == '+' || p.in[p.pos] == '-') {
				p.pos++
			}
			if err := p.digits(); err != nil {
				return err
			}
		}
		return nil
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	}
	return errAt("value", p.pos, ErrSyntax)
}

func (p *parser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.in) {
			return errAt("value", p.pos, ErrTruncated)
		}
		if p.in[p.pos] != word[i] {
			return errAt("value", p.pos, ErrSyntax)
		}
		p.pos++
	}
	return nil
}

// digits consumes one or more decimal digits.
func (p *parser) digits() error {
	start := p.pos
	for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == start {
		return p.fail("number")
	}
	return nil
}

// str consumes a string whose opening quote is at p.pos, validating its
// escapes, and returns the offset just past the closing quote.
func (p *parser) str() (int, error) {
	p.pos++
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return p.pos, nil
		case c < 0x20:
			return 0, errAt("string", p.pos, ErrSyntax)
		case c == '\\':
			p.pos++
			if p.pos >= len(p.in) {
				break
			}
			switch p.in[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for i := 0; i < 4; i++ {
					if p.pos >= len(p.in) {
						return 0, errAt("string", p.pos, ErrTruncated)
					}
					if !isHex(p.in[p.pos]) {
						return 0, errAt("string", p.pos, ErrSyntax)
					}
					p.pos++
				}
			default:
				return 0, errAt("string", p.pos, ErrSyntax)
			}
		default:
			p.pos++
		}
	}
	return 0, errAt("string", len(p.in), ErrTruncated)
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }
