// Command mcp-mark3labs is wirecost's MCP target on github.com/mark3labs/mcp-go, the most used
// community Go MCP SDK.
//
//	mcp-mark3labs --transport stdio
//	mcp-mark3labs --transport http --port N   # N=0: the OS picks; 127.0.0.1 only
//
// stdio is served by the SDK's StdioServer (2025 era and 2026-07-28, chosen per request); HTTP by
// one SDK StreamableHTTPServer used as an http.Handler on a net/http server bound to 127.0.0.1
// (both eras on one endpoint, decided per request by the SDK). Knobs: WIRECOST_CATALOG,
// WIRECOST_STATE (config.go, tools.go). Exit status: 0 on SIGTERM/SIGINT or end of stdin, 2 on a
// bad argument or knob, 1 on a start-up failure.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// httpHost is the only address the target binds.
const httpHost = "127.0.0.1"

func main() {
	os.Exit(run())
}

// run serves until a signal (or end of stdin) and returns the exit status.
func run() int {
	a, err := parseArgs(os.Args[1:])
	var cfg config
	if err == nil {
		cfg, err = configFromEnv()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-mark3labs: %v\n", err)
		if isUsage(err) {
			fmt.Fprintln(os.Stderr, usage)
			return 2
		}
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if a.transport == "stdio" {
		stdio := server.NewStdioServer(newServer(cfg))
		stdio.SetErrorLogger(log.New(os.Stderr, "mcp-mark3labs: ", 0))
		// Listen returns at end of stdin (the session ends) or when ctx is cancelled by a signal; both exit 0.
		_ = stdio.Listen(ctx, os.Stdin, os.Stdout)
		return 0
	}
	return serveHTTP(ctx, cfg, a.port)
}

// serveHTTP listens on 127.0.0.1:port, prints the listening line and serves the SDK's
// StreamableHTTPServer until ctx ends (exit 0) or the server fails (exit 1). The SDK's handler
// ignores the path (use POST /mcp) and keeps its defaults but one: sessions are stateful
// (server.WithStateful), so a 2025-era elicitation/create can be answered by a POST of its own.
func serveHTTP(ctx context.Context, cfg config, port int) int {
	handler := server.NewStreamableHTTPServer(newServer(cfg),
		server.WithStateful(true),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
	)
	ln, err := net.Listen("tcp", net.JoinHostPort(httpHost, strconv.Itoa(port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcp-mark3labs: cannot listen on %s:%d: %v\n", httpHost, port, err)
		return 1
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(os.Stderr, "listening on %s:%d\n", httpHost, ln.Addr().(*net.TCPAddr).Port)
	select {
	case <-ctx.Done():
		_ = srv.Close()
		return 0
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return 0
		}
		fmt.Fprintf(os.Stderr, "mcp-mark3labs: HTTP server stopped: %v\n", err)
		return 1
	}
}
