package abi

import "github.com/tinylib/msgp/msgp"

// readMMVServeInput decodes mmv_serve's input as MMVServeInput's
// UnmarshalMsg does (keys in any order, unknown keys skipped). Written
// out, it costs the mmv module 4.5 KB less than the generated decoder; the
// images are views of b.
func readMMVServeInput(b []byte) (in MMVServeInput, err error) {
	var n uint32
	if n, b, err = msgp.ReadMapHeaderBytes(b); err != nil {
		return in, err
	}
	for range n {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			return in, err
		}
		switch string(key) {
		case "files":
			var m uint32
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err != nil {
				return in, err
			}
			if int(m) > len(b) { // each image takes a byte at least
				return in, msgp.ErrShortBytes
			}
			in.Files = make([]MMVImage, m)
			for i := range in.Files {
				if b, err = readMMVImage(b, &in.Files[i]); err != nil {
					return in, err
				}
			}
		case "strict":
			in.Strict, b, err = msgp.ReadBoolBytes(b)
		case "now":
			in.Now, b, err = msgp.ReadInt64Bytes(b)
		case "validate_only":
			in.ValidateOnly, b, err = msgp.ReadBoolBytes(b)
		default:
			b, err = msgp.Skip(b)
		}
		if err != nil {
			return in, err
		}
	}
	return in, nil
}

// readMMVImage decodes one MMVImage map into f.
func readMMVImage(b []byte, f *MMVImage) ([]byte, error) {
	n, b, err := msgp.ReadMapHeaderBytes(b)
	if err != nil {
		return b, err
	}
	for range n {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			return b, err
		}
		switch string(key) {
		case "path":
			f.Path, b, err = msgp.ReadStringBytes(b)
		case "name":
			f.Name, b, err = msgp.ReadStringBytes(b)
		case "big_endian":
			f.BigEndian, b, err = msgp.ReadBoolBytes(b)
		case "image":
			f.Image, b, err = msgp.ReadBytesZC(b)
		default:
			b, err = msgp.Skip(b)
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// readArchiveInput reads archive_open's input as ArchiveInput, with its
// files as views of b, not copies: an archive of hundreds of megabytes
// is then in the module's memory once, in the input buffer that the
// session keeps alive.
func readArchiveInput(b []byte) (in ArchiveInput, err error) {
	var n uint32
	if n, b, err = msgp.ReadMapHeaderBytes(b); err != nil {
		return in, err
	}
	for range n {
		var key []byte
		if key, b, err = msgp.ReadMapKeyZC(b); err != nil {
			return in, err
		}
		var m uint32
		switch string(key) {
		case "names":
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err == nil && int(m) > len(b) {
				err = msgp.ErrShortBytes // each name takes a byte at least
			}
			for i := 0; err == nil && i < int(m); i++ {
				var s string
				s, b, err = msgp.ReadStringBytes(b)
				in.Names = append(in.Names, s)
			}
		case "files":
			if m, b, err = msgp.ReadArrayHeaderBytes(b); err == nil && int(m) > len(b) {
				err = msgp.ErrShortBytes
			}
			for i := 0; err == nil && i < int(m); i++ {
				var f []byte
				f, b, err = msgp.ReadBytesZC(b)
				in.Files = append(in.Files, f)
			}
		default:
			b, err = msgp.Skip(b)
		}
		if err != nil {
			return in, err
		}
	}
	return in, nil
}
