module github.com/perfwire/perfwire

go 1.26.0

toolchain go1.26.10

require (
	github.com/klauspost/compress v1.20.4
	github.com/parquet-go/parquet-go v0.32.1
	github.com/tetratelabs/wazero v1.12.0
	github.com/tinylib/msgp v1.6.5
	github.com/ulikunitz/xz v0.5.15
	golang.org/x/exp v0.0.0-20231110203233-9a3e6036ecaa
	golang.org/x/sys v0.48.0
	golang.org/x/term v0.42.0
	sigs.k8s.io/randfill v1.0.0
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/parquet-go/bitpack v1.0.3 // indirect
	github.com/parquet-go/jsonlite v1.5.5 // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/mod v0.18.0 // indirect
	golang.org/x/tools v0.22.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

tool github.com/tinylib/msgp
