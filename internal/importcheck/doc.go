// Package importcheck holds the tests that keep perfwire's core packages
// free of the imports a WebAssembly plugin cannot afford, and its layers
// in order: core formats ← schema ← render ← wasm/abi, with cmd/perfwire
// importing wasm/abi only in its plugin runner.
package importcheck
