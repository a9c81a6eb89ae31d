module github.com/perfwire/perfwire

go 1.26
