package archive

import (
	"strconv"
	"testing"
)

// archiveSuffix takes a volume number as strconv.ParseUint(s, 10, 31)
// does, which it replaced to keep strconv's parsers out of wasm builds.
func TestArchiveSuffixAsParseUint(t *testing.T) {
	for _, s := range []string{"", "0", "00", "7", "007", "42", "2147483646", "2147483647", "2147483648",
		"4294967296", "99999999999999999999", "+1", "-1", "1_0", "1e3", "0x10", " 1", "1 ", "١", "meta", "index",
		"metas", "Index", "1.5", "12a"} {
		_, err := strconv.ParseUint(s, 10, 31)
		want := err == nil || s == "meta" || s == "index"
		if got := archiveSuffix(s); got != want {
			t.Errorf("archiveSuffix(%q) = %v, want %v", s, got, want)
		}
	}
}
