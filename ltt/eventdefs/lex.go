package eventdefs

// tokKind is the class of a token of the eventdefs dialect.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokLT             // <
	tokGT             // >
	tokSlash          // /
	tokEq             // =
	tokString         // "…", quotes stripped, backslash escapes kept verbatim
	tokNumber         // digits
	tokName           // [A-Za-z_][A-Za-z0-9_]*
	tokOther          // any other byte: always a syntax error
)

// token is one lexeme and where it starts.
type token struct {
	kind tokKind
	text string
	off  int
}

// lexer splits a description into tokens. It is not an XML tokenizer:
// attribute values may be bare, C comments are skipped, and text is only
// read on request (descriptions, system.xml content).
type lexer struct {
	src string
	off int
}

// skip passes whitespace and C comments; an unterminated /* comment runs
// to the end of the input.
func (l *lexer) skip() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.off++
		case c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '*':
			l.skipComment("*/")
		case c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '/':
			l.skipComment("\n")
		default:
			return
		}
	}
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipComment passes the comment that starts at l.off up to and with the
// first end after its two opening characters, or to the end of the input
// when no end follows.
func (l *lexer) skipComment(end string) {
	if i := indexFrom(l.src, end, l.off+2); i >= 0 {
		l.off = i + len(end)
	} else {
		l.off = len(l.src)
	}
}

// next returns the next token. An unterminated string is a tokOther at
// its opening quote.
func (l *lexer) next() token {
	l.skip()
	start := l.off
	if l.off >= len(l.src) {
		return token{kind: tokEOF, off: start}
	}
	c := l.src[l.off]
	l.off++
	switch {
	case c == '<':
		return token{kind: tokLT, off: start}
	case c == '>':
		return token{kind: tokGT, off: start}
	case c == '/':
		return token{kind: tokSlash, off: start}
	case c == '=':
		return token{kind: tokEq, off: start}
	case c == '"':
		for i := l.off; i < len(l.src); i++ {
			switch l.src[i] {
			case '\\':
				i++
			case '"':
				l.off = i + 1
				return token{kind: tokString, text: l.src[start+1 : i], off: start}
			}
		}
		l.off = start
		return token{kind: tokOther, off: start}
	case isDigit(c):
		for l.off < len(l.src) && isDigit(l.src[l.off]) {
			l.off++
		}
		return token{kind: tokNumber, text: l.src[start:l.off], off: start}
	case isNameStart(c):
		for l.off < len(l.src) && (isNameStart(l.src[l.off]) || isDigit(l.src[l.off])) {
			l.off++
		}
		return token{kind: tokName, text: l.src[start:l.off], off: start}
	}
	return token{kind: tokOther, text: l.src[start:l.off], off: start}
}

// peek returns the next token without consuming it.
func (l *lexer) peek() token {
	save := l.off
	t := l.next()
	l.off = save
	return t
}

// text consumes raw text up to the next '<' (not consumed).
func (l *lexer) text() string {
	start := l.off
	for l.off < len(l.src) && l.src[l.off] != '<' {
		l.off++
	}
	return l.src[start:l.off]
}
