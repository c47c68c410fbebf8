// Command mcp-go is wirecost's MCP target on the Go MCP SDK (github.com/modelcontextprotocol/go-sdk).
//
//	mcp-go --transport stdio
//	mcp-go --transport http --port N   # N=0: the OS picks; 127.0.0.1 only
//	mcp-go --harness direct|sdk        # the per-call harness (harness.go)
//
// stdio is served by Server.Run on the SDK's StdioTransport (2025 era and 2026-07-28, chosen by the
// client's first message); HTTP by two SDK StreamableHTTPHandlers behind one mux (http.go). Knobs:
// WIRECOST_CATALOG, WIRECOST_STATE (config.go, tools.go), WIRECOST_WORKLOAD=tickets (tickets.go),
// WIRECOST_GOJSONRESPONSE, WIRECOST_DEBUG, and the profile window's WIRECOST_PROFILE_OUT and
// WIRECOST_PROFILE_HZ (targets/common/profilewindow). Exit status: 0 on SIGTERM/SIGINT or end of
// stdin, 2 on a bad argument or knob, 1 on a start-up failure.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"wirecost.dev/targets/common/profilewindow"
)

func main() {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "--harness") {
		os.Exit(runHarness(os.Args[1:])) // the per-call harness (harness.go)
	}
	os.Exit(run())
}

// run serves until a signal (or end of stdin) and returns the exit status.
func run() int {
	a, err := parseArgs(os.Args[1:])
	var cfg config
	if err == nil {
		cfg, err = configFromEnv()
	}
	if err == nil {
		// The profile window (WIRECOST_PROFILE_OUT): nothing is installed without it.
		if perr := profilewindow.Install("mcp-go"); perr != nil {
			err = &usageError{msg: perr.Error()}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go: %v\n", err)
		if isUsage(err) {
			fmt.Fprintln(os.Stderr, usage)
			return 2
		}
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if a.transport == "stdio" {
		// Run returns at end of stdin (the session ends) or when ctx is cancelled by a signal; both exit 0.
		_ = newServer(cfg).Run(ctx, &mcp.StdioTransport{})
		return 0
	}
	t, err := startHTTP(cfg, a.port)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go: cannot listen on %s:%d: %v\n", httpHost, a.port, err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "listening on %s:%d\n", httpHost, t.port())
	served := make(chan error, 1)
	go func() { served <- t.wait() }()
	select {
	case <-ctx.Done():
		_ = t.close(context.Background())
		return 0
	case err := <-served:
		fmt.Fprintf(os.Stderr, "mcp-go: HTTP server stopped: %v\n", err)
		return 1
	}
}
