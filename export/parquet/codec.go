package parquet

import (
	"sync"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// pageWindow is the zstd window of the page codec. Each page is
// compressed as a frame of its own, so matches never reach past the page:
// a window larger than a page (256 KiB of values) buys nothing, and the
// library's default of 8 MiB costs a 16 MiB history per encoder.
const pageWindow = 1 << 20

// pageCodec is zstd at the default level with a window of pageWindow;
// it decodes, names itself and tags the column chunks as parquet-go's
// zstd codec does.
type pageCodec struct {
	zstd.Codec
	encoders sync.Pool
}

// Encode compresses src as one zstd frame into dst.
func (c *pageCodec) Encode(dst, src []byte) ([]byte, error) {
	e, _ := c.encoders.Get().(*kzstd.Encoder)
	if e == nil {
		var err error
		e, err = kzstd.NewWriter(nil,
			kzstd.WithEncoderLevel(kzstd.SpeedDefault),
			kzstd.WithEncoderConcurrency(1),
			kzstd.WithWindowSize(pageWindow),
			kzstd.WithZeroFrames(true),
			kzstd.WithEncoderCRC(false),
		)
		if err != nil {
			return dst, err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	c.encoders.Put(e)
	return out, nil
}
