package mmv

// checkLabel checks that p is one JSON object with a single member whose
// name starts with a letter and continues with letters, digits and '_'
// (pmdammv's label name rule), and whose value is valid JSON. It returns
// -1 when p is good, else the byte index where it went wrong.
func checkLabel(p []byte) int {
	if len(p) < 2 || p[0] != '{' || p[1] != '"' {
		return 0
	}
	i := 2
	if i >= len(p) || !isLetter(p[i]) {
		return i
	}
	for i < len(p) && (isLetter(p[i]) || isDigit(p[i]) || p[i] == '_') {
		i++
	}
	if i+1 >= len(p) || p[i] != '"' || p[i+1] != ':' {
		return i
	}
	end, ok := jsonValue(p, i+2, 0)
	if !ok {
		return end
	}
	end = skipSpace(p, end)
	if end != len(p)-1 || p[end] != '}' {
		return end
	}
	return -1
}

// maxJSONDepth bounds nesting in label values; a 243-byte payload cannot
// nest deeper than this anyway.
const maxJSONDepth = 128

// jsonValue parses one JSON value starting at i (no surrounding spaces)
// and returns the index after it, or the failing index and false.
func jsonValue(p []byte, i, depth int) (int, bool) {
	i = skipSpace(p, i)
	if i >= len(p) || depth > maxJSONDepth {
		return i, false
	}
	switch c := p[i]; {
	case c == '"':
		for i++; i < len(p); i++ {
			switch p[i] {
			case '\\':
				// An escape: one of "\\/bfnrt, or u and four hex digits.
				if i+1 >= len(p) {
					return i, false
				}
				switch p[i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				case 'u':
					if i+6 > len(p) {
						return i, false
					}
					for _, c := range p[i+2 : i+6] {
						if !isDigit(c) && (c|0x20 < 'a' || c|0x20 > 'f') {
							return i, false
						}
					}
					i += 4
				default:
					return i, false
				}
				i++
			case '"':
				return i + 1, true
			default:
				if p[i] < 0x20 {
					return i, false
				}
			}
		}
		return i, false
	case c == '{' || c == '[':
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		i = skipSpace(p, i+1)
		if i < len(p) && p[i] == closer {
			return i + 1, true
		}
		for {
			if c == '{' {
				i = skipSpace(p, i)
				j, ok := jsonValue(p, i, depth+1)
				j = skipSpace(p, j)
				if !ok || j >= len(p) || p[i] != '"' || p[j] != ':' {
					return j, false
				}
				i = j + 1
			}
			j, ok := jsonValue(p, i, depth+1)
			j = skipSpace(p, j)
			if !ok || j >= len(p) {
				return j, false
			}
			switch p[j] {
			case ',':
				i = j + 1
			case closer:
				return j + 1, true
			default:
				return j, false
			}
		}
	case c == '-' || isDigit(c):
		// A number: its integer part (0, or digits not starting with 0),
		// then a fraction and an exponent, each optional, with digits.
		if c == '-' {
			i++
		}
		for part := range 3 {
			switch {
			case part == 1 && (i >= len(p) || p[i] != '.'),
				part == 2 && (i >= len(p) || p[i]|0x20 != 'e'):
				continue
			case part == 0 && i < len(p) && p[i] == '0':
				i++
				continue
			case part == 2 && i+1 < len(p) && (p[i+1] == '+' || p[i+1] == '-'):
				i++
			}
			if part > 0 {
				i++
			}
			s := i
			for i < len(p) && isDigit(p[i]) {
				i++
			}
			if i == s {
				return i, false
			}
		}
		return i, true
	}
	for _, lit := range [3]string{"true", "false", "null"} {
		if len(p)-i >= len(lit) && string(p[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return i, false
}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
