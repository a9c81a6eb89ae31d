//go:build !unix

package pmda

import "os"

// pollableStdin returns stdin as it is: without Unix descriptors a read
// waiting for pmcd is not interrupted by cancellation.
func pollableStdin() (*os.File, func()) { return os.Stdin, func() {} }
