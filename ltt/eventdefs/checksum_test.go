package eventdefs

import (
	"os"
	"testing"
)

// The vectors of docs/ltt.md §12, computed with the period C parser.
var checksumVectors = []struct {
	name, src string
	events    int
	want      uint32
}{
	{"A", `<facility name=f><event name=e><description>d</description></event></facility>`, 1, 0x9DA4A484},
	{"B", `<facility name=f><event name=e><struct><field name=a><uint size=4/></field></struct></event></facility>`, 1, 0x26BAD50B},
	{"C", `<facility name=f><event name=e><struct>
		<field name=s><sequence lengthsize=long><string/></sequence></field>
		<field name=k><enum size=1><label name=A/><label name=B value=7/></enum></field>
		</struct></event></facility>`, 1, 0x68B85291},
	{"D", `<facility name=f><event name=e><description>x</description></event>
		<event name=g><struct>
		<field name=x><int size=medium format="%d"/></field>
		<field name=y><float size=long/></field>
		<field name=z><array size=2><uint size=short/></array></field>
		</struct></event></facility>`, 2, 0x0F006165},
	{"E", fixtureE, 3, 0x92CF6961},
}

const fixtureE = `<facility name=demo>
  <description>demo facility</description>
  // a C++ style comment is accepted by the tokenizer
  <event name=ev_empty>
    <description>no payload</description>
  </event>
  <event name=ev_all>
    <description>all types</description>
    <struct>
      <field name="a"><int size=short format="%hd"/></field>
      <field name="b"><uint size=medium/></field>
      <field name="c"><int size=long/></field>
      <field name="d"><float size=8 format="%g"/></field>
      <field name="e"><string format="%s"/></field>
      <field name="f"><enum size=2 format="%u"><label name=ZERO/><label name=FIVE value=5/></enum></field>
      <field name="g"><array size=3><uint size=1/></array></field>
      <field name="h"><sequence lengthsize=4><typeref name=pair/></sequence></field>
      <field name="i"><union typecodesize=1><field name="x"><uint size=4/></field><field name="y"><string/></field></union></field>
    </struct>
  </event>
  <event name=ev_ref>
    <typeref name=pair/>
  </event>
  <type name=pair>
    <struct>
      <field name=k><uint size=2/></field>
      <field name=v><int size=8/></field>
    </struct>
  </type>
</facility>
`

func TestChecksumVectors(t *testing.T) {
	for _, v := range checksumVectors {
		fs, err := Parse([]byte(v.src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if len(fs) != 1 || len(fs[0].Events) != v.events {
			t.Fatalf("%s: %d facilities", v.name, len(fs))
		}
		if got := fs[0].Checksum(); got != v.want {
			t.Errorf("%s: checksum %#08x, want %#08x", v.name, got, v.want)
		}
	}
}

func TestChecksumCoreXML(t *testing.T) {
	src, err := os.ReadFile("../testdata/smp_example/eventdefs/core.xml")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Name != "core" || len(fs[0].Events) != 22 {
		t.Fatalf("got %d facilities", len(fs))
	}
	if got := fs[0].Checksum(); got != 0x06588858 {
		t.Errorf("core.xml checksum %#08x, want 0x06588858", got)
	}
}
