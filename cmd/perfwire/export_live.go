package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/export/parquet"
)

// liveDLT exports a running dlt-daemon's messages into rolling files: a
// new set of files (part-live-START.parquet in each partition) every
// roll, or sooner once rollBytes of messages have gone into the current
// set. A set appears when it is closed, whole; the one being written is
// under a temporary name. An interrupt closes the current set and ends
// the export, as does the end of the rolls'th set (0: no end).
func liveDLT(d *parquet.Dir, addr, host string, roll time.Duration, rollBytes int64, rolls int, stdout io.Writer) error {
	var (
		out     *parquet.Output
		stream  *parquet.DLTStream
		started time.Time
		bytes   int64
		stats   parquet.Stats
		rec     []byte
		werr    error
		sets    int
	)
	open := func(now time.Time) {
		out = d.Output("live-" + strconv.FormatInt(now.UnixNano(), 10))
		stream = out.DLTStream("live-"+addr, host)
		started, bytes = now, 0
	}
	commit := func() error {
		if out == nil {
			return nil
		}
		err := out.Commit()
		stats.Files += out.Stats.Files
		stats.Rows += out.Stats.Rows
		stats.Bytes += out.Stats.Bytes
		out = nil
		return err
	}
	err := followDaemon(addr, func(m dlt.Message) bool {
		now := time.Now()
		if out != nil && (now.Sub(started) >= roll || bytes >= rollBytes) {
			if werr = commit(); werr != nil {
				return false
			}
			if sets++; rolls > 0 && sets >= rolls {
				return false
			}
		}
		if out == nil {
			open(now)
		}
		rec = storageRecord(rec[:0], m, now)
		sm, _, err := dlt.ConsumeMessage(rec, dlt.Options{})
		if err != nil {
			return true // not a message the storage framing reads back: passed over
		}
		bytes += int64(len(rec))
		if werr = stream.Push(sm); werr != nil {
			out.Abort()
			out = nil
			return false
		}
		return true
	})
	if werr == nil {
		werr = commit()
	} else if out != nil {
		out.Abort()
	}
	fmt.Fprintf(stdout, "exported dlt-daemon %s: %d files, %d rows, %s out\n", addr, stats.Files, stats.Rows, sizeText(stats.Bytes))
	if werr != nil {
		return &writeError{file: addr, err: werr}
	}
	return err
}

// livePmcd exports a pmcd's metrics into rolling files: it records an
// archive of roll (samples every interval, with the recorder of perfwire
// archive record) into a temporary directory, exports it, and removes it;
// rolls times, or until interrupted (the roll being recorded is finished
// and exported first). Each roll's files appear whole when it is
// exported.
func livePmcd(d *parquet.Dir, host string, interval, roll time.Duration, rolls int, metrics []string, stdout io.Writer) error {
	samples := max(1, int(roll/interval))
	tmp, err := os.MkdirTemp("", "perfwire-export-pmcd-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	var stats parquet.Stats
	for n := 0; ; n++ {
		base := filepath.Join(tmp, "roll"+strconv.Itoa(n))
		args := append([]string{"-o", base, "-h", host, "-t", interval.String(), "-s", strconv.Itoa(samples)}, metrics...)
		if err := runArchiveRecord(args, io.Discard); err != nil {
			return err
		}
		a, err := openArchive(base)
		if err != nil {
			return err
		}
		out := d.Output("live-" + strconv.FormatInt(a.Label.Start.Sec*1e9+int64(a.Label.Start.Nsec), 10))
		_, err = out.Archive(a, "live-"+host, "")
		a.Close()
		if err == nil {
			err = out.Commit()
		} else {
			out.Abort()
		}
		if err != nil {
			return &writeError{file: host, err: err}
		}
		stats.Files += out.Stats.Files
		stats.Rows += out.Stats.Rows
		stats.Bytes += out.Stats.Bytes
		for _, suf := range []string{".meta", ".index", ".0"} {
			os.Remove(base + suf)
		}
		done := rolls > 0 && n+1 >= rolls
		select {
		case <-stop:
			done = true
		default:
		}
		if done {
			fmt.Fprintf(stdout, "exported pmcd %s: %d files, %d rows, %s out\n", host, stats.Files, stats.Rows, sizeText(stats.Bytes))
			return nil
		}
	}
}
