package main

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// progressEvery is how often a running stage reports on stderr: a full
// fleet takes tens of minutes and must not run silent.
const progressEvery = 30 * time.Second

// stage reports a named stage of the run on stderr: its start, a line
// every progressEvery with what status returns, and its end with its
// wall time.
type stage struct {
	name  string
	start time.Time
	stop  chan struct{}
	done  chan struct{}
}

func startStage(name string, status func() string) *stage {
	s := &stage{name: name, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	fmt.Fprintf(os.Stderr, "fleet: %s: started\n", name)
	go func() {
		defer close(s.done)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				fmt.Fprintf(os.Stderr, "fleet: %s: %.0f s, %s\n", name, time.Since(s.start).Seconds(), status())
			}
		}
	}()
	return s
}

// end stops the reports and prints the stage's wall time.
func (s *stage) end() time.Duration {
	close(s.stop)
	<-s.done
	d := time.Since(s.start)
	fmt.Fprintf(os.Stderr, "fleet: %s: done in %.1f s\n", s.name, d.Seconds())
	return d
}

// dirStatus reports the bytes under dir so far.
func dirStatus(dir string) func() string {
	return func() string { return mb(dirSize(dir)) + " written" }
}

// countStatus reports n of total done.
func countStatus(n *atomic.Int64, total int, what string) func() string {
	return func() string { return fmt.Sprintf("%d of %d %s", n.Load(), total, what) }
}
