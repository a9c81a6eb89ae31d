// Package docrefcheck holds the test that keeps the "§N" references in Go
// comments pointing at something: every one must name a file of the
// repository's docs/ ("docs/pcp-pdu.md §4.8", or a bare "§4.10" after such
// a name in the same comment) and that file must have a heading numbered N.
package docrefcheck
