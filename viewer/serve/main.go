// Command serve serves the built web viewer (viewer/dist) on loopback:
//
//	go run ./viewer/serve [-addr 127.0.0.1:8088] [-dir viewer/dist]
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8088", "listen address (keep it on loopback)")
	dir := flag.String("dir", "viewer/dist", "directory built by scripts/web-build.sh")
	flag.Parse()
	log.Printf("perfwire viewer on http://%s/ (Ctrl-C stops it)", *addr)
	log.Fatal(http.ListenAndServe(*addr, http.FileServer(http.Dir(*dir))))
}
