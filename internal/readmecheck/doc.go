// Package readmecheck holds the test that compiles the Go snippets of the
// repository's README.md, so the quick start cannot drift from the API.
package readmecheck
