# perfwire — the two commands for users are `make demo` and `make test`.
# Every target installs what it needs on a fresh Debian 12 machine with Go.

GO          ?= go
FUZZTIME    ?= 5s
LONGFUZZ    ?= 5m
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

.PHONY: demo test test-unit conformance fuzz-smoke fuzz bench bench-quick bench-go wasm lint stacks-up stacks-down

## demo: decode the bundled real captures and print what they say.
demo:
	bash scripts/demo.sh

## test: lint, unit tests and conformance tests against a real pmcd and dlt-daemon.
test: lint
	bash scripts/test.sh

## test-unit: every test that needs no real PCP or DLT stack.
test-unit:
	$(GO) test -count=1 ./...

## conformance: the tests against the real tools (starts the stacks, stops them after).
conformance:
	bash scripts/test.sh -run Conformance

## fuzz-smoke: every native fuzz target for $(FUZZTIME).
fuzz-smoke:
	bash scripts/fuzz.sh $(FUZZTIME)

## fuzz: every native fuzz target for $(LONGFUZZ).
fuzz:
	bash scripts/fuzz.sh $(LONGFUZZ)

## bench: perfwire side by side with libpcp, python3-pcp, speed, dlt-convert
## and naive Go on the same inputs; rewrites bench/RESULTS.md (starts pmcd).
bench:
	GO=$(GO) bash bench/run.sh -out RESULTS.md

## bench-quick: every comparison once, briefly (CI: checks they still run).
bench-quick:
	GO=$(GO) bash bench/run.sh -quick

## bench-go: the packages' own Go benchmarks with allocation counts.
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## wasm: the core packages and plugins built for GOOS=wasip1 and GOOS=js.
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build ./pcp/... ./pduwire/... ./labels/... ./eventrec/... ./mmv/... ./dlt/... ./dltkpi/... ./ltt/...
	GOOS=js GOARCH=wasm $(GO) build ./pcp/... ./pduwire/... ./labels/... ./eventrec/... ./mmv/... ./dlt/... ./dltkpi/... ./ltt/...

## lint: gofmt, go vet and staticcheck.
lint: $(STATICCHECK)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags conformance ./...
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags conformance ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

stacks-up:
	bash scripts/pcp-up.sh
	bash scripts/dlt-up.sh

stacks-down:
	bash scripts/dlt-down.sh
	bash scripts/pcp-down.sh
