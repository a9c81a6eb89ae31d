// Package pcp is the shared vocabulary of Performance Co-Pilot: metric
// identifiers (pmID), instance domains (pmInDom), value types, semantics,
// the packed pmUnits word, PM_ERR_* codes and value conversion.
//
// PCP packs identifiers into 32-bit words whose bit fields are defined on
// the word read big-endian: a pmID is 9 bits of domain (the PMDA), 12 of
// cluster and 10 of item; a pmInDom is a domain and a 22-bit serial. The
// types here keep exactly those words, so they can be copied to and from
// PDUs, MMV files and event records without translation, and print the
// same text libpcp prints. The package allocates only when asked for text.
package pcp
