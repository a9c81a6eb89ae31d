package labels

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isNameByte reports whether c may appear in a label name component.
func isNameByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// validName checks a name under rules. With dotted set, '.' separates
// components, each of which must be non-empty and legal on its own.
func validName(name []byte, rules NameRules, dotted bool) bool {
	if len(name) == 0 {
		return false
	}
	start := true
	for _, c := range name {
		switch {
		case c == '.' && dotted:
			if start {
				return false
			}
			start = true
			continue
		case !isNameByte(c):
			return false
		case start && rules == Classic && !isLetter(c):
			return false
		}
		start = false
	}
	return !start
}
