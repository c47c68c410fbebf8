package main

// The per-call harness in Go (README "Per-call harnesses in other languages", harness protocol 1):
//
//	mcp-go --harness direct   # searchTickets in this process
//	mcp-go --harness sdk      # WIRECOST_TRANSPORT=stdio|http: go-sdk's client against this binary as the server
//
// `direct` calls the tickets store's searchTickets (tickets.go, the function the server's tool runs)
// in this process. `sdk` starts this same binary as the server (`--transport stdio` as a child
// through the SDK's mcp.CommandTransport, or `--transport http --port 0` on 127.0.0.1 through the
// SDK's mcp.StreamableClientTransport, the port read from its `listening on` line) with
// WIRECOST_WORKLOAD=tickets, opens a ClientSession at WIRECOST_REVISION (2025-11-25: initialize;
// 2026-07-28: server/discover), lists the tools, makes one call and discards it, makes
// WIRECOST_WARMUP_CALLS more, then times WIRECOST_CALLS `CallTool("search_tickets")` one at a time.
// Then, when asked, the loops (WIRECOST_LOOP_IDS, WIRECOST_LOOP_REPEATS) and the payload sweep
// (WIRECOST_PAYLOAD_LIMITS, WIRECOST_PAYLOAD_CALLS). It prints one JSON object on stdout (the
// protocol's; logs on stderr). In the profiled trial (WIRECOST_PROFILE_WINDOW) the harness process
// opens its own signal window on WIRECOST_PROFILE_OUT and starts its server child with
// WIRECOST_PROFILE_OUT=$WIRECOST_PROFILE_SERVER_OUT (targets/common/profilewindow), so each writes
// its own profile. Exit status 0 with it printed, 2 on a bad argument or variable (one line naming
// it), 1 when the measurement fails (one line on stderr, nothing on stdout).
//
// Another server (harness protocol, "Another server"): as a client declared under `clients:`,
// `mcp-go --harness sdk -- SERVER ARGV...` (WIRECOST_TRANSPORT=stdio) starts that command in
// place of this binary, in its own working folder, and `mcp-go --harness sdk --url URL`
// (WIRECOST_TRANSPORT=http) drives the server wirecost started there; against a URL the output
// has no setup (this process did not start the server) and the profile window no server pid.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"wirecost.dev/targets/common/profilewindow"
)

// harnessProtocol is the harness protocol version printed as wirecostHarness.
const harnessProtocol = 1

// harnessUsage is printed after every usage error of --harness.
const harnessUsage = "usage: mcp-go --harness direct | --harness sdk (WIRECOST_TRANSPORT=stdio|http) [-- SERVER ARGV... | --url http://127.0.0.1:PORT/PATH]"

// harnessTransports is the transports each harness path measures.
var harnessTransports = map[string][]string{"direct": {"in-process"}, "sdk": {"stdio", "http"}}

// serverStartTimeout bounds the wait for the HTTP server's `listening on` line.
const serverStartTimeout = 30 * time.Second

// windowTimeout bounds each wait of the profile window for wirecost's go and release files.
const windowTimeout = 120 * time.Second

// harnessSettings is what wirecost asks for, from the environment.
type harnessSettings struct {
	db, query, revision, transport string
	// limit is search_tickets' row limit; calls and warmupCalls are counts of calls.
	limit, calls, warmupCalls int
	// loopIDs are get_tickets' ids (empty: no loops); loopRepeats the timed repeats.
	loopIDs     []int64
	loopRepeats int
	// payloadLimits are the sweep's limits (empty: no sweep); payloadCalls the timed calls per limit.
	payloadLimits []int
	payloadCalls  int
}

// loopRepeat is one timed repeat of the 40-call loops, milliseconds.
type loopRepeat struct {
	SequentialMs float64 `json:"sequentialMs"`
	ConcurrentMs float64 `json:"concurrentMs"`
	BatchMs      float64 `json:"batchMs"`
}

// payloadPoint is the payload sweep at one limit: the result's UTF-8 bytes and the timed calls, µs.
type payloadPoint struct {
	Limit       int       `json:"limit"`
	ResultBytes int       `json:"resultBytes"`
	SamplesUs   []float64 `json:"samplesUs"`
}

// nameVersion is a runtime or SDK: {"name", "version"}.
type nameVersion struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// setupMs is a session's start-up, milliseconds from before the spawn.
type setupMs struct {
	ReadyMs     float64 `json:"readyMs"`
	OpenMs      float64 `json:"openMs"`
	ListedMs    float64 `json:"listedMs"`
	FirstCallMs float64 `json:"firstCallMs"`
}

// harnessOutput is the one JSON object of harness protocol 1 (runner/percall/harness.ts).
type harnessOutput struct {
	WirecostHarness int            `json:"wirecostHarness"`
	SamplesUs       []float64      `json:"samplesUs"`
	ResultBytes     int            `json:"resultBytes"`
	Setup           *setupMs       `json:"setup,omitempty"`
	Runtime         nameVersion    `json:"runtime"`
	SDK             *nameVersion   `json:"sdk,omitempty"`
	ProtocolVersion string         `json:"protocolVersion,omitempty"`
	CPUPerCallUs    float64        `json:"cpuPerCallUs"`
	Loops           []loopRepeat   `json:"loops,omitempty"`
	Payload         []payloadPoint `json:"payload,omitempty"`
}

// givenServer is another server for `--harness sdk` to drive (harness protocol, "Another
// server"): its stdio command (argv), or the URL of the HTTP server wirecost started (url); both
// empty: this binary as the server, started here.
type givenServer struct {
	argv []string
	url  string
}

// parseHarnessArgs reads `--harness PATH` or `--harness=PATH` (argv without the program name),
// then for sdk optionally `-- SERVER ARGV...` (stdio) or `--url http://127.0.0.1:PORT/PATH`
// (http). Errors are *usageError: another shape, an unknown path, a server for direct.
func parseHarnessArgs(argv []string) (string, givenServer, error) {
	var server givenServer
	if len(argv) > 0 && strings.HasPrefix(argv[0], "--harness=") {
		argv = append([]string{"--harness", strings.TrimPrefix(argv[0], "--harness=")}, argv[1:]...)
	}
	if len(argv) < 2 || argv[0] != "--harness" {
		return "", server, badUsage("expected --harness PATH, got %q", strings.Join(argv, " "))
	}
	if _, ok := harnessTransports[argv[1]]; !ok {
		return "", server, badUsage("unknown harness path %q: use direct or sdk", argv[1])
	}
	rest := argv[2:]
	switch {
	case len(rest) == 0:
	case rest[0] == "--" && len(rest) > 1:
		server.argv = rest[1:]
	case len(rest) == 2 && rest[0] == "--url" && strings.HasPrefix(rest[1], "http://"+httpHost+":"):
		server.url = rest[1]
	default:
		return "", server, badUsage("unexpected %q: another server is `-- SERVER ARGV...` (stdio) or `--url http://%s:PORT/PATH` (http)", strings.Join(rest, " "), httpHost)
	}
	if argv[1] != "sdk" && (server.argv != nil || server.url != "") {
		return "", server, badUsage("--harness %s takes no server: another server is for --harness sdk", argv[1])
	}
	return argv[1], server, nil
}

// checkGivenServer is a usage error when the server given does not fit the transport: a stdio
// client takes the server's command, an http client its URL.
func checkGivenServer(server givenServer, transport string) error {
	if (server.argv != nil && transport != "stdio") || (server.url != "" && transport != "http") {
		return badUsage("WIRECOST_TRANSPORT=%s does not fit the server given: a stdio client takes `-- SERVER ARGV...`, an http client `--url`", transport)
	}
	return nil
}

// envWhole is the whole number in the variable name, at least low. Errors: *usageError naming it.
func envWhole(name string, low int) (int, error) {
	raw := os.Getenv(name)
	n, err := strconv.Atoi(raw)
	if err != nil || !digits.MatchString(raw) || n < low {
		return 0, badUsage("%s=%q is not a whole number >= %d: wirecost sets it from timing: in the matrix", name, raw, low)
	}
	return n, nil
}

// envWholeList is the comma-separated whole numbers (each >= 1) in the variable name; nil when
// unset. Errors: *usageError naming it.
func envWholeList(name string) ([]int, error) {
	raw := os.Getenv(name)
	if raw == "" {
		return nil, nil
	}
	var out []int
	for _, item := range strings.Split(raw, ",") {
		n, err := strconv.Atoi(item)
		if err != nil || !digits.MatchString(item) || n < 1 {
			return nil, badUsage("%s=%q is not a comma-separated list of whole numbers >= 1: wirecost sets it from timing: in the matrix", name, raw)
		}
		out = append(out, n)
	}
	return out, nil
}

// readHarnessSettings reads and checks the variables wirecost sets for the path. Errors:
// *usageError naming the variable and the fix.
func readHarnessSettings(path string) (harnessSettings, error) {
	s := harnessSettings{transport: os.Getenv("WIRECOST_TRANSPORT"), revision: os.Getenv("WIRECOST_REVISION")}
	if s.transport == "" {
		s.transport = harnessTransports[path][0]
	}
	ok := false
	for _, t := range harnessTransports[path] {
		ok = ok || t == s.transport
	}
	if !ok {
		return s, badUsage("WIRECOST_TRANSPORT=%s but --harness %s measures %s: fix the target's harness transport or its --harness", s.transport, path, strings.Join(harnessTransports[path], " or "))
	}
	for _, name := range []string{"WIRECOST_TICKETS_DB", "WIRECOST_QUERY"} {
		if os.Getenv(name) == "" {
			return s, badUsage("%s is not set: run this harness through wirecost run (it sets it)", name)
		}
	}
	s.db, s.query = os.Getenv("WIRECOST_TICKETS_DB"), os.Getenv("WIRECOST_QUERY")
	var err error
	if s.limit, err = envWhole("WIRECOST_LIMIT", 1); err != nil {
		return s, err
	}
	if s.calls, err = envWhole("WIRECOST_CALLS", 1); err != nil {
		return s, err
	}
	if s.warmupCalls, err = envWhole("WIRECOST_WARMUP_CALLS", 0); err != nil {
		return s, err
	}
	ids, err := envWholeList("WIRECOST_LOOP_IDS")
	if err != nil {
		return s, err
	}
	for _, id := range ids {
		s.loopIDs = append(s.loopIDs, int64(id))
	}
	if len(ids) > 0 {
		if s.loopRepeats, err = envWhole("WIRECOST_LOOP_REPEATS", 1); err != nil {
			return s, err
		}
	}
	if s.payloadLimits, err = envWholeList("WIRECOST_PAYLOAD_LIMITS"); err != nil {
		return s, err
	}
	if len(s.payloadLimits) > 0 {
		if s.payloadCalls, err = envWhole("WIRECOST_PAYLOAD_CALLS", 1); err != nil {
			return s, err
		}
	}
	if path == "sdk" && s.revision != "2025-11-25" && s.revision != "2026-07-28" {
		return s, badUsage("WIRECOST_REVISION=%q: this harness opens 2025-11-25 (initialize) or 2026-07-28 (server/discover) sessions; fix the target's revisions", s.revision)
	}
	return s, nil
}

// us is the microseconds of d, fractional.
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// ms is the milliseconds of d, fractional.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// processCPU is this process's CPU time so far, user + system (getrusage RUSAGE_SELF); a server
// it started is another process and not in it.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// goRuntime is this program's runtime: {"name": "go", "version": "1.26.8"}.
func goRuntime() nameVersion {
	return nameVersion{Name: "go", Version: strings.TrimPrefix(runtime.Version(), "go")}
}

// sdkVersion is the go-sdk module version this binary was built with (its build info), or
// "unknown" when the binary carries none.
func sdkVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/modelcontextprotocol/go-sdk" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// profileWindow is the optional profile window of WIRECOST_PROFILE_WINDOW (README "Per-call
// harnesses in other languages"): ready.json with the pids, wait for go; end.json with the
// window's wall time, wait for release; reference.json with the wall time of the same calls
// unprofiled just before the window and just after it (check (b)'s like-with-like reference).
// Without the variable (folder "") it does nothing.
type profileWindow struct{ folder string }

// writeJSONFile writes v as JSON to path atomically (path.tmp renamed).
func writeJSONFile(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// waitFile polls every millisecond until path exists. Errors after windowTimeout.
func waitFile(path string) error {
	deadline := time.Now().Add(windowTimeout)
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("profile window: %s did not appear within %s", path, windowTimeout)
		}
		time.Sleep(time.Millisecond)
	}
}

// open reports this process's pid (and serverPid when > 0) and waits for wirecost's go.
func (w profileWindow) open(serverPid int) error {
	if w.folder == "" {
		return nil
	}
	ready := map[string]int{"wirecostWindow": 1, "clientPid": os.Getpid()}
	if serverPid > 0 {
		ready["serverPid"] = serverPid
	}
	if err := writeJSONFile(filepath.Join(w.folder, "ready.json"), ready); err != nil {
		return err
	}
	return waitFile(filepath.Join(w.folder, "go"))
}

// close reports the window's wall time and waits for wirecost's release.
func (w profileWindow) close(window time.Duration, calls int) error {
	if w.folder == "" {
		return nil
	}
	if err := writeJSONFile(filepath.Join(w.folder, "end.json"), map[string]int64{"windowNs": window.Nanoseconds(), "calls": int64(calls)}); err != nil {
		return err
	}
	return waitFile(filepath.Join(w.folder, "release"))
}

// reference reports the wall time of the unprofiled windows before and after the profiled one.
func (w profileWindow) reference(before, after time.Duration, calls int) error {
	if w.folder == "" {
		return nil
	}
	return writeJSONFile(filepath.Join(w.folder, "reference.json"), map[string]int64{"beforeNs": before.Nanoseconds(), "afterNs": after.Nanoseconds(), "calls": int64(calls)})
}

// plainWindow times s.calls calls with no samples kept (a reference window).
func plainWindow(ctx context.Context, c caller, s harnessSettings) (time.Duration, error) {
	w0 := time.Now()
	for range s.calls {
		if err := c.timed(ctx, s.query, s.limit); err != nil {
			return 0, err
		}
	}
	return time.Since(w0), nil
}

// caller is one way of making the workload's calls: in this process or through an SDK session.
// search answers the result text's UTF-8 bytes (used for the discarded calls); timed is the call
// that is timed (in-process: the query without serialising the rows, as the Python harness's and
// wirecost's own direct paths; through a session: search itself); get runs get_tickets on ids.
type caller struct {
	search func(ctx context.Context, query string, limit int) (int, error)
	timed  func(ctx context.Context, query string, limit int) error
	get    func(ctx context.Context, ids []int64) error
	// firstDone, when set, is called when the first (discarded) call has answered.
	firstDone func()
	// concurrent is whether the loops' concurrent calls overlap (false in-process: one thread
	// of work, the calls are made one after another, as the Python harness does).
	concurrent bool
}

// timeCalls makes one discarded call and warmup more, then times s.calls calls inside the
// profile window. It answers the samples (µs), the first call's result bytes and the CPU per
// call (µs) of this process.
func timeCalls(ctx context.Context, c caller, s harnessSettings, w profileWindow, serverPid int) (samples []float64, resultBytes int, cpuPerCallUs float64, err error) {
	if resultBytes, err = c.search(ctx, s.query, s.limit); err != nil {
		return nil, 0, 0, err
	}
	if c.firstDone != nil {
		c.firstDone()
	}
	for range s.warmupCalls {
		if err = c.timed(ctx, s.query, s.limit); err != nil {
			return nil, 0, 0, err
		}
	}
	var before time.Duration
	if w.folder != "" {
		if before, err = plainWindow(ctx, c, s); err != nil {
			return nil, 0, 0, err
		}
	}
	if err = w.open(serverPid); err != nil {
		return nil, 0, 0, err
	}
	samples = make([]float64, 0, s.calls)
	cpu0, w0 := processCPU(), time.Now()
	for range s.calls {
		t := time.Now()
		err = c.timed(ctx, s.query, s.limit)
		samples = append(samples, us(time.Since(t)))
		if err != nil {
			return nil, 0, 0, err
		}
	}
	window, cpu := time.Since(w0), processCPU()-cpu0
	if err = w.close(window, s.calls); err != nil {
		return nil, 0, 0, err
	}
	if w.folder != "" {
		after, err := plainWindow(ctx, c, s)
		if err != nil {
			return nil, 0, 0, err
		}
		if err = w.reference(before, after, s.calls); err != nil {
			return nil, 0, 0, err
		}
	}
	return samples, resultBytes, us(cpu) / float64(s.calls), nil
}

// loopsAndPayload runs the loops and the payload sweep as asked (nil for what was not asked).
func loopsAndPayload(ctx context.Context, c caller, s harnessSettings) ([]loopRepeat, []payloadPoint, error) {
	var loops []loopRepeat
	if len(s.loopIDs) > 0 {
		for r := range s.loopRepeats + 1 {
			l, err := loopOnce(ctx, c, s.loopIDs)
			if err != nil {
				return nil, nil, err
			}
			if r > 0 { // the first repeat is discarded
				loops = append(loops, l)
			}
		}
	}
	var points []payloadPoint
	for _, limit := range s.payloadLimits {
		bytes, err := c.search(ctx, s.query, limit) // discarded
		if err != nil {
			return nil, nil, err
		}
		p := payloadPoint{Limit: limit, ResultBytes: bytes, SamplesUs: make([]float64, 0, s.payloadCalls)}
		for range s.payloadCalls {
			t := time.Now()
			if err := c.timed(ctx, s.query, limit); err != nil {
				return nil, nil, err
			}
			p.SamplesUs = append(p.SamplesUs, us(time.Since(t)))
		}
		points = append(points, p)
	}
	return loops, points, nil
}

// loopOnce is one repeat of the loops: get_tickets per id one at a time, all at once, and once
// with every id.
func loopOnce(ctx context.Context, c caller, ids []int64) (loopRepeat, error) {
	t := time.Now()
	for _, id := range ids {
		if err := c.get(ctx, []int64{id}); err != nil {
			return loopRepeat{}, err
		}
	}
	sequential := time.Since(t)
	t = time.Now()
	if c.concurrent {
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() { errs[i] = c.get(ctx, []int64{id}) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return loopRepeat{}, err
		}
	} else {
		for _, id := range ids {
			if err := c.get(ctx, []int64{id}); err != nil {
				return loopRepeat{}, err
			}
		}
	}
	concurrent := time.Since(t)
	t = time.Now()
	if err := c.get(ctx, ids); err != nil {
		return loopRepeat{}, err
	}
	return loopRepeat{SequentialMs: ms(sequential), ConcurrentMs: ms(concurrent), BatchMs: ms(time.Since(t))}, nil
}

// measureDirect times the store's searchTickets in this process. The timed calls do not serialise
// the rows (as the Python harness's and wirecost's own direct paths); the result bytes are the
// discarded calls' rows serialised as the tool serialises them.
func measureDirect(ctx context.Context, s harnessSettings) (harnessOutput, error) {
	store := newTicketStore(s.db)
	c := caller{
		search: func(ctx context.Context, query string, limit int) (int, error) {
			rows, err := store.searchTickets(ctx, query, limit)
			if err != nil {
				return 0, err
			}
			text, err := ticketsText(rows)
			return len(text), err
		},
		timed: func(ctx context.Context, query string, limit int) error {
			_, err := store.searchTickets(ctx, query, limit)
			return err
		},
		get: func(ctx context.Context, ids []int64) error {
			_, err := store.getTickets(ctx, ids)
			return err
		},
	}
	samples, bytes, cpu, err := timeCalls(ctx, c, s, profileWindow{os.Getenv("WIRECOST_PROFILE_WINDOW")}, 0)
	if err != nil {
		return harnessOutput{}, err
	}
	loops, payload, err := loopsAndPayload(ctx, c, s)
	if err != nil {
		return harnessOutput{}, err
	}
	return harnessOutput{WirecostHarness: harnessProtocol, SamplesUs: samples, ResultBytes: bytes, Runtime: goRuntime(), CPUPerCallUs: cpu, Loops: loops, Payload: payload}, nil
}

// resultText is the text of a search_tickets result. Errors: a tool error or another shape.
func resultText(r *mcp.CallToolResult) (string, error) {
	if r.IsError {
		b, _ := json.Marshal(r.Content)
		return "", fmt.Errorf("search_tickets answered a tool error: %.200s", b)
	}
	if len(r.Content) == 0 {
		return "", errors.New("search_tickets answered no content")
	}
	t, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("search_tickets answered %T, not text", r.Content[0])
	}
	return t.Text, nil
}

// sessionCaller makes the workload's calls through cs.
func sessionCaller(cs *mcp.ClientSession) caller {
	search := func(ctx context.Context, query string, limit int) (int, error) {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_tickets", Arguments: map[string]any{"query": query, "limit": limit}})
		if err != nil {
			return 0, err
		}
		text, err := resultText(r)
		return len(text), err
	}
	return caller{
		search: search,
		timed: func(ctx context.Context, query string, limit int) error {
			_, err := search(ctx, query, limit)
			return err
		},
		get: func(ctx context.Context, ids []int64) error {
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_tickets", Arguments: map[string]any{"ids": ids}})
			if err == nil && r.IsError {
				b, _ := json.Marshal(r.Content)
				err = fmt.Errorf("get_tickets answered a tool error: %.200s", b)
			}
			return err
		},
		concurrent: true,
	}
}

// readyTransport wraps a client transport and records when its Connect returned (stdio: the
// child started and its pipes are up).
type readyTransport struct {
	inner mcp.Transport
	ready time.Time
}

// Connect connects the wrapped transport and notes the time.
func (t *readyTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	t.ready = time.Now()
	return c, err
}

// serverCmd is this binary as the server on transport, with the workload's environment; its
// stderr goes to ours (stdio) or is returned for reading (HTTP).
func serverCmd(transport string, s harnessSettings) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	argv := []string{"--transport", "stdio"}
	if transport == "http" {
		argv = []string{"--transport", "http", "--port", "0"}
	}
	cmd := exec.Command(self, argv...)
	// The child's profile window writes WIRECOST_PROFILE_SERVER_OUT, never this process's
	// WIRECOST_PROFILE_OUT (empty: no window); the later entry of a duplicate key wins (os/exec).
	cmd.Env = append(os.Environ(), "WIRECOST_WORKLOAD=tickets", "WIRECOST_TICKETS_DB="+s.db,
		"WIRECOST_PROFILE_OUT="+os.Getenv("WIRECOST_PROFILE_SERVER_OUT"), "WIRECOST_PROFILE_SERVER_OUT=")
	cmd.Stdin = nil
	return cmd, nil
}

// startHTTPServer starts the HTTP server child and answers its endpoint URL once it says it
// listens; its other stderr lines are passed on to ours. Errors: it exits or is silent for
// serverStartTimeout.
func startHTTPServer(cmd *exec.Cmd) (string, error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			line := sc.Text()
			if p, ok := strings.CutPrefix(line, "listening on "+httpHost+":"); ok && !found {
				found = true
				port <- p
			}
			fmt.Fprintln(os.Stderr, line)
		}
		if !found {
			close(port)
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case p, ok := <-port:
		if !ok {
			return "", fmt.Errorf("the server (--transport http) ended without saying it listens: %v", cmd.Wait())
		}
		return "http://" + httpHost + ":" + p + "/mcp", nil
	case <-time.After(serverStartTimeout):
		return "", fmt.Errorf("the server (--transport http) did not say it listens within %s", serverStartTimeout)
	}
}

// stopServer ends an HTTP server child: SIGTERM, then SIGKILL after 5 s.
func stopServer(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// measureSDK times CallTool("search_tickets") through go-sdk's client of s.transport against this
// binary as the server. Setup phases are milliseconds from before the spawn: ready (stdio: the
// child started and its pipes are up; HTTP: the server said it listens), open (initialize answered
// and notifications/initialized sent, or server/discover answered on 2026-07-28), listed
// (tools/list answered), first call answered.
func measureSDK(ctx context.Context, s harnessSettings, given givenServer) (out harnessOutput, err error) {
	cmd, err := serverCmd(s.transport, s)
	if err != nil {
		return out, err
	}
	if given.argv != nil {
		// Another server's stdio command, started in this process's working folder; wirecost gave
		// its environment in the command (`env VAR=VALUE… SERVER ARGV`).
		cmd = exec.Command(given.argv[0], given.argv[1:]...)
	}
	t0 := time.Now()
	var ready time.Duration
	var transport *readyTransport
	if given.url != "" {
		cmd = nil // wirecost started the server: nothing to start, nothing of its start-up to time
		transport = &readyTransport{inner: &mcp.StreamableClientTransport{Endpoint: given.url}}
	} else if s.transport == "http" {
		url, err := startHTTPServer(cmd)
		defer stopServer(cmd)
		if err != nil {
			return out, err
		}
		ready = time.Since(t0)
		transport = &readyTransport{inner: &mcp.StreamableClientTransport{Endpoint: url}}
	} else {
		cmd.Stderr = os.Stderr
		transport = &readyTransport{inner: &mcp.CommandTransport{Command: cmd}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "wirecost-go-harness", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: s.revision})
	if err != nil {
		return out, fmt.Errorf("opening the session: %w", err)
	}
	defer func() { _ = cs.Close() }()
	opened := time.Since(t0)
	if s.transport == "stdio" {
		ready = transport.ready.Sub(t0)
	}
	negotiated := cs.InitializeResult().ProtocolVersion
	if negotiated != s.revision {
		return out, fmt.Errorf("the session negotiated %s, not %s", negotiated, s.revision)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return out, fmt.Errorf("tools/list: %w", err)
	}
	listed := time.Since(t0)
	found := false
	for _, t := range tools.Tools {
		found = found || t.Name == "search_tickets"
	}
	if !found {
		return out, errors.New("the server lists no search_tickets tool: is WIRECOST_WORKLOAD=tickets reaching it?")
	}
	c := sessionCaller(cs)
	var firstCall time.Duration
	c.firstDone = func() { firstCall = time.Since(t0) }
	serverPid := 0
	if cmd != nil {
		serverPid = cmd.Process.Pid
	}
	samples, bytes, cpu, err := timeCalls(ctx, c, s, profileWindow{os.Getenv("WIRECOST_PROFILE_WINDOW")}, serverPid)
	if err != nil {
		return out, err
	}
	var setup *setupMs // none against a server wirecost started (cmd nil): its start-up is not this process's to time
	if cmd != nil {
		setup = &setupMs{ReadyMs: ms(ready), OpenMs: ms(opened), ListedMs: ms(listed), FirstCallMs: ms(firstCall)}
	}
	loops, payload, err := loopsAndPayload(ctx, c, s)
	if err != nil {
		return out, err
	}
	return harnessOutput{
		WirecostHarness: harnessProtocol,
		SamplesUs:       samples,
		ResultBytes:     bytes,
		Setup:           setup,
		Runtime:         goRuntime(),
		SDK:             &nameVersion{Name: "github.com/modelcontextprotocol/go-sdk", Version: sdkVersion()},
		ProtocolVersion: negotiated,
		CPUPerCallUs:    cpu,
		Loops:           loops,
		Payload:         payload,
	}, nil
}

// runHarness measures the path argv names, prints the JSON on stdout and returns the exit status.
func runHarness(argv []string) int {
	path, server, err := parseHarnessArgs(argv)
	var s harnessSettings
	if err == nil {
		s, err = readHarnessSettings(path)
	}
	if err == nil {
		err = checkGivenServer(server, s.transport)
	}
	if err == nil {
		// This process's own profile window (WIRECOST_PROFILE_OUT; its server child gets
		// WIRECOST_PROFILE_SERVER_OUT as its own, serverCmd): nothing is installed without it.
		err = profilewindow.Install("mcp-go-harness")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go harness: %v\n%s\n", err, harnessUsage)
		return 2
	}
	ctx := context.Background()
	var out harnessOutput
	if path == "direct" {
		out, err = measureDirect(ctx, s)
	} else {
		out, err = measureSDK(ctx, s, server)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go harness: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return 1
	}
	b, err := json.Marshal(out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go harness: %v\n", err)
		return 1
	}
	_, _ = os.Stdout.Write(append(b, '\n'))
	return 0
}
