//go:build !unix

package pmda

import "os"

// pollable returns f as it is: without Unix descriptors a read waiting
// for pmcd is not interrupted by cancellation.
func pollable(f *os.File) (*os.File, func()) { return f, func() {} }
