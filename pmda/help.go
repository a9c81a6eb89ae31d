package pmda

import (
	"bytes"
	"strings"
)

// HelpText is the one-line and long help of one metric or instance domain.
type HelpText struct {
	OneLine, Help string
}

// ParseHelp reads help text in the source form PCP's newhelp(1) takes, the
// "help" file installed PMDAs ship: an entry starts with a line "@ NAME
// one-line text", where NAME is a metric name or DOMAIN.SERIAL for an
// instance domain (DOMAIN a number or the macro of the PMDA's domain.h),
// and the lines up to the next "@" line are the long text, without the
// blank lines around it. Lines starting with '#' are comments. Entries are
// returned by NAME as written; a NAME given twice keeps the last.
func ParseHelp(src []byte) map[string]HelpText {
	out := map[string]HelpText{}
	var name, one string
	var long []string
	flush := func() {
		if name != "" {
			out[name] = HelpText{OneLine: one, Help: strings.Trim(strings.Join(long, "\n"), "\n")}
		}
	}
	for line := range bytes.Lines(src) {
		l := strings.TrimRight(string(line), "\r\n")
		if strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "@"); ok {
			flush()
			rest = strings.TrimLeft(rest, " \t")
			name, one, _ = strings.Cut(rest, " ")
			one = strings.TrimSpace(one)
			long = long[:0]
			continue
		}
		if name != "" {
			long = append(long, l)
		}
	}
	flush()
	return out
}
