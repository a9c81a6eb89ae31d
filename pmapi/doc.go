// Package pmapi is a pure-Go client of a real pmcd: it connects, performs
// the credentials handshake and asks for names, descriptors, instances,
// labels, help text and values.
//
// It speaks the PDUs of package pduwire over one TCP connection in strict
// request/reply lock-step, honouring the features pmcd advertises in its
// first ERROR PDU (high-resolution fetches, descriptor batches, labels).
// Unlike the core wire packages it uses the network, time and context.
package pmapi
