package ltt

import (
	"io"
	"iter"
)

// Tracefile reads the blocks of one tracefile (cpu/N or a control file)
// through an io.ReaderAt, one block at a time into a single reused
// buffer. A trailing partial block is ignored, as LTTV did.
type Tracefile struct {
	r    *Decoder
	src  io.ReaderAt
	size int64
	buf  []byte
}

// Tracefile returns a reader over size bytes of src. It allocates one
// block buffer, on first use.
func (r *Decoder) Tracefile(src io.ReaderAt, size int64) *Tracefile {
	return &Tracefile{r: r, src: src, size: size}
}

// NumBlocks is floor(size / block size).
func (t *Tracefile) NumBlocks() int { return int(t.size / int64(t.r.cfg.BlockSize)) }

// Block reads block i into the tracefile's buffer and checks it. The
// returned Block and everything taken from it are valid until the next
// call. Offsets in its errors, and in its scanner's, count from the start
// of the tracefile; event offsets count from the start of the block.
func (t *Tracefile) Block(i int) (Block, error) {
	bs := t.r.cfg.BlockSize
	if i < 0 || i >= t.NumBlocks() {
		return Block{}, errAt("block index", i, errBlockSize)
	}
	if t.buf == nil {
		t.buf = make([]byte, bs)
	}
	n, err := t.src.ReadAt(t.buf, int64(i)*int64(bs))
	if n < bs {
		if err == nil || err == io.EOF {
			err = errAt("block", n, ErrTruncated)
		}
		return Block{}, err
	}
	base := int64(i) * int64(bs)
	blk, err := t.r.Block(t.buf)
	blk.base = base
	return blk, rebase(err, base)
}

// Blocks iterates over the tracefile's blocks in order; it stops after
// the first error, which it yields. Each Block is valid until the next
// iteration.
func (t *Tracefile) Blocks() iter.Seq2[Block, error] {
	return func(yield func(Block, error) bool) {
		for i := range t.NumBlocks() {
			b, err := t.Block(i)
			if !yield(b, err) || err != nil {
				return
			}
		}
	}
}
