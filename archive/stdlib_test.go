package archive

import (
	"bytes"
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

// BytesFile's reader answers as the bytes.Reader it replaced.
func TestBytesFileAsBytesReader(t *testing.T) {
	b := []byte("0123456789")
	f := BytesFile("f", b)
	for _, off := range []int64{-1, 0, 3, 9, 10, 11} {
		for _, n := range []int{0, 1, 4, 10, 12} {
			p, q := make([]byte, n), make([]byte, n)
			gn, gerr := f.R.ReadAt(p, off)
			wn, werr := bytes.NewReader(b).ReadAt(q, off)
			if gn != wn || !bytes.Equal(p, q) || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Errorf("ReadAt(%d bytes, %d) = %d %q %v, want %d %q %v", n, off, gn, p, gerr, wn, q, werr)
			}
		}
	}
}
