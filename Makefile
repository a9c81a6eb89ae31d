# perfwire — the two commands for users are `make demo` and `make test`.
# Every target installs what it needs on a fresh Debian 12 machine with Go.

GO          ?= go
# go.mod names the toolchain (go1.26.10: the first without the standard
# library's known vulnerabilities that govulncheck reports for go1.26.8);
# auto lets go fetch it from the module proxy where the machine's Go is
# older, even where the environment says local.
export GOTOOLCHAIN := auto
FUZZTIME    ?= 2s
LONGFUZZ    ?= 10m
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
GOVULNCHECK := $(shell $(GO) env GOPATH)/bin/govulncheck
# The vulnerability database govulncheck reads: the Go module proxy's copy
# of golang.org/x/vulndb (its data/osv), pinned, because vuln.go.dev is
# not reachable from every machine the tests run on. Refresh it with the
# version `go list -m golang.org/x/vulndb@latest` names.
VULNDB      := golang.org/x/vulndb@v0.0.0-20261105234957-e22db6528018

.PHONY: help demo test test-unit test-wasm conformance fuzz-smoke fuzz fuzz-diff bench bench-quick bench-go wasm web demo-web lint vuln stacks-up stacks-down

## help: list every target with what it does.
help:
	@awk -F': ' '/^## /{sub(/^## /,""); split($$0,a,": "); printf "  %-12s %s\n", a[1], substr($$0, length(a[1])+3)}' $(MAKEFILE_LIST)

## demo: decode the bundled real captures and print what they say.
demo:
	bash scripts/demo.sh

## test: lint, the vulnerability check, unit tests and conformance tests against a real pmcd and dlt-daemon.
test: lint vuln
	bash scripts/test.sh

## test-unit: every test that needs no real PCP or DLT stack.
test-unit:
	$(GO) test -count=1 ./...

## test-wasm: the format packages' tests compiled to WebAssembly (GOOS=js) and run in Node (part of make test).
test-wasm:
	bash scripts/test-wasm.sh

## conformance: the tests against the real tools (starts the stacks, stops them after).
conformance:
	bash scripts/test.sh -run Conformance

## fuzz-smoke: every native fuzz target for $(FUZZTIME) (about 3 minutes in all).
fuzz-smoke:
	bash scripts/fuzz.sh $(FUZZTIME)

## fuzz: every native fuzz target for $(LONGFUZZ); FUZZPKG=./fuzz/... narrows it.
fuzz:
	bash scripts/fuzz.sh $(LONGFUZZ) $(or $(FUZZPKG),./...)

## fuzz-diff: differential run of our decoders against the installed libpcp (cgo, separate module).
fuzz-diff:
	bash scripts/cgo-deps.sh
	cd fuzz/diff && CGO_ENABLED=1 $(GO) test -count=1 -v -run 'TestDiff' . && \
	for f in FuzzDiffPDU FuzzDiffLabels; do \
		CGO_ENABLED=1 $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(or $(DIFFTIME),30s) -fuzzminimizetime 5s . || exit 1; \
	done

## bench: perfwire beside libpcp, python3-pcp, speed, dlt-convert and naive Go on the same inputs; rewrites bench/RESULTS.md (starts pmcd); GROUP=NAME (or NAME,NAME) runs those groups and rewrites only their sections (an unknown NAME lists the groups).
bench:
	GO=$(GO) bash bench/run.sh -out RESULTS.md $(if $(GROUP),-group $(GROUP))

## bench-quick: the bench module's tests, then every comparison once, briefly (CI: checks they still run).
bench-quick:
	GO=$(GO) bash bench/run.sh -quick

## bench-go: the packages' own Go benchmarks with allocation counts.
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## wasm: the core packages for GOOS=wasip1 and GOOS=js; in bin/ the all-formats plugin modules, the one-format ones (tags kpi, pcp, mmv, dlt) and the runtime+msgp baselines, each size against its budget.
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build ./pcp/... ./pduwire/... ./labels/... ./eventrec/... ./mmv/... ./dlt/... ./dltkpi/... ./ltt/... ./archive/...
	GOOS=js GOARCH=wasm $(GO) build ./pcp/... ./pduwire/... ./labels/... ./eventrec/... ./mmv/... ./dlt/... ./dltkpi/... ./ltt/... ./archive/...
	$(GO) run ./wasm/size -dir bin

## web: the browser viewer in viewer/dist (installs Chromium and the npm packages it needs).
web:
	bash scripts/web-deps.sh
	GO=$(GO) bash scripts/web-build.sh

## demo-web: builds the viewer and serves it on http://127.0.0.1:8088/ (open a .dlt, e.g. viewer/testdata/kpi-odd.dlt; DLT=HOST:PORT relays a live dlt-daemon, PMCD=HOST:PORT a pmcd with the METRICS named, e.g. METRICS="sample.load kernel.all.load").
demo-web: web
	$(GO) run ./cmd/perfwire serve --addr 127.0.0.1:8088 --dir viewer/dist $(if $(DLT),--dlt $(DLT)) $(if $(PMCD),--pmcd $(PMCD) $(METRICS))

## lint: gofmt, go vet, staticcheck, go generate leaving no diff, and go mod tidy changing nothing.
lint: $(STATICCHECK)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags conformance ./...
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags conformance ./...
	@# Generated code is committed: regenerating it must change nothing.
	@before=$$(git diff --stat); $(GO) generate ./... && after=$$(git diff --stat); \
		if [ "$$before" != "$$after" ]; then echo "go generate ./... changed committed files:"; git diff --stat; exit 1; fi
	@# go.mod and go.sum of the three modules are tidy.
	$(GO) mod tidy -diff
	cd bench && $(GO) mod tidy -diff
	cd fuzz/diff && $(GO) mod tidy -diff

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

## vuln: govulncheck on the three modules, against the pinned vulnerability database.
vuln: $(GOVULNCHECK)
	bash scripts/cgo-deps.sh
	@db=$$($(GO) mod download -json $(VULNDB) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -d "$$db/data/osv" || { echo "no vulnerability database in '$$db'"; exit 1; }; \
	for m in . bench fuzz/diff; do echo "govulncheck $$m"; (cd $$m && $(GOVULNCHECK) -db file://$$db/data/osv ./...) || exit 1; done

$(GOVULNCHECK):
	$(GO) install golang.org/x/vuln/cmd/govulncheck@v1.9.0

## stacks-up: install and start pmcd (sample, simple, trivial, mmv PMDAs) and dlt-daemon + dlt-kpi.
stacks-up:
	bash scripts/pcp-up.sh
	bash scripts/dlt-up.sh

## stacks-down: stop what stacks-up started.
stacks-down:
	bash scripts/dlt-down.sh
	bash scripts/pcp-down.sh
