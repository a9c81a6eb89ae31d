package pduwire_test

import (
	"fmt"
	"os"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// Split a captured pmcd byte stream into PDUs and name them.
func ExampleScanner() {
	data, _ := os.ReadFile("testdata/captures/conv11.server.bin")
	s := pduwire.NewScanner(data, pduwire.Options{})
	for s.Next() {
		p := s.PDU()
		fmt.Println(p.Offset, p.Header.Len, p.Header.Type)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 0 20 ERROR
	// 20 44 PMNS_NAMES
	// 64 24 PMNS_IDS
	// 88 52 HIGHRES_RESULT
	// 140 32 DESC
}

// Walk the values of a RESULT without allocating.
func ExampleParseResult() {
	pdu, _ := os.ReadFile("testdata/bench/result-1000.bin")
	r, err := pduwire.ParseResult(pdu)
	if err != nil {
		fmt.Println(err)
		return
	}
	sets, values := 0, 0
	s := r.Scan()
	for s.Next() {
		vs := s.ValueSet()
		sets++
		values += vs.Len()
	}
	fmt.Println(sets, "value sets,", values, "values")
	// Output: 50 value sets, 1000 values
}

// Read every value of a RESULT in one pass: each value set is checked
// as the reader reaches it, and Err says whether the whole PDU was good.
func ExampleNewResultScanner() {
	pdu, _ := os.ReadFile("testdata/bench/result-1000.bin")
	rr, err := pduwire.NewResultScanner(pdu)
	if err != nil {
		fmt.Println(err)
		return
	}
	var ints, blocks int
	var bytes int
	for rr.Next() {
		vs := rr.ValueSet()
		for i := range vs.Len() {
			v := vs.Value(i)
			if !v.Block() {
				ints++ // v.Word is the value
				continue
			}
			blocks++
			bytes += len(v.Payload())
		}
	}
	if err := rr.Err(); err != nil {
		fmt.Println(err) // a bad PDU: drop what was read
		return
	}
	fmt.Println(ints, "insitu values,", blocks, "value blocks of", bytes, "bytes")
	// Output: 500 insitu values, 500 value blocks of 4618 bytes
}

// Decode pmcd's first PDU and build the client's CREDS reply.
func ExampleParseServerHello() {
	hello := []byte{0, 0, 0, 0x14, 0, 0, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0x0e, 0x44}
	h, err := pduwire.ParseServerHello(hello)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status", h.Status, "highres", h.Features.HighResFetch(), "desc_ids", h.Features.DescIDs())
	creds := pduwire.AppendClientCreds(nil, 4242, pduwire.ClientFlags(h.Features))
	fmt.Printf("% x\n", creds)
	// Output:
	// status 0 highres true desc_ids true
	// 00 00 00 14 00 00 70 0c 00 00 10 92 00 00 00 01 01 02 00 00
}

// Encode a HIGHRES_FETCH request; Append writes the length last.
func ExampleFetchPDU_Append() {
	f := pduwire.FetchPDU{HighRes: true, PMIDs: []pcp.ID{pcp.NewID(29, 0, 5)}}
	fmt.Printf("% x\n", f.Append(nil, 0))
	// Output: 00 00 00 20 00 00 70 14 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 07 40 00 05
}

// Build a PMNS_TRAVERSE PDU field by field, as pminfo sends it for
// sample.colour (its pad bytes are '~' where ours are 0); Finish writes
// the length.
func ExampleBuilder() {
	b := pduwire.NewBuilder(nil, pduwire.TypePMNSTraverse, 0)
	b.AddUint32(0) // subtype
	b.AddString("sample.colour")
	pdu, err := b.Finish()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("% x\n", pdu)
	// Output: 00 00 00 24 00 00 70 10 00 00 00 00 00 00 00 00 00 00 00 0d 73 61 6d 70 6c 65 2e 63 6f 6c 6f 75 72 00 00 00
}

// Decode any PDU into its typed message.
func ExampleDecode() {
	pdu := []byte{0, 0, 0, 0x20, 0, 0, 0x70, 0x05, 0, 0, 0, 0,
		0x07, 0x40, 0, 0x05, 0, 0, 0, 0, 0x07, 0x40, 0, 0x01, 0, 0, 0, 3, 0, 0, 0, 0}
	m, err := pduwire.Decode(pdu)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := m.(*pduwire.DescPDU).Desc
	fmt.Println(m.Type(), d.ID, d.InDom, d.Type == pcp.Type32)
	// Output: DESC 29.0.5 29.1 true
}
