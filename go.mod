module github.com/perfwire/perfwire

go 1.26

toolchain go1.26.10

require (
	github.com/klauspost/compress v1.20.4
	github.com/tetratelabs/wazero v1.12.0
	github.com/tinylib/msgp v1.6.5
	github.com/ulikunitz/xz v0.5.15
	golang.org/x/exp v0.0.0-20231110203233-9a3e6036ecaa
	golang.org/x/sys v0.44.0
	golang.org/x/term v0.42.0
	sigs.k8s.io/randfill v1.0.0
)

require (
	github.com/philhofer/fwd v1.2.0 // indirect
	golang.org/x/mod v0.18.0 // indirect
	golang.org/x/tools v0.22.0 // indirect
)

tool github.com/tinylib/msgp
