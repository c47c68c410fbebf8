// Package profilewindow is the profile window of wirecost's Go targets (PROFILE-PROTOCOL in the
// project's README, "Profile windows"): with WIRECOST_PROFILE_OUT=<absolute path> in the
// environment, SIGUSR1 starts runtime/pprof's CPU profile of the whole process (SIGPROF on each
// thread's CPU clock, on-CPU samples only) at WIRECOST_PROFILE_HZ samples per second (default 997),
// and SIGUSR2 stops it and writes the samples as folded stacks to <path>.tmp, renamed to <path>.
// Without the variable Install does nothing: no signal handler, no goroutine, bytes unchanged.
//
// The header also says `sysmon_cpu_us=<µs>`: the CPU time the Go runtime's monitor thread (sysmon)
// spent in the window. runtime/pprof never samples that thread (it runs no goroutine, so it gets
// no profiling timer), yet its time is in the process's CPU time: on a busy 2-core machine it was
// 5–10 % of a known-cost call's. A reader converting sample shares to time subtracts it from the
// process's CPU first. Absent when the thread cannot be read.
//
// A target opts in with one line at the top of main: `profilewindow.Install("mcp-go")`.
package profilewindow

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/google/pprof/profile"
)

// DefaultHz is the sampling rate when WIRECOST_PROFILE_HZ is unset (a prime, so the sampler does
// not beat in step with a periodic load).
const DefaultHz = 997

// Install reads WIRECOST_PROFILE_OUT and WIRECOST_PROFILE_HZ and, when the first is set, starts
// the goroutine that opens a window on SIGUSR1 and writes it on SIGUSR2. target names the process
// in the profile's header (`target=<name>`). Returns an error (one line naming the variable and
// the fix) when a variable is malformed; the caller prints it and exits 2 like any bad knob.
func Install(target string) error {
	out := os.Getenv("WIRECOST_PROFILE_OUT")
	if out == "" {
		return nil
	}
	if !filepath.IsAbs(out) {
		return fmt.Errorf("WIRECOST_PROFILE_OUT=%q is not an absolute path: give the profile file's absolute path", out)
	}
	hz := DefaultHz
	if v := os.Getenv("WIRECOST_PROFILE_HZ"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return fmt.Errorf("WIRECOST_PROFILE_HZ=%q is not a rate from 1 to 10000 samples per second", v)
		}
		hz = n
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGUSR2)
	go serve(signals, target, out, hz)
	return nil
}

// serve opens and closes windows as the signals arrive; a second SIGUSR1 while a window is open,
// or a SIGUSR2 with none open, is ignored. A window that cannot be written is reported on stderr
// (one line) and the target goes on serving.
func serve(signals <-chan os.Signal, target, out string, hz int) {
	var buf *bytes.Buffer
	var sysmonAtOpen int64
	for s := range signals {
		switch {
		case s == syscall.SIGUSR1 && buf == nil:
			buf = new(bytes.Buffer)
			sysmonAtOpen = sysmonCPUNs()
			// StartCPUProfile sets its own 100 Hz only when no rate is set yet; it then prints
			// "runtime: cannot set cpu profile rate until previous profile has finished" on stderr
			// and keeps this one (the documented way to choose the rate, runtime/pprof).
			runtime.SetCPUProfileRate(hz)
			if err := pprof.StartCPUProfile(buf); err != nil {
				fmt.Fprintf(os.Stderr, "%s: profile window not opened: %v\n", target, err)
				buf = nil
			}
		case s == syscall.SIGUSR2 && buf != nil:
			pprof.StopCPUProfile()
			meta := fmt.Sprintf("profiler=go-runtime/pprof@%s target=%s pid=%d", runtime.Version(), target, os.Getpid())
			if now := sysmonCPUNs(); now >= 0 && sysmonAtOpen >= 0 {
				meta += fmt.Sprintf(" sysmon_cpu_us=%d", (now-sysmonAtOpen)/1000)
			}
			if err := write(buf.Bytes(), meta, out); err != nil {
				fmt.Fprintf(os.Stderr, "%s: profile window not written to %s: %v\n", target, out, err)
			}
			buf = nil
		}
	}
}

// sysmonCPUNs is the CPU time of the runtime's monitor thread so far, in ns (field 1 of its
// /proc/self/task/<tid>/schedstat), or -1 when it cannot be read. The monitor is the first thread
// the runtime starts after the main one (runtime.main starts it before anything else), so it is
// the lowest thread id other than the process id.
func sysmonCPUNs() int64 {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return -1
	}
	pid, tid := os.Getpid(), -1
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && n != pid && (tid < 0 || n < tid) {
			tid = n
		}
	}
	if tid < 0 {
		return -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/schedstat", tid))
	if err != nil {
		return -1
	}
	ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	if err != nil {
		return -1
	}
	return ns
}

// write folds the pprof protobuf in raw under the header pairs meta and writes it to out
// atomically (out.tmp, then renamed).
func write(raw []byte, meta, out string) error {
	p, err := profile.Parse(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("cannot parse the CPU profile: %w", err)
	}
	text := Fold(p, meta)
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// Fold renders p as folded stacks: the header line `# wirecost-profile <meta> interval_us=<µs>`
// (interval from the profile's period in nanoseconds), then one line per distinct stack, frames
// from root to leaf joined by ";" (inlined functions as their own frames, a location without
// symbols as its address 0x…, an unnamed function as ??, a sample without a location as the one
// frame "(no frames)"), a space and its sample count (the profile's first sample value,
// "samples/count"), sorted by stack. ";" inside a function name becomes ",".
func Fold(p *profile.Profile, meta string) string {
	counts := map[string]int64{}
	for _, s := range p.Sample {
		if len(s.Value) == 0 || s.Value[0] <= 0 {
			continue
		}
		var frames []string // leaf first
		for _, loc := range s.Location {
			if len(loc.Line) == 0 {
				frames = append(frames, fmt.Sprintf("0x%x", loc.Address))
			}
			for _, line := range loc.Line { // Line[0] is the innermost inlined function
				name := "??"
				if line.Function != nil && strings.TrimSpace(line.Function.Name) != "" {
					name = strings.ReplaceAll(line.Function.Name, ";", ",")
				}
				frames = append(frames, name)
			}
		}
		if len(frames) == 0 {
			frames = append(frames, "(no frames)")
		}
		for i, j := 0, len(frames)-1; i < j; i, j = i+1, j-1 {
			frames[i], frames[j] = frames[j], frames[i]
		}
		counts[strings.Join(frames, ";")] += s.Value[0]
	}
	stacks := make([]string, 0, len(counts))
	for k := range counts {
		stacks = append(stacks, k)
	}
	sort.Strings(stacks)
	var b strings.Builder
	fmt.Fprintf(&b, "# wirecost-profile %s interval_us=%s\n", meta, strconv.FormatFloat(float64(p.Period)/1000, 'f', -1, 64))
	for _, k := range stacks {
		fmt.Fprintf(&b, "%s %d\n", k, counts[k])
	}
	return b.String()
}
