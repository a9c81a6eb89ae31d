package main

const speedVersion = "github.com/performancecopilot/speed/v4 v4.0.0 (Go module)"
