//go:build js && kpionly

package main

import "syscall/js"

// setFormats adds nothing in a kpionly build (see formats.go).
func setFormats(js.Value) {}
