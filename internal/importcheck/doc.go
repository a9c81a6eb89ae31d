// Package importcheck holds the test that keeps perfwire's core packages
// free of the imports a WebAssembly plugin cannot afford.
package importcheck
