// Package fuzz holds the SDK's cross-package fuzz targets and its
// resource-limit tests. It has no API: everything is in its tests.
//
// Each decoder package fuzzes itself; the targets here follow data across
// package boundaries the way real inputs do. FuzzPMCDStream frames a pmcd
// byte stream (pduwire's Scanner and its Reader over an io.Reader, which must
// agree), decodes and re-encodes every PDU, hands event arrays to eventrec
// and label sets to labels. FuzzPMCDGenerated fills structs from the
// fuzzer's bytes with sigs.k8s.io/randfill, builds valid but unusual
// RESULT and LABEL PDUs with the SDK's builders and checks every value
// survives. FuzzDLTStream chains dlt, dltkpi's parser, reassembler and
// tracker under default and tiny limits; FuzzMMVImage opens MMV images and
// parses their labels; FuzzLTTTracefile opens a trace directory and
// compares the time-ordered merge with a block-by-block walk. Seeds are
// real captures in testdata/.
//
// The differential checks against libpcp live in the separate module
// fuzz/diff (cgo), which the SDK never imports. CHECKLIST.md maps every
// bad-input item of the specs to its test; RESULTS.md records the runs.
package fuzz
