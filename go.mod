module github.com/perfwire/perfwire

go 1.26

require sigs.k8s.io/randfill v1.0.0
