package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// Costs is each named function's CPU time per call, in µs.
type Costs struct {
	ParseAndValidateUs, DoWorkUs, BuildResultUs int64
}

// ParseCosts reads WIRECOST_KNOWN_COSTS, "name=µs,…" with the names parse_and_validate, do_work and
// build_result (any subset; the rest keep their defaults 1500, 1000, 500). Errors name the bad item.
func ParseCosts(spec string) (Costs, error) {
	c := Costs{ParseAndValidateUs: 1500, DoWorkUs: 1000, BuildResultUs: 500}
	if spec == "" {
		return c, nil
	}
	for _, item := range strings.Split(spec, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		us, err := strconv.ParseInt(value, 10, 64)
		if !ok || err != nil || us < 0 || us > 10_000_000 {
			return c, fmt.Errorf("WIRECOST_KNOWN_COSTS item %q is not name=µs (0-10000000)", item)
		}
		switch name {
		case "parse_and_validate":
			c.ParseAndValidateUs = us
		case "do_work":
			c.DoWorkUs = us
		case "build_result":
			c.BuildResultUs = us
		default:
			return c, fmt.Errorf("WIRECOST_KNOWN_COSTS names %q: the names are parse_and_validate, do_work, build_result", name)
		}
	}
	return c, nil
}

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID (the calling thread's user+system CPU time).
const clockThreadCPUTimeID = 3

// threadCPUNs is the calling OS thread's CPU time in ns (clock_gettime(CLOCK_THREAD_CPUTIME_ID)).
func threadCPUNs() int64 {
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// spin burns us µs of this goroutine's CPU time, measured on its OS thread's CPU clock (the goroutine
// is locked to the thread meanwhile, so the clock it reads is the one it spends).
func spin(us int64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	end := threadCPUNs() + us*1000
	for threadCPUNs() < end {
	}
}
