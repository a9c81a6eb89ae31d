package main

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

// A daemon that sends damaged bytes and hangs up, then one that sends a
// real dlt-kpi capture: the bridge logs the first, reconnects, and ends
// having counted the capture's ground-truth processes started and
// stopped, its instances named as the proc PMDA names them.
func TestPMDADltkpiSurvivesDamageAndReconnects(t *testing.T) {
	const name = "kpi-odd"
	var msgs [][]byte
	if _, _, err := readKPIFile(kpiTestdata+name+".dlt", func(_ int, m dlt.Message) (bool, error) {
		// What a daemon sends: the record without its 16-byte storage header.
		msgs = append(msgs, append([]byte(nil), m.Bytes()[16:]...))
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan struct{})
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		// A standard header that claims more bytes than follow, then junk.
		c.Write([]byte{0x35, 0x00, 0x00, 0xff, 'E', 'C', 'U', '1', 1, 2, 3})
		c.Write([]byte(strings.Repeat("\xff", 300)))
		c.Close()
		c, err = ln.Accept()
		if err != nil {
			return
		}
		for _, m := range msgs {
			c.Write(m)
		}
		close(served)
		<-time.After(10 * time.Second)
		c.Close()
	}()
	var mu sync.Mutex
	var logged []string
	b := newKPIBridge(4096, func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(f, a...))
		mu.Unlock()
	})
	a, err := b.agent(dltkpiDomain, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go b.follow(ctx, ln.Addr().String())
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge never reconnected")
	}
	// The ground truth's processes (odd command lines) start and end
	// within the capture: each is a NEW and an end the bridge counts.
	truth := truthPIDs(t, kpiTestdata+name+".truth.tsv")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := b.refresh(); err != nil {
			t.Fatal(err)
		}
		if b.snap.started >= uint64(len(truth)) && b.snap.stopped >= uint64(len(truth)) {
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("started %d, stopped %d: want at least the %d ground-truth processes each (log: %q)", b.snap.started, b.snap.stopped, len(truth), logged)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ins := a.Instances(a.InDom(dkProcs))
	if len(ins) == 0 {
		t.Fatal("no process instances")
	}
	for _, in := range ins {
		if want := fmt.Sprintf("%06d ", in.ID); !strings.HasPrefix(in.Name, want) {
			t.Errorf("instance %d is named %q, want the prefix %q", in.ID, in.Name, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) == 0 || !strings.Contains(strings.Join(logged, "\n"), "reconnecting") {
		t.Errorf("the hang-up was not logged: %q", logged)
	}
}

// truthPIDs reads the pid column of a capture's ground truth.
func truthPIDs(t *testing.T, path string) []int32 {
	b := readTestFile(t, path)
	var pids []int32
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		n, err := strconv.Atoi(strings.Fields(l)[0])
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, int32(n))
	}
	if len(pids) == 0 {
		t.Fatal("no pids in " + path)
	}
	return pids
}
