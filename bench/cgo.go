package main

/*
#cgo CFLAGS: -O2 -Wall
#cgo LDFLAGS: -lpcp -l:libpcp_mmv.so.1
#include <stdlib.h>
#include <time.h>

static long long thread_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
#include "bench.h"
*/
import "C"

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// cMallocCounters returns the process's C malloc calls and bytes so far.
func cMallocCounters() (calls, bytes uint64) {
	var c, b C.uint64_t
	C.bench_malloc_counters(&c, &b)
	return uint64(c), uint64(b)
}

// cBytes copies b into C memory that lives for the whole run, so that C
// sides read their input without Go pointers crossing into C loops.
func cBytes(b []byte) unsafe.Pointer {
	p := C.malloc(C.size_t(len(b)))
	copy(unsafe.Slice((*byte)(p), len(b)), b)
	return p
}

// cStrings makes a C array of C strings that lives for the whole run.
func cStrings(ss []string) **C.char {
	arr := (**C.char)(C.malloc(C.size_t(len(ss)) * C.size_t(unsafe.Sizeof(uintptr(0)))))
	v := unsafe.Slice(arr, len(ss))
	for i, s := range ss {
		v[i] = C.CString(s)
	}
	return arr
}

// processCPU returns the user+system CPU time of the whole process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU returns the CPU time of the calling OS thread. Rounds run
// with the goroutine locked to its thread, so this counts only the work
// of the side being timed (Go code and the C it calls), not the time the
// thread waited for a CPU on this shared machine.
func threadCPU() time.Duration { return time.Duration(C.thread_cpu_ns()) }

var _ = runtime.GC
