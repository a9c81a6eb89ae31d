package diff

/*
#cgo LDFLAGS: -lpcp
#include "oracle.h"
*/
import "C"

// Input kinds understood by the libpcp side.
const (
	kindPDU    = C.ORACLE_PDU
	kindLabels = C.ORACLE_LABELS
)

// oracleOutCap bounds libpcp's canonical text for one input.
const oracleOutCap = 1 << 22

// The outcomes of runOracle that are not decoded text.
const (
	rejected = "REJECT\n"
	tooLong  = "TOOLONG\n"
)

// oracleOut receives libpcp's text; the child reuses it for every query
// rather than leave 4 MiB of garbage per input.
var oracleOut []C.char

// runOracle decodes b with libpcp in this process. It is called only in
// the child process, where a crash inside libpcp cannot take the test
// binary down. Both buffers are Go memory holding no Go pointers, which
// C may use for the duration of the call.
func runOracle(kind int, b []byte) string {
	in := append(b[:len(b):len(b)], 0) // never empty, never aliased
	if oracleOut == nil {
		oracleOut = make([]C.char, oracleOutCap)
	}
	out := oracleOut
	n := C.oracle_run(C.int(kind), (*C.uchar)(&in[0]), C.int(len(b)), &out[0], oracleOutCap)
	switch {
	case n == -1:
		return rejected
	case n < 0:
		return tooLong
	}
	return C.GoStringN(&out[0], n)
}
