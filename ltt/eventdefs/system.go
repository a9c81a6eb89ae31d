package eventdefs

import (
	"strconv"
	"strings"

	"github.com/perfwire/perfwire/ltt"
)

// System is info/system.xml: a description of the traced machine. Only
// Arch, Endian and BlockSize matter for decoding.
type System struct {
	NodeName, DomainName                     string
	CPU                                      int
	ArchSize                                 string // as written
	Endian                                   string // LITTLE_ENDIAN or BIG_ENDIAN
	KernelName, KernelRelease, KernelVersion string
	Machine, Processor, HardwarePlatform     string
	OperatingSystem                          string
	LTTMajorVersion, LTTMinorVersion         string // never read by LTTV
	BlockSize                                int
	Description                              string // the element's text, trimmed
}

// ParseSystem reads info/system.xml: one <system> element whose
// attributes (each quoted, each one of the fifteen LTTV knew) describe
// the machine. An unknown attribute is kind "eventdefs_attribute", as
// it was for LTTV; so are a non-numeric cpu or ltt_block_size. Inputs
// over DefaultMaxBytes are [ErrLimit].
func ParseSystem(src []byte) (System, error) {
	var s System
	if len(src) > DefaultMaxBytes {
		return s, limitAt("input", 0, ErrLimit, len(src), DefaultMaxBytes)
	}
	p := &parser{lx: lexer{src: string(src)}}
	p.lx.skip()
	if strings.HasPrefix(p.lx.src[p.lx.off:], "<?") {
		end := indexFrom(p.lx.src, "?>", p.lx.off)
		if end < 0 {
			return s, errAt("<?xml", p.lx.off, ErrSyntax)
		}
		p.lx.off = end + 2
	}
	if err := p.open("system"); err != nil {
		return s, err
	}
	as, closed, err := p.attrs(nil)
	if err != nil {
		return s, err
	}
	for _, a := range as {
		if !a.quoted {
			return s, errAt(a.name, a.off, errAttribute)
		}
		if err := s.set(a); err != nil {
			return s, err
		}
	}
	if closed {
		return s, nil
	}
	// Text may be split by comments-free child markup in theory; the last
	// chunk wins, as in LTTV, and there are no children in practice.
	s.Description = strings.TrimSpace(p.lx.text())
	if err := p.closeTag("system"); err != nil {
		return s, err
	}
	if t := p.lx.next(); t.kind != tokEOF {
		return s, errAt("end of file", t.off, ErrSyntax)
	}
	return s, nil
}

func (s *System) set(a attr) error {
	v := a.value
	num := func(dst *int) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return errAt(a.name, a.off, errAttribute)
		}
		*dst = n
		return nil
	}
	switch a.name {
	case "node_name":
		s.NodeName = v
	case "domainname":
		s.DomainName = v
	case "cpu":
		return num(&s.CPU)
	case "arch_size":
		s.ArchSize = v
	case "endian":
		s.Endian = v
	case "kernel_name":
		s.KernelName = v
	case "kernel_release":
		s.KernelRelease = v
	case "kernel_version":
		s.KernelVersion = v
	case "machine":
		s.Machine = v
	case "processor":
		s.Processor = v
	case "hardware_platform":
		s.HardwarePlatform = v
	case "operating_system":
		s.OperatingSystem = v
	case "ltt_major_version":
		s.LTTMajorVersion = v
	case "ltt_minor_version":
		s.LTTMinorVersion = v
	case "ltt_block_size":
		return num(&s.BlockSize)
	default:
		return errAt(a.name, a.off, errAttribute)
	}
	return nil
}

// Config is the former name of [System.Options].
//
// Deprecated: use Options.
func (s *System) Config() (ltt.Options, error) { return s.Options() }

// Options turns the description into a decoder's options (version
// auto-detected). It fails with kind "eventdefs_attribute" when endian
// is neither LITTLE_ENDIAN nor BIG_ENDIAN or arch_size is not one of the
// five names.
func (s *System) Options() (ltt.Options, error) {
	c := ltt.Options{BlockSize: s.BlockSize}
	switch s.Endian {
	case "LITTLE_ENDIAN":
	case "BIG_ENDIAN":
		c.BigEndian = true
	default:
		return c, errAt("endian", 0, errAttribute)
	}
	arch, ok := ltt.ParseArch(s.ArchSize)
	if !ok {
		return c, errAt("arch_size", 0, errAttribute)
	}
	c.Arch = arch
	return c, nil
}
