// Command plugin is perfwire's wasip1 reactor: built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o perfwire.wasm ./wasm/plugin
//
// it exports _initialize, memory and the calls of wasm/ABI.md, which
// package wasm/internal/exports holds (the js module exports the same).
package main
