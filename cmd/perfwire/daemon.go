package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

// daemonAddr adds dlt-daemon's default port, 3490, to a bare host.
func daemonAddr(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return net.JoinHostPort(addr, "3490")
	}
	return addr
}

// followDaemon connects to a running dlt-daemon and hands each message to
// fn as it arrives until fn returns false, the daemon ends the stream, or
// the user interrupts (which is no error).
func followDaemon(addr string, fn func(dlt.Message) bool) error {
	addr = daemonAddr(addr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connecting to dlt-daemon at %s: %w", addr, err)
	}
	defer conn.Close()
	go func() { <-ctx.Done(); conn.Close() }()
	err = readBare(conn, fn)
	if ctx.Err() != nil || err == nil || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return fmt.Errorf("dlt-daemon at %s: %w", addr, err)
}

// readBare hands each message of a running dlt-daemon's TCP stream (bare
// framing: standard headers back to back) to fn as soon as it has
// arrived, until fn returns false or the stream ends.
func readBare(r io.Reader, fn func(dlt.Message) bool) error {
	s := dlt.NewReader(r, dlt.Options{Framing: dlt.FramingBare})
	for s.Next() {
		if !fn(s.Message()) {
			return nil
		}
	}
	return s.Err()
}

// storageRecord appends m with a storage header stamped at t, its ECU id
// the message's or, without one, dlt-receive's default "RECV".
func storageRecord(b []byte, m dlt.Message, t time.Time) []byte {
	ecu, ok := m.HeaderECU()
	if !ok {
		ecu = dlt.ID{'R', 'E', 'C', 'V'}
	}
	b = dlt.AppendStorageHeader(b, dlt.StorageHeader{Seconds: uint32(t.Unix()), Microseconds: int32(t.Nanosecond() / 1000), ECU: ecu})
	return append(b, m.Bytes()...)
}

// readDLTFile hands the messages of a .dlt file to fn, in order, until fn
// returns false or an error; it reports the damage it resynchronised over
// on stderr (see reportSkipped) and returns the bytes and places skipped.
// The reader keeps a bounded buffer, so files of any size stream through;
// each message is fully handled before the next is read.
func readDLTFile(name string, fn func(index int, m dlt.Message) (more bool, err error)) (skipped, places int, err error) {
	return readDLT(name, false, fn)
}

// readKPIFile is readDLTFile for the KPI commands, which read a serial
// capture too ("DLS" 01 before each message, as a serial line carries
// them; the viewer reads one): a file that starts with that pattern is
// read in the serial framing, resynchronising over damage on it.
func readKPIFile(name string, fn func(index int, m dlt.Message) (more bool, err error)) (skipped, places int, err error) {
	return readDLT(name, true, fn)
}

func readDLT(name string, serialOK bool, fn func(index int, m dlt.Message) (more bool, err error)) (skipped, places int, err error) {
	f, done, err := openWithProgress(name)
	if err != nil {
		return 0, 0, &inputError{file: name, err: err}
	}
	defer done()
	br := bufio.NewReader(f)
	opt := dlt.Options{}
	if serialOK {
		head, _ := br.Peek(4)
		opt.Framing = framingOf(head)
	}
	s := dlt.NewReader(br, opt)
	for i := 0; s.Next(); i++ {
		more, err := fn(i, s.Message())
		if err != nil {
			return s.Skipped(), s.Resyncs(), err
		}
		if !more {
			break
		}
	}
	reportSkipped(name, s.Skipped(), s.Resyncs(), s.SkipError())
	if err := s.Err(); err != nil {
		return s.Skipped(), s.Resyncs(), &inputError{file: name, err: err}
	}
	return s.Skipped(), s.Resyncs(), nil
}

// framingOf is the framing of a KPI file that starts with head: serial
// when it starts with the serial header ("DLS" 01), storage otherwise.
func framingOf(head []byte) dlt.Framing {
	if bytes.HasPrefix(head, []byte("DLS\x01")) {
		return dlt.FramingSerial
	}
	return dlt.FramingStorage
}

// fileFraming is framingOf a file's first bytes; a file that cannot be
// read is left to the reader to report.
func fileFraming(name string) dlt.Framing {
	f, err := os.Open(name)
	if err != nil {
		return dlt.FramingStorage
	}
	defer f.Close()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	return framingOf(head[:n])
}

// framingName names a framing in messages.
func framingName(f dlt.Framing) string {
	if f == dlt.FramingSerial {
		return "serial"
	}
	return "storage"
}
