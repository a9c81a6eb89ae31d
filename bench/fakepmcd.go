package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// The fetch-client figure's fake pmcd answers from a recording of the
// real pmcd: fakeConv is pmcd's side of one conversation (its handshake
// ERROR PDU, then the replies to a lookup of the 50 names, a FETCH and a
// HIGHRES_FETCH of them), fakeClientConv the requests that drew them.
// `go run . -record-pmcd` makes both from the running pmcd.
const (
	fakeConv       = "testdata/pmcd-fetch50.server.bin"
	fakeClientConv = "testdata/pmcd-fetch50.client.bin"
)

// recordPmcd holds one conversation with the pmcd at addr, as a client
// that looks up names, sets the default profile and fetches the metrics
// once with FETCH and once with HIGHRES_FETCH, and writes both sides'
// bytes to fakeConv and fakeClientConv.
func recordPmcd(addr string, names []string) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	rd := pduwire.NewReader(conn, pduwire.Options{})
	var server, client []byte
	next := func(want pduwire.Type) (pduwire.PDU, error) {
		if !rd.Next() {
			return pduwire.PDU{}, fmt.Errorf("pmcd: no %v reply: %v", want, rd.Err())
		}
		p := rd.PDU()
		if p.Header.Type != want {
			return p, fmt.Errorf("pmcd replied %v, want %v", p.Header.Type, want)
		}
		server = append(server, p.Bytes...)
		return p, nil
	}
	send := func(b []byte) error {
		client = append(client, b...)
		_, err := conn.Write(b)
		return err
	}
	p, err := next(pduwire.TypeError)
	if err != nil {
		return err
	}
	var hello pduwire.ErrorPDU
	if err := hello.UnmarshalBinary(p.Bytes); err != nil {
		return err
	}
	features := pduwire.Features(hello.Datum)
	if !features.HighResFetch() {
		return errors.New("pmcd does not offer HIGHRES_FETCH")
	}
	req := pduwire.PMNSNamesPDU{}
	for _, n := range names {
		req.Names = append(req.Names, []byte(n))
	}
	if err := send(pduwire.AppendClientCreds(nil, int32(os.Getpid()), pduwire.ClientFlags(features))); err != nil {
		return err
	}
	if err := send(req.Append(nil, 0)); err != nil {
		return err
	}
	if p, err = next(pduwire.TypePMNSIDs); err != nil {
		return err
	}
	var ids pduwire.PMNSIDsPDU
	if err := ids.UnmarshalBinary(p.Bytes); err != nil || ids.Status < 0 || len(ids.PMIDs) != len(names) {
		return fmt.Errorf("pmcd's PMNS_IDS: %v (status %d)", err, ids.Status)
	}
	pmids := append([]pcp.ID(nil), ids.PMIDs...)
	if err := send((&pduwire.ProfilePDU{State: pduwire.ProfileInclude}).Append(nil, 0)); err != nil {
		return err
	}
	for _, hr := range []bool{false, true} {
		if err := send((&pduwire.FetchPDU{HighRes: hr, PMIDs: pmids}).Append(nil, 0)); err != nil {
			return err
		}
		want := pduwire.TypeResult
		if hr {
			want = pduwire.TypeHighResResult
		}
		if _, err := next(want); err != nil {
			return err
		}
	}
	if err := os.WriteFile(fakeConv, server, 0o644); err != nil {
		return err
	}
	return os.WriteFile(fakeClientConv, client, 0o644)
}

// fakeReplies splits a recorded server side into the handshake PDU and
// the reply to each request type it answers.
func fakeReplies(conv []byte) (hello []byte, replies map[pduwire.Type][]byte, err error) {
	answers := map[pduwire.Type]pduwire.Type{
		pduwire.TypePMNSIDs:       pduwire.TypePMNSNames,
		pduwire.TypeResult:        pduwire.TypeFetch,
		pduwire.TypeHighResResult: pduwire.TypeHighResFetch,
	}
	replies = map[pduwire.Type][]byte{}
	for p, err := range pduwire.All(conv, pduwire.Options{}) {
		if err != nil {
			return nil, nil, err
		}
		if hello == nil {
			if p.Header.Type != pduwire.TypeError {
				return nil, nil, fmt.Errorf("recording starts with %v, not pmcd's handshake ERROR", p.Header.Type)
			}
			hello = p.Bytes
			continue
		}
		req, ok := answers[p.Header.Type]
		if !ok {
			return nil, nil, fmt.Errorf("recording holds a %v PDU, which answers nothing the fake serves", p.Header.Type)
		}
		replies[req] = p.Bytes
	}
	if hello == nil || len(replies) != len(answers) {
		return nil, nil, errors.New("recording lacks the handshake or a reply")
	}
	return hello, replies, nil
}

// runFakePmcd is the -fakepmcd mode: a pmcd that answers instantly from
// the recording, on TCP (127.0.0.1, a free port) and on a unix socket in
// a new temporary directory. It prints the two addresses on one line and
// serves until its standard input ends (its parent closing it, or
// exiting). CREDS and PROFILE get no reply, as from pmcd; every other
// request is answered with the recorded reply to its type, or
// PM_ERR_NYI.
func runFakePmcd(conv string) error {
	b, err := os.ReadFile(conv)
	if err != nil {
		return err
	}
	hello, replies, err := fakeReplies(b)
	if err != nil {
		return fmt.Errorf("%s: %v", conv, err)
	}
	nyi := (&pduwire.ErrorPDU{Code: int32(pcp.ErrNYI)}).Append(nil, 0)
	dir, err := os.MkdirTemp("", "perfwire-fakepmcd-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	unix, err := net.Listen("unix", filepath.Join(dir, "pmcd.socket"))
	if err != nil {
		return err
	}
	serve := func(conn net.Conn) {
		defer conn.Close()
		if _, err := conn.Write(hello); err != nil {
			return
		}
		rd := pduwire.NewReader(conn, pduwire.Options{MaxPDULen: pduwire.ServerMaxPDULen})
		for rd.Next() {
			t := rd.PDU().Header.Type
			if t == pduwire.TypeCreds || t == pduwire.TypeProfile {
				continue
			}
			reply, ok := replies[t]
			if !ok {
				reply = nyi
			}
			if _, err := conn.Write(reply); err != nil {
				return
			}
		}
	}
	for _, ln := range []net.Listener{tcp, unix} {
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				go serve(conn)
			}
		}()
	}
	fmt.Printf("%s %s\n", tcp.Addr(), unix.Addr())
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// fakePmcd is a running -fakepmcd child: its TCP address and socket path.
type fakePmcd struct {
	cmd       *exec.Cmd
	stdin     io.Closer
	tcp, unix string
}

// startFakePmcd runs this binary in -fakepmcd mode, as a process of its
// own so that the CPU time of the process being measured is the client's
// alone.
func startFakePmcd() (*fakePmcd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-fakepmcd", fakeConv)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	fp := &fakePmcd{cmd: cmd, stdin: in}
	line, err := bufio.NewReader(out).ReadString('\n')
	addrs := strings.Fields(line)
	if err != nil || len(addrs) != 2 {
		fp.stop()
		return nil, fmt.Errorf("fake pmcd did not start: %q, %v", line, err)
	}
	fp.tcp, fp.unix = addrs[0], addrs[1]
	return fp, nil
}

func (fp *fakePmcd) stop() {
	fp.stdin.Close()
	fp.cmd.Wait()
}
