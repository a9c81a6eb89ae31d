//go:build !kpi && !pcp && !dlt && !archive

package abi

// The MMV calls, in the all-formats modules and the mmv module
// (module.go's tables).

func mmvCall(o Op, _ any, in []byte, flags uint32, b []byte) []byte {
	if o == OpMMVRead {
		if flags > 1 {
			return fail(b, ErrBadInput)
		}
		return AppendMMV(b, in, flags&1 != 0)
	}
	req, err := readMMVServeInput(in)
	if err != nil {
		return fail(b, ErrBadInput)
	}
	return AppendMMVServe(b, &req)
}
