package pmapi_test

import (
	"github.com/perfwire/perfwire/archive"
	"github.com/perfwire/perfwire/pmapi"
)

// Both a live client and an archive context are Sources.
var (
	_ pmapi.Source = (*pmapi.Client)(nil)
	_ pmapi.Source = (*archive.Context)(nil)
)
