package main

// Streamable HTTP on 127.0.0.1. The Go SDK serves 2026-07-28 over HTTP only from a handler with
// StreamableHTTPOptions.Stateless set, and a stateless handler cannot send server→client requests,
// so 2025-era confirm (a real elicitation/create) needs a stateful handler. The two SDK handlers sit
// behind one small mux that routes each request by its MCP-Protocol-Version header alone:
//
//   - MCP-Protocol-Version >= "2026-07-28" (the header every 2026-07-28 POST carries) → the
//     stateless handler (no Mcp-Session-Id; POST only, GET/DELETE answer 405);
//   - anything else, including no header (a 2025 initialize, GET, DELETE) → the stateful handler
//     (Mcp-Session-Id issued on initialize; GET standalone stream; DELETE ends the session).
//
// The mux never reads the body and writes no byte of its own: every response is the SDK's.

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpHost is the only address the target binds.
const httpHost = "127.0.0.1"

// statelessSince is the first revision served by the stateless handler.
const statelessSince = "2026-07-28"

// eraMux sends each request to the stateless (2026-07-28) or the stateful (2025 era) handler.
type eraMux struct {
	stateless, stateful http.Handler
}

// ServeHTTP routes by the MCP-Protocol-Version header (see the file comment); the path is not
// looked at, so any path works (use POST /mcp).
func (m eraMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Mcp-Protocol-Version") >= statelessSince {
		m.stateless.ServeHTTP(w, r)
		return
	}
	m.stateful.ServeHTTP(w, r)
}

// httpTarget is a listening HTTP target.
type httpTarget struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// startHTTP listens on 127.0.0.1:port (0: the OS picks) and serves both SDK handlers, one shared
// mcp.Server behind both. Returns once connections are accepted; errors are listen failures.
func startHTTP(cfg config, port int) (*httpTarget, error) {
	server := newServer(cfg)
	get := func(*http.Request) *mcp.Server { return server }
	mux := eraMux{
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Stateless:    true,
			JSONResponse: cfg.jsonResponse != jsonOff,
			Logger:       cfg.logger,
		}),
		stateful: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			JSONResponse: cfg.jsonResponse == jsonAll,
			Logger:       cfg.logger,
		}),
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(httpHost, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	t := &httpTarget{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, ln: ln, done: make(chan error, 1)}
	go func() { t.done <- t.srv.Serve(ln) }()
	return t, nil
}

// port is the port the target listens on.
func (t *httpTarget) port() int { return t.ln.Addr().(*net.TCPAddr).Port }

// wait blocks until the server stops; nil after close, else the serve error.
func (t *httpTarget) wait() error {
	if err := <-t.done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// close stops accepting and closes every connection (open SSE responses included) at once.
func (t *httpTarget) close(context.Context) error { return t.srv.Close() }
