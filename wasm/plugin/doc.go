// Command plugin is perfwire's wasip1 reactor: built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o perfwire.wasm ./wasm/plugin
//
// it exports _initialize, memory and the calls of wasm/ABI.md. Memory
// crosses the boundary through handles: the host asks for a buffer with
// alloc, learns where it lies with buf_ptr (a pointer result, so no unsafe
// is needed on the Go side), writes its input there and passes the handle
// to a call; the call returns the handle of a MessagePack result buffer.
// The host never hands the module an address, so a wrong value can only
// be a bad handle, which is reported in the result like any other error.
package main
