//go:build !js

package main

// serve exists only in the js build; elsewhere the command does
// nothing, so that the package builds with the rest of the module.
func serve() {}
