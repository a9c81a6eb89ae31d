package main

import (
	"compress/bzip2"
	"compress/gzip"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/perfwire/perfwire/archive"
)

// codecs are the decompressors for the suffixes PCP's tools leave on
// archive files (pmlogger_daily compresses with xz by default).
var codecs = map[string]archive.Decompressor{
	".xz": func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) },
	".zst": func(r io.Reader) (io.Reader, error) {
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	},
	".gz":  func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	".bz2": func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil },
}
