//go:build !kpi && !pcp && !mmv && !dlt

package abi

import "github.com/tinylib/msgp/msgp"

// The archive calls, in the all-formats modules and the archive module.
func init() {
	opens[OpArchiveOpen] = func(in []byte, _ uint32) (any, error) {
		input, err := readArchiveInput(in)
		if err != nil {
			return nil, err
		}
		return NewArchiveSession(input), nil
	}
	onSes[OpArchiveNext] = func(s any, _ []byte, n uint32) msgp.Marshaler {
		a, ok := s.(*ArchiveSession)
		if !ok {
			return Failure(ErrBadMode)
		}
		r := a.Next(int(n))
		return &r
	}
}
