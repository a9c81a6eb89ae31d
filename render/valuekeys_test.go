package render

import (
	"testing"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/tinylib/msgp/msgp"
)

// TestValueKeys checks pdu.go's written-out fmt and type keys against
// msgp's encoding of the names the schema gives them.
func TestValueKeys(t *testing.T) {
	for f, name := range fmtNames {
		if want := string(msgp.AppendString([]byte("\xa3fmt"), name)); fmtKeys[f] != want {
			t.Errorf("fmtKeys[%d] = %q, want %q", f, fmtKeys[f], want)
		}
	}
	for typ, name := range typeNames {
		if name == "" {
			continue
		}
		if want := string(msgp.AppendString([]byte("\xa4type"), TypeName(pcp.Type(typ)))); typ >= len(typeKeys) || typeKeys[typ] != want {
			t.Errorf("typeKeys lack %q for type %d", want, typ)
		}
	}
	for typ, keys := range dptrKeys {
		if want := fmtKeys[pduwire.ValDPTR] + typeKeys[typ] + "\xa5value"; keys != "" && keys != want {
			t.Errorf("dptrKeys[%d] = %q, want %q", typ, keys, want)
		}
	}
	if len(typeKeys) != len(typeNames) {
		t.Errorf("typeKeys has %d types, typeNames %d", len(typeKeys), len(typeNames))
	}
}
