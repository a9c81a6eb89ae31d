package main

/*
#include "bench.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

// figFetchClient measures what a client spends on a fetch when pmcd
// costs nothing: the fetch figure's 50 metrics from a fake pmcd, a
// process of its own that answers each request at once with the reply
// the real pmcd gave (fakepmcd.go). The process's CPU time per fetch is
// then the client's alone: its system calls, its decode and its runtime.
func figFetchClient(cfg Config) Figure {
	f := Figure{
		ID: "fetch-client",
		Title: "client CPU per fetch: the 50 metrics of testdata/fetch-metrics.txt from a fake pmcd in another process " +
			"that answers at once with pmcd's recorded replies (" + fakeConv + ")",
		Unit:     "fetch of the 50 metrics, every value set's count read",
		Goal:     "perfwire's client CPU per fetch (pmapi.Client.FetchBuf) ≥ 1.5x libpcp's (aim 3x), 0 allocations per fetch",
		MinRatio: 1.5,
	}
	fail := func(msg string) Figure {
		f.Stats = []Stat{{Name: "fetch-client setup", Err: msg}}
		return f
	}
	names, err := readNames("testdata/fetch-metrics.txt")
	if err != nil {
		return fail(err.Error())
	}
	fp, err := startFakePmcd()
	if err != nil {
		return fail(err.Error())
	}
	var clients []*pmapi.Client
	f.cleanup = func() {
		for _, cl := range clients {
			cl.Close()
		}
		fp.stop()
	}
	ctx := context.Background()
	dial := func(addr string, o pmapi.Options) (*pmapi.Client, []pcp.ID, error) {
		cl, err := pmapi.Dial(ctx, addr, o)
		if err != nil {
			return nil, nil, err
		}
		clients = append(clients, cl)
		ids, err := cl.LookupName(ctx, names...)
		return cl, ids, err
	}
	fetch := func(addr string, o pmapi.Options) (func(n int) uint64, error) {
		cl, ids, err := dial(addr, o)
		if err != nil {
			return nil, err
		}
		return fetchLoop(ctx, cl, ids), nil
	}
	libpcp := func(host string) (func(n int) uint64, error) {
		h := C.bench_fetch_setup(C.CString(host), cStrings(names), C.int(len(names)))
		if h < 0 {
			return nil, fmt.Errorf("libpcp context on %s or lookup failed: %d", host, h)
		}
		return func(n int) uint64 { return uint64(C.bench_fetch(h, C.int(n))) }, nil
	}
	blkTCP, err := fetch(fp.tcp, pmapi.Options{BlockingIO: true})
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	pollTCP, err := fetch(fp.tcp, pmapi.Options{})
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	blkUnix, err := fetch("unix:"+fp.unix, pmapi.Options{BlockingIO: true})
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	cTCP, err := libpcp(fp.tcp)
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	cUnix, err := libpcp("unix:" + fp.unix)
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	floorTCP, err := rawFetch("", fp.tcp)
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	floorUnix, err := rawFetch(fp.unix, "")
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	decode, err := decodeAlone()
	if err != nil {
		f.cleanup()
		return fail(err.Error())
	}
	// The fake answers in microseconds: fixed counts still keep the
	// rounds near cfg.Target.
	per := max(20, int(cfg.Target/(50*time.Microsecond)))
	f.compareProcCPU(cfg, []Side{
		{Name: "perfwire pmapi.Client.FetchBuf, Dial with Options.BlockingIO, TCP", Fixed: per, Run: blkTCP},
		{Name: "perfwire pmapi.Client.FetchBuf, default Dial (Go network poller), TCP", Fixed: per, Run: pollTCP},
		{Name: "libpcp pmFetch + pmFreeResult (C -O2), TCP", Peer: true, Fixed: per, Run: cTCP},
		{Name: "floor, not a client: C write of the request + blocking reads of the reply, nothing decoded, TCP", Fixed: per, Run: floorTCP, NoRatio: true, NoSum: true},
		{Name: "perfwire pmapi.Client.FetchBuf, Options.BlockingIO, unix socket", Fixed: per, Run: blkUnix, NoRatio: true},
		{Name: "libpcp pmFetch + pmFreeResult (C -O2), unix socket", Fixed: per, Run: cUnix, NoRatio: true},
		{Name: "floor, not a client: the same C loop, unix socket", Fixed: per, Run: floorUnix, NoRatio: true, NoSum: true},
		{Name: "floor, not a client: the recorded reply parsed and walked as FetchBuf's caller does, no I/O (pduwire.ParseResult)", Fixed: per, Run: decode, NoRatio: true},
	})
	f.Floor = fetchFloor(f.Stats[2], f.Stats[3], f.Stats[7], f.MinRatio)
	for _, st := range f.Stats[:2] {
		// As the table prints them: the count is of the whole process, and
		// a runtime allocation now and then is not the fetch's.
		if st.Err == "" && math.Round(st.GoAllocs*10) > 0 {
			f.SubMiss = append(f.SubMiss, fmt.Sprintf("%s allocates %.1f times (%.0f B) per fetch; the goal is none.", st.Name, st.GoAllocs, st.GoBytes))
		}
	}
	if u, c := f.Stats[4], f.Stats[5]; u.Med > 0 && c.Med > 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("Over the unix socket (both clients on the fake's socket, `unix:PATH`) perfwire's CPU per fetch is %s against libpcp's %s: %.2fx.",
			human(u.Med), human(c.Med), c.Med/u.Med))
	}
	f.Notes = append(f.Notes, "The fake pmcd is this binary in -fakepmcd mode, a process of its own: the CPU column is the client process's user+system time per fetch "+
		"(all threads: the Go runtime's too), and none of it is the server's. The wall column is the round trip through the fake on this shared 2-CPU machine.",
		"Both clients send HIGHRES_FETCH (pmcd offers it; libpcp 6.0.3's pmFetch uses it too) and read the same recorded 2,404-byte HIGHRES_RESULT; the floor rows send the recorded request and read that reply without decoding it, the least any client over that transport can spend.")
	checkSums(&f)
	return f
}

// decodeAlone parses the fake's recorded HIGHRES_RESULT and walks its
// value sets as fetchLoop does, with no I/O: what a client that makes the
// floor's system calls still has to spend on the reply.
func decodeAlone() (func(n int) uint64, error) {
	conv, err := os.ReadFile(fakeConv)
	if err != nil {
		return nil, err
	}
	_, replies, err := fakeReplies(conv)
	if err != nil {
		return nil, err
	}
	reply := replies[pduwire.TypeHighResFetch]
	if reply == nil {
		return nil, errors.New(fakeConv + " holds no HIGHRES_RESULT")
	}
	return countLoop(func() (pduwire.Result, error) { return pduwire.ParseResult(reply) }), nil
}

// fetchFloor is the figure's floor text when its ratio is out of reach
// in this run: a client needs at least the transport floor's CPU plus
// the decode of the reply, and when that sum is above the peer's time
// divided by the goal's ratio, no client reaches the goal. It is empty
// when the floor leaves room (the goal is then simply missed or met).
func fetchFloor(peer, transport, decode Stat, goal float64) string {
	if peer.Med == 0 || transport.Med == 0 || decode.Med == 0 {
		return ""
	}
	need := peer.Med / goal
	least := transport.Med + decode.Med
	if least <= need {
		return ""
	}
	return fmt.Sprintf("%.1fx libpcp over TCP is %s of CPU per fetch; in this run the transport floor (the C loop's write and "+
		"reads, nothing decoded) is %s and the decode of the same reply alone (no I/O) %s: %s together, %.2fx libpcp at best, "+
		"before the Go runtime's part in two blocking system calls or any client state.",
		goal, human(need), human(transport.Med), human(decode.Med), human(least), peer.Med/least)
}

// rawFetch connects the C floor loop to the fake pmcd (the unix socket
// at path, or TCP at addr) and returns its side: the recorded CREDS once,
// then the recorded HIGHRES_FETCH and its reply per operation.
func rawFetch(path, addr string) (func(n int) uint64, error) {
	b, err := os.ReadFile(fakeClientConv)
	if err != nil {
		return nil, err
	}
	var creds, fetch []byte
	for p, err := range pduwire.All(b, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen}) {
		if err != nil {
			return nil, err
		}
		switch p.Header.Type {
		case pduwire.TypeCreds:
			creds = p.Bytes
		case pduwire.TypeHighResFetch:
			fetch = p.Bytes
		}
	}
	if creds == nil || fetch == nil {
		return nil, fmt.Errorf("%s: no CREDS or HIGHRES_FETCH", fakeClientConv)
	}
	var cpath *C.char
	port := 0
	if path != "" {
		cpath = C.CString(path)
	} else {
		_, p, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if port, err = strconv.Atoi(p); err != nil {
			return nil, err
		}
	}
	fd := C.bench_rawfetch_setup(cpath, C.int(port), cBytes(creds), C.int(len(creds)))
	if fd < 0 {
		return nil, errors.New("the C floor loop cannot connect to the fake pmcd")
	}
	cfetch := cBytes(fetch)
	return func(n int) uint64 { return uint64(C.bench_rawfetch(fd, cfetch, C.int(len(fetch)), C.int(n))) }, nil
}
