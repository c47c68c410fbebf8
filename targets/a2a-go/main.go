// Command a2a-go is wirecost's A2A 1.0 echo agent on the A2A Go SDK
// (github.com/a2aproject/a2a-go/v2), its counterpart of targets/a2a-rust and targets/a2a-js.
//
//	a2a-go [--transport http] --port N   # N=0: the OS picks; 127.0.0.1 only
//
// The SDK's JSON-RPC binding (a2asrv.NewJSONRPCHandler) is served by net/http at POST /, its agent
// card (a2asrv.NewStaticAgentCardHandler) at GET /.well-known/agent-card.json. Every SendMessage
// gets a completed task whose one artifact is a text part "Echo: <text>", <text> being the user
// message's text parts joined with no separator. The task store is the SDK's default in-memory one.
//
// With WIRECOST_PROFILE_OUT set, SIGUSR1 and SIGUSR2 open and close a CPU profile window
// (targets/common/profilewindow).
//
// Once bound the server prints "listening on 127.0.0.1:PORT" on stderr. Exit status: 0 after
// SIGTERM/SIGINT, 2 on a bad argument or profile knob (one line naming it and the usage), 1 on a start-up failure.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"wirecost.dev/targets/common/profilewindow"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run parses args, serves until SIGTERM/SIGINT and returns the exit status.
func run(argv []string) int {
	port, err := parseArgs(argv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "a2a-go: %v; %s\n", err, usage)
		return 2
	}
	// The profile window (WIRECOST_PROFILE_OUT): nothing is installed without it.
	if err := profilewindow.Install("a2a-go"); err != nil {
		fmt.Fprintf(os.Stderr, "a2a-go: %v\n", err)
		return 2
	}
	// Installed before the socket is bound, so a signal after the listening line always exits 0.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	ln, err := net.Listen("tcp", net.JoinHostPort(host, fmt.Sprint(port)))
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) {
			err = op.Err // "bind: address already in use", without repeating the address
		}
		fmt.Fprintf(os.Stderr, "a2a-go: cannot listen on %s:%d: %v (pick a free port)\n", host, port, err)
		return 1
	}
	bound := ln.Addr().(*net.TCPAddr).Port
	srv := &http.Server{Handler: newMux(bound)}
	fmt.Fprintf(os.Stderr, "listening on %s:%d\n", host, bound)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		// Shutdown closes the listener and idle keep-alive connections at once and waits for
		// requests in flight; a second signal is not waited for.
		_ = srv.Shutdown(context.Background())
		return 0
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return 0
		}
		fmt.Fprintf(os.Stderr, "a2a-go: HTTP server stopped: %v\n", err)
		return 1
	}
}
