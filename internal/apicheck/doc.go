// Package apicheck holds only tests: they parse the format packages'
// sources and check the vocabulary docs/api.md states where a test can
// (no Config, Readers over io.Readers and nothing else named Reader,
// Scanners with Next and Err, one Options, exported sentinels only where
// a caller branches).
package apicheck
