// Package doccheck holds a test that every exported identifier of the
// module's packages has a doc comment, so that the godoc of the SDK stays
// complete as code is added.
package doccheck
