package pmapi_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"

	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

// recordedPmcd listens on a loopback port and plays pmcd from a recorded
// conversation (testdata/conv04.server.bin, pmcd 6.0.3 answering
// `pminfo -d -l -f sample.colour`): the recorded greeting, then for each
// request the recorded reply of the matching type. It serves one client.
func recordedPmcd() (addr string, stop func()) {
	rec, err := os.ReadFile("testdata/conv04.server.bin")
	if err != nil {
		panic(err)
	}
	var greeting []byte
	replies := map[pduwire.Type][]byte{} // request type -> recorded reply
	answers := map[pduwire.Type]pduwire.Type{
		pduwire.TypePMNSIDs:       pduwire.TypePMNSNames,
		pduwire.TypeDesc:          pduwire.TypeDescReq,
		pduwire.TypeHighResResult: pduwire.TypeHighResFetch,
	}
	r := pduwire.NewReader(bytes.NewReader(rec), pduwire.Options{})
	for r.Next() {
		p := r.PDU()
		if greeting == nil {
			greeting = bytes.Clone(p.Bytes)
		} else if req, ok := answers[p.Header.Type]; ok && replies[req] == nil {
			replies[req] = bytes.Clone(p.Bytes)
		}
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.Write(greeting)
		r := pduwire.NewReader(conn, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen})
		for r.Next() {
			p := r.PDU()
			if reply := replies[p.Header.Type]; reply != nil { // CREDS, PROFILE: none
				conn.Write(reply)
			}
		}
	}()
	return ln.Addr().String(), func() { ln.Close() }
}

// Example connects to pmcd, resolves a metric, describes it and fetches
// its values. The pmcd here is a stand-in that replays what pmcd 6.0.3
// sent to pminfo; the values are those pminfo printed
// (testdata/conv04.out.txt).
func Example() {
	addr, stop := recordedPmcd()
	defer stop()

	ctx := context.Background()
	c, err := pmapi.Dial(ctx, addr, pmapi.Options{}) // the zero Options: the defaults
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ids, err := c.LookupName(ctx, "sample.colour")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := c.LookupDesc(ctx, ids[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sample.colour", d.ID, d.Type, d.InDom)
	r, err := c.Fetch(ctx, ids...) // the caller's copy of the reply
	if err != nil {
		fmt.Println(err)
		return
	}
	for vs := range r.ValueSets() {
		for v := range vs.Values() {
			fmt.Println("inst", v.Inst, "value", v.Word)
		}
	}
	// Output:
	// sample.colour 29.0.5 32 29.1
	// inst 0 value 123
	// inst 1 value 224
	// inst 2 value 325
}

// ExampleClient_FetchBuf reads values in a loop without allocating: each
// result is a view of the client's buffer, read before the next call.
func ExampleClient_FetchBuf() {
	addr, stop := recordedPmcd()
	defer stop()

	ctx := context.Background()
	c, err := pmapi.Dial(ctx, addr, pmapi.Options{BlockingIO: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ids, err := c.LookupName(ctx, "sample.colour")
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		r, err := c.FetchBuf(ctx, ids...)
		if err != nil {
			fmt.Println(err)
			return
		}
		var sum uint32
		for vs := range r.ValueSets() {
			for v := range vs.Values() {
				sum += v.Word
			}
		}
		fmt.Println("sum", sum) // done with r before the next call
	}
	// Output:
	// sum 672
	// sum 672
	// sum 672
}
