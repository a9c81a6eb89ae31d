package abi

import "github.com/perfwire/perfwire/schema"
import "github.com/tinylib/msgp/msgp"

// readMMVServeInput decodes mmv_serve's input as MMVServeInput's
// UnmarshalMsg does (keys in any order, unknown keys skipped), written
// out rather than the generated decoder: module size. The images are
// views of b.
func readMMVServeInput(b []byte) (in schema.MMVServeInput, err error) {
	_, err = readMMVMap(b, &in, nil)
	return in, err
}

// mmvKeys are MMVServeInput's keys, then MMVImage's.
var mmvKeys = [...]string{"files", "strict", "now", "validate_only", "path", "name", "big_endian", "image"}

// readMMVMap decodes an MMVServeInput map into in or, when f is set, an
// MMVImage map into f: one function for both, whose reads of a bool and
// of a string are one call each (module size).
func readMMVMap(b []byte, in *schema.MMVServeInput, f *schema.MMVImage) ([]byte, error) {
	n, b, err := msgp.ReadMapHeaderBytes(b)
	if err != nil {
		return b, err
	}
	for range n {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			return b, err
		}
		// The key's place in mmvKeys; another map's key is unknown here.
		k := 0
		for k < len(mmvKeys) && mmvKeys[k] != string(key) {
			k++
		}
		if k < 4 != (f == nil) {
			k = len(mmvKeys)
		}
		var bp *bool
		var sp *string
		switch k {
		case 0:
			var m uint32
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err != nil {
				return b, err
			}
			if int(m) > len(b) { // each image takes a byte at least
				return b, msgp.ErrShortBytes
			}
			in.Files = make([]schema.MMVImage, m)
			for i := range in.Files {
				if b, err = readMMVMap(b, nil, &in.Files[i]); err != nil {
					return b, err
				}
			}
		case 1:
			bp = &in.Strict
		case 2:
			in.Now, b, err = msgp.ReadInt64Bytes(b)
		case 3:
			bp = &in.ValidateOnly
		case 4:
			sp = &f.Path
		case 5:
			sp = &f.Name
		case 6:
			bp = &f.BigEndian
		case 7:
			f.Image, b, err = msgp.ReadBytesZC(b)
		default:
			b, err = msgp.Skip(b)
		}
		if bp != nil {
			*bp, b, err = msgp.ReadBoolBytes(b)
		}
		if sp != nil {
			*sp, b, err = msgp.ReadStringBytes(b)
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}
