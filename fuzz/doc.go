// Package fuzz holds cross-package fuzz targets and differential checks
// that feed one format's output into another's decoder.
//
// Per-package fuzz targets live beside their decoders; the targets here
// follow data across package boundaries, such as event arrays inside
// RESULT PDUs or label sets inside LABEL PDUs.
package fuzz
