// Command known-cost-go is wirecost's test-only MCP server with known costs (README "Known-cost
// targets"): every tools/call runs parseAndValidate, doWork and buildResult, each spinning on its
// thread's CPU clock for a fixed time, so a profile of it has a known answer.
//
//	known-cost-go --transport stdio              # newline-delimited JSON-RPC 2.0 on stdin/stdout
//	known-cost-go --transport http --port N      # POST /mcp on 127.0.0.1:N (0: the OS picks)
//
// Knobs: WIRECOST_KNOWN_COSTS=parse_and_validate=1500,do_work=1000,build_result=500 (µs, the
// defaults; any subset), and the profile window's WIRECOST_PROFILE_OUT and WIRECOST_PROFILE_HZ
// (targets/common/profilewindow). Over HTTP it prints "listening on 127.0.0.1:PORT" on stderr once
// bound. Exit status: 0 at end of stdin or on SIGTERM/SIGINT, 2 on a bad argument or knob (one
// line), 1 on a start-up failure.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"wirecost.dev/targets/common/profilewindow"
)

// host is the only address the HTTP transport listens on.
const host = "127.0.0.1"

// usage is printed after the line that names a bad argument.
const usage = "usage: known-cost-go --transport stdio|http [--port N]"

func main() {
	os.Exit(run(os.Args[1:]))
}

// run parses argv and the knobs, serves, and returns the exit status.
func run(argv []string) int {
	transport, port, err := parseArgs(argv)
	var costs Costs
	if err == nil {
		costs, err = ParseCosts(os.Getenv("WIRECOST_KNOWN_COSTS"))
	}
	if err == nil {
		err = profilewindow.Install("known-cost-go")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "known-cost-go: %v; %s\n", err, usage)
		return 2
	}
	s := &server{costs: costs}
	if transport == "stdio" {
		if err := serveStdio(s, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "known-cost-go: stdio: %v\n", err)
			return 1
		}
		return 0
	}
	return serveHTTP(s, port)
}

// parseArgs reads `--transport stdio|http [--port N]`; the port is required for http.
func parseArgs(argv []string) (transport string, port int, err error) {
	port = -1
	for i := 0; i < len(argv); i += 2 {
		if i+1 >= len(argv) {
			return "", 0, fmt.Errorf("%s needs a value", argv[i])
		}
		switch v := argv[i+1]; argv[i] {
		case "--transport":
			if v != "stdio" && v != "http" {
				return "", 0, fmt.Errorf("--transport %q is not stdio or http", v)
			}
			transport = v
		case "--port":
			n, perr := strconv.Atoi(v)
			if perr != nil || n < 0 || n > 65535 {
				return "", 0, fmt.Errorf("--port %q is not a port number (0-65535)", v)
			}
			port = n
		default:
			return "", 0, fmt.Errorf("unknown argument %q", argv[i])
		}
	}
	if transport == "" {
		return "", 0, errors.New("--transport is required")
	}
	if transport == "http" && port < 0 {
		return "", 0, errors.New("--port is required with --transport http")
	}
	return transport, port, nil
}

// serveStdio answers one JSON-RPC message per line of in, one answer per line of out, until in ends.
func serveStdio(s *server, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriter(out)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if answer := s.handle(line); answer != nil {
				w.Write(answer)
				w.WriteByte('\n')
				if ferr := w.Flush(); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// serveHTTP serves POST /mcp on 127.0.0.1:port until SIGTERM/SIGINT; returns the exit status.
func serveHTTP(s *server, port int) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "known-cost-go: cannot listen on %s:%d: %v\n", host, port, err)
		return 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
			return
		}
		answer := s.handle(body)
		if answer == nil { // a notification: accepted, no body (MCP Streamable HTTP)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})
	srv := &http.Server{Handler: mux}
	fmt.Fprintf(os.Stderr, "listening on %s:%d\n", host, ln.Addr().(*net.TCPAddr).Port)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		_ = srv.Shutdown(context.Background())
		return 0
	case err := <-served:
		fmt.Fprintf(os.Stderr, "known-cost-go: HTTP server stopped: %v\n", err)
		return 1
	}
}
