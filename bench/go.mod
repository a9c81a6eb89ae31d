module github.com/perfwire/perfwire/bench

go 1.26.0

toolchain go1.26.10

require (
	github.com/performancecopilot/speed/v4 v4.0.0
	github.com/perfwire/perfwire v0.0.0
	github.com/tetratelabs/wazero v1.12.0
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.1.0 // indirect
	github.com/edsrzf/mmap-go v1.0.0 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/tinylib/msgp v1.6.5 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/perfwire/perfwire => ../
