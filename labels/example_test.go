package labels_test

import (
	"errors"
	"fmt"

	"github.com/perfwire/perfwire/labels"
)

func ExampleParse() {
	var s labels.Set
	err := labels.Parse(&s, []byte(`{ "role" : "testing", "map": {"b": 2, "a": [1, 2]} }`), labels.Options{Flags: labels.Item})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(s.JSON))
	for i, l := range s.Index {
		p := s.At(i)
		fmt.Printf("%s name(%d,%d) value(%d,%d) %v\n", p.Name, l.NameOff, l.NameLen, l.ValueOff, l.ValueLen, p.Flags)
	}
	// Output:
	// {"map.a":[1,2],"map.b":2,"role":"testing"}
	// map.a name(2,5) value(9,5) item,compound
	// map.b name(16,5) value(23,1) item,compound
	// role name(26,4) value(32,9) item
}

func ExampleParse_error() {
	var s labels.Set
	err := labels.Parse(&s, []byte(`{"a":1,"a":2}`), labels.Options{})
	pe, _ := errors.AsType[*labels.ParseError](err)
	fmt.Println(errors.Is(err, labels.ErrDuplicate), pe.Offset)
	fmt.Println(err)
	// Output:
	// true 8
	// labels: name: duplicate label name at offset 8
}

func ExampleMerge() {
	var context, domain, item, merged labels.Set
	_ = labels.Parse(&context, []byte(`{"hostname":"vm","role":"host"}`), labels.Options{Flags: labels.Context})
	_ = labels.Parse(&domain, []byte(`{"agent":"sample","role":"testing"}`), labels.Options{Flags: labels.Domain})
	_ = labels.Parse(&item, []byte(`{"note":"extra"}`), labels.Options{Flags: labels.Item | labels.Optional})

	_ = labels.Merge(&merged, []*labels.Set{&context, &domain, &item}, nil)
	fmt.Println(string(merged.JSON))

	// Only intrinsic labels, as a series identity would use.
	_ = labels.Merge(&merged, []*labels.Set{&context, &domain, &item}, func(p labels.Pair) bool { return p.Flags.Intrinsic() })
	fmt.Println(string(merged.JSON))
	// Output:
	// {"agent":"sample","hostname":"vm","note":"extra","role":"testing"}
	// {"agent":"sample","hostname":"vm","role":"testing"}
}

func ExampleBuilder() {
	var b labels.Builder
	b.Flags = labels.InDom
	b.String("device_type", "cpu").Int("cores", 8).Float("ratio", 0.5).Bool("virtual", true)
	var s labels.Set
	if err := b.Finish(&s); err != nil {
		panic(err)
	}
	fmt.Println(string(s.JSON))

	b.Reset()
	err := b.String("_private", "x").Finish(&s) // PCP before 7.2 rejects this name
	fmt.Println(errors.Is(err, labels.ErrName))
	// Output:
	// {"cores":8,"device_type":"cpu","ratio":0.5,"virtual":true}
	// true
}

func ExampleSet_DecodeWire() {
	// The JSON and the index of the domain label set in a captured LABEL
	// PDU from pmcd (conv01, sample PMDA).
	json := []byte(`{"agent":"sample","role":"testing"}`)
	index := []byte{0, 2, 5, 2, 0, 9, 0, 8, 0, 19, 4, 2, 0, 25, 0, 9}
	var s labels.Set
	if err := s.DecodeWire(json, index, labels.VerifyStrict); err != nil {
		panic(err)
	}
	p, _ := s.Lookup("role")
	fmt.Println(s.Len(), string(p.Value), p.Flags)
	// Output:
	// 2 "testing" domain
}

func ExampleNormalize() {
	// libpcp's single parse of {"z":{"a":1},"b":2}: the map stays in the
	// JSON and the compound label's name span covers only "a".
	json := []byte(`{"z":{"a":1},"b":2}`)
	var index []byte
	index = labels.AppendLabel(index, labels.Label{NameOff: 14, NameLen: 1, ValueOff: 17, ValueLen: 1, Flags: labels.Item})
	index = labels.AppendLabel(index, labels.Label{NameOff: 7, NameLen: 1, ValueOff: 10, ValueLen: 1, Flags: labels.Item | labels.Compound})
	var s labels.Set
	if err := labels.Normalize(&s, json, index); err != nil {
		panic(err)
	}
	for p := range s.All() {
		fmt.Printf("%s=%s %v\n", p.Name, p.Value, p.Flags)
	}
	// Output:
	// b=2 item
	// z.a=1 item,compound
}
