package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/perfwire/perfwire/dlt"
)

const serveUsage = `usage: perfwire serve [--addr HOST:PORT] [--dir DIR] [--dlt HOST[:PORT]]
                     [--pmcd HOST[:PORT] [--interval DUR] [METRIC ...]]

Serves the browser viewer (built by make web into viewer/dist) and relays
live sources to it, which the page decodes as they arrive with the same
wasm module as files:

  --addr HOST:PORT  where to listen (default 127.0.0.1:8088; keep it on
                    loopback unless the network is yours)
  --dir DIR         the built viewer (default viewer/dist)
  --dlt HOST[:PORT] a dlt-daemon (port 3490 by default) to relay on
                    /live/dlt as a .dlt stream: each message with a storage
                    header carrying the time it was received, as
                    dlt-receive -o writes it (the page's "live" link, or
                    index.html?src=live/dlt)
  --pmcd HOST[:PORT] a pmcd (port 44321 by default) to relay on /live/pmcd
                    as a PCP PDU stream: the metrics' names and pmIDs, their
                    descriptors, instances, help text and labels, then a
                    RESULT every interval (index.html?src=live/pmcd, or the
                    page's metric box). The METRICs named here are followed
                    when the page names none; /live/pmcd?metric=NAME&
                    metric=NAME&interval=DUR names its own. A name that is
                    not a leaf stands for every metric below it.
                    /live/pmcd/names?prefix=NAME lists the namespace below
                    NAME (JSON), which the page's metric box offers.
  --interval DUR    the pmcd relay's default interval (default 1s; 100ms
                    to 1h)`

// relayRetry is how long the relay keeps trying to reach a daemon that
// went away while a page was reading.
const relayRetry = 30 * time.Second

func runServe(args []string, stdout io.Writer) error {
	fs := quietFlags("serve")
	addr := fs.String("addr", "127.0.0.1:8088", "listen address")
	dir := fs.String("dir", "viewer/dist", "the built viewer")
	daemon := fs.String("dlt", "", "dlt-daemon HOST[:PORT] to relay")
	pmcd := fs.String("pmcd", "", "pmcd HOST[:PORT] to relay")
	every := fs.Duration("interval", time.Second, "the pmcd relay's interval")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, serveUsage)
			return nil
		}
		return usagef("%v\n%s", err, serveUsage)
	}
	if fs.NArg() != 0 && *pmcd == "" {
		return usagef("serve takes metric names only with --pmcd\n%s", serveUsage)
	}
	if *every < minLiveEvery || *every > maxLiveEvery {
		return usagef("--interval %v: want %v to %v\n%s", *every, minLiveEvery, maxLiveEvery, serveUsage)
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		return fmt.Errorf("no viewer in %s (build it with make web): %w", *dir, err)
	}
	if *daemon != "" {
		*daemon = daemonAddr(*daemon)
	}
	var relay *pmcdRelay
	if *pmcd != "" {
		relay = &pmcdRelay{addr: pmcdAddr(*pmcd), metrics: fs.Args(), every: *every}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: serveMux(*dir, *daemon, relay), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); srv.Close() }()
	// Tests and scripts read the address from this line.
	fmt.Fprintf(os.Stderr, "perfwire serve: http://%s/\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveMux serves the viewer's files from dir and, when daemon is set,
// /live/dlt, when pmcd is, /live/pmcd and /live/pmcd/names (its
// namespace), and /live: what can be followed, as JSON ({"dlt": ADDR,
// "pmcd": ADDR, "metrics": [the command line's]}).
func serveMux(dir, daemon string, pmcd *pmcdRelay) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	live := struct {
		DLT     string   `json:"dlt"`
		PMCD    string   `json:"pmcd"`
		Metrics []string `json:"metrics"`
	}{DLT: daemon, Metrics: []string{}}
	if pmcd != nil {
		live.PMCD = pmcd.addr
		live.Metrics = append(live.Metrics, pmcd.metrics...)
		mux.Handle("/live/pmcd", pmcd)
		mux.HandleFunc("/live/pmcd/names", pmcd.names)
	}
	mux.HandleFunc("/live", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(live)
	})
	if daemon != "" {
		mux.HandleFunc("/live/dlt", func(w http.ResponseWriter, r *http.Request) { relayDLT(w, r, daemon) })
	}
	return mux
}

// relayDLT streams the daemon's messages to one page as a .dlt file
// stream. A daemon that cannot be reached is a 502 with the reason; one
// that goes away mid-stream is dialled again for relayRetry.
func relayDLT(w http.ResponseWriter, r *http.Request, daemon string) {
	ctx := r.Context()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", daemon)
	if err != nil {
		http.Error(w, "dlt-daemon at "+daemon+" is not reachable: "+err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	flush := w.(http.Flusher)
	flush.Flush()
	out := make([]byte, 0, 16+dlt.MaxMessageLen)
	for {
		stopped := context.AfterFunc(ctx, func() { conn.Close() })
		err := readBare(conn, func(m dlt.Message) bool {
			out = storageRecord(out[:0], m, time.Now())
			if _, err := w.Write(out); err != nil {
				return false
			}
			flush.Flush()
			return true
		})
		stopped()
		conn.Close()
		if ctx.Err() != nil {
			return
		}
		log.Printf("perfwire serve: dlt-daemon at %s: %v; dialling again", daemon, errOrEOF(err))
		if conn, err = redial(ctx, daemon); err != nil {
			log.Printf("perfwire serve: dlt-daemon at %s: %v; giving up", daemon, err)
			return
		}
	}
}

func errOrEOF(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// redial tries to reach the daemon again, once a second, for relayRetry.
func redial(ctx context.Context, daemon string) (net.Conn, error) {
	var d net.Dialer
	deadline := time.Now().Add(relayRetry)
	for {
		conn, err := d.DialContext(ctx, "tcp", daemon)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return conn, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
