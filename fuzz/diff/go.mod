module github.com/perfwire/perfwire/fuzz/diff

go 1.26.0

toolchain go1.26.10

require github.com/perfwire/perfwire v0.0.0

replace github.com/perfwire/perfwire => ../..
