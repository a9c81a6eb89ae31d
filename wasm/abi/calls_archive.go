//go:build !kpi && !pcp && !mmv && !dlt

package abi

import "github.com/tinylib/msgp/msgp"

// The archive calls, in the all-formats modules and the archive module.
func init() {
	opens[OpArchiveOpen] = archiveOpen
	calls[OpArchiveNext] = archiveNext
}

func archiveOpen(_ Op, in []byte, _ uint32) any {
	input, err := readArchiveInput(in)
	if err != nil {
		return nil
	}
	return NewArchiveSession(input)
}

func archiveNext(_ Op, s any, _ []byte, n uint32) msgp.Marshaler {
	a, ok := s.(*ArchiveSession)
	if !ok {
		return Failure(ErrBadMode)
	}
	return &archiveNextCall{a, int(n)}
}

// archiveNextCall is archive_next's result, written in place into the
// module's buffer when it is marshalled.
type archiveNextCall struct {
	s   *ArchiveSession
	max int
}

func (c *archiveNextCall) MarshalMsg(b []byte) ([]byte, error) {
	return c.s.AppendNext(b, c.max), nil
}
