package main

// The command line and the environment knobs of mcp-go: the same CLI as every wirecost target
// (targets/common/cli.ts) and the same knobs as targets/mcp-ts-v2 (factory.ts), plus the Go-only
// WIRECOST_GO* knobs for SDK options that change the bytes.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strconv"
)

// usage is printed after every usage error.
const usage = "usage: mcp-go --transport stdio | --transport http [--port N]"

// usageError is a bad argument or knob: main prints "mcp-go: <message>" and the usage line, exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badUsage(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// args is what the command line asked for.
type args struct {
	// transport is "stdio" or "http".
	transport string
	// port is the HTTP port on 127.0.0.1 (0: the OS picks); unused for stdio.
	port int
}

// parseArgs reads `--transport stdio | --transport http [--port N]` (also `--flag=value`).
// Errors are *usageError: an unknown option or positional argument, a missing or unknown
// transport, --port with stdio, or a port outside 0–65535.
func parseArgs(argv []string) (args, error) {
	fs := flag.NewFlagSet("mcp-go", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	transport := fs.String("transport", "", "stdio or http")
	port := fs.String("port", "", "HTTP port (0: the OS picks)")
	if err := fs.Parse(argv); err != nil {
		return args{}, badUsage("%v", err)
	}
	if fs.NArg() > 0 {
		return args{}, badUsage("unexpected argument %q", fs.Arg(0))
	}
	portSet := false
	fs.Visit(func(f *flag.Flag) { portSet = portSet || f.Name == "port" })
	switch *transport {
	case "stdio":
		if portSet {
			return args{}, badUsage("--port applies to --transport http only")
		}
		return args{transport: "stdio"}, nil
	case "http":
		raw := *port
		if !portSet {
			raw = "0"
		}
		n, err := strconv.Atoi(raw)
		if err != nil || !digits.MatchString(raw) || n > 65535 {
			return args{}, badUsage("--port %s is not a port: give a number from 0 to 65535", raw)
		}
		return args{transport: "http", port: n}, nil
	case "":
		return args{}, badUsage("--transport is required")
	default:
		return args{}, badUsage("unknown transport %q: use stdio or http", *transport)
	}
}

var digits = regexp.MustCompile(`^\d+$`)

// config is what the knobs ask the target to serve.
type config struct {
	// catalog is the number of catalog tools listed (WIRECOST_CATALOG, default 3, at least 1).
	catalog int
	// stateBytes is the size of confirm's requestState (WIRECOST_STATE, or WIRECOST_STATE_BYTES
	// when unset; default 0 = none).
	stateBytes int
	// jsonResponse is which HTTP handlers get StreamableHTTPOptions.JSONResponse
	// (WIRECOST_GOJSONRESPONSE: off, stateless or all; default off).
	jsonResponse jsonMode
	// tickets is the per-call workload (WIRECOST_WORKLOAD=tickets), nil when off.
	tickets *ticketStore
	// logger receives the SDK's log records (WIRECOST_DEBUG=1: stderr; else discarded).
	logger *slog.Logger
}

// readCount reads a whole-number knob: fallback when unset or empty, a *usageError naming the
// variable when it is not a whole number >= min.
func readCount(name string, fallback, min int) (int, error) {
	raw := os.Getenv(name)
	if raw == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || !digits.MatchString(raw) || n < min {
		return 0, badUsage("%s=%s is not valid: set it to a whole number >= %d, or unset it for %d", name, raw, min, fallback)
	}
	return n, nil
}

// readSwitch reads an on/off knob: "" or "0" = off, "1" = on, else a *usageError.
func readSwitch(name string) (bool, error) {
	switch raw := os.Getenv(name); raw {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	default:
		return false, badUsage("%s=%s is not valid: set it to 0 or 1, or unset it for 0", name, raw)
	}
}

// jsonMode says which SDK HTTP handlers answer application/json instead of text/event-stream.
type jsonMode string

const (
	// jsonOff is the SDK's default: every answer to a request is an SSE stream, on both handlers.
	jsonOff jsonMode = "off"
	// jsonStateless sets JSONResponse on the stateless (2026-07-28) handler only.
	jsonStateless jsonMode = "stateless"
	// jsonAll sets JSONResponse on both handlers. The 2025-era confirm then fails: its
	// elicitation/create has no response stream to ride and the driver opens no GET stream.
	jsonAll jsonMode = "all"
)

// readJSONMode reads WIRECOST_GOJSONRESPONSE: "" = off, else off|stateless|all, else a *usageError.
func readJSONMode(name string) (jsonMode, error) {
	switch raw := jsonMode(os.Getenv(name)); raw {
	case "":
		return jsonOff, nil
	case jsonOff, jsonStateless, jsonAll:
		return raw, nil
	default:
		return "", badUsage("%s=%s is not valid: set it to off, stateless or all, or unset it for off", name, raw)
	}
}

// configFromEnv reads every knob. Errors are *usageError (exit 2).
func configFromEnv() (config, error) {
	var cfg config
	var err error
	if cfg.catalog, err = readCount("WIRECOST_CATALOG", 3, 1); err != nil {
		return cfg, err
	}
	stateName := "WIRECOST_STATE"
	if os.Getenv(stateName) == "" {
		stateName = "WIRECOST_STATE_BYTES"
	}
	if cfg.stateBytes, err = readCount(stateName, 0, 0); err != nil {
		return cfg, err
	}
	if cfg.jsonResponse, err = readJSONMode("WIRECOST_GOJSONRESPONSE"); err != nil {
		return cfg, err
	}
	// As in mcp-ts-v2, only the value "tickets" turns the workload on; any other value leaves it off.
	if os.Getenv("WIRECOST_WORKLOAD") == "tickets" {
		cfg.tickets = newTicketStore(ticketsDbPath())
	}
	debug, err := readSwitch("WIRECOST_DEBUG")
	if err != nil {
		return cfg, err
	}
	if debug {
		cfg.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return cfg, nil
}

// isUsage reports whether err is a usage error (exit 2).
func isUsage(err error) bool {
	var u *usageError
	return errors.As(err, &u)
}
