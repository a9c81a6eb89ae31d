// Package schema is the output schema of perfwire's WebAssembly calls and
// of the CLI's --json output: the Go types whose MessagePack maps the
// calls return (wasm/abi) and the CLI prints as JSON Lines
// (cmd/perfwire), one declaration of every result for both.
//
// Each result is one MessagePack map. Its keys are the types' `msg:"…"`
// tags, in declaration order; every integer and string is in its
// shortest form, floats are float64, all strings are str; a result's
// "error" key is nil on success, else an Error map. README.md describes
// the maps key by key.
//
// The types live in the *types.go files. go generate writes their
// UnmarshalMsg with github.com/tinylib/msgp (the *_gen.go files) and their
// MarshalMsg with internal/encgen (the *_enc.go files), which writes
// msgp's bytes with one call per field to Map's methods, a form several
// times smaller in WebAssembly; the generated *_enc_test.go files hold
// the two encoders to the same bytes on random values of every type.
// Map and the Append functions (number.go) are exported for the writers
// that produce the large and hot results in place (package render),
// whose tests hold their bytes to these types' MarshalMsg.
//
// ErrorOf, Failure and AppendFailure turn an SDK error into the Error
// map, with the stable code of its wire.Kind; ErrBadHandle, ErrBadInput,
// ErrBadMode, ErrNotBuilt and ErrInternal are the ABI's own kinds.
package schema
