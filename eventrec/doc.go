// Package eventrec decodes and encodes PCP event record arrays, the
// payload of PM_TYPE_EVENT and PM_TYPE_HIGHRES_EVENT values.
//
// An array is a value block holding a count of records; each record has a
// timestamp (seconds and microseconds, or seconds and nanoseconds for the
// high-resolution form), flags and a list of parameters, each a pmID with
// a typed, padded value. Missed-record markers count records that a PMDA
// dropped. Decoding is a view over the caller's bytes.
package eventrec
