package main

// The command line and the environment knobs of mcp-mark3labs: the same CLI as every wirecost target
// (targets/common/cli.ts) and the same knobs as targets/mcp-ts-v2 (factory.ts) and targets/mcp-go.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
)

// usage is printed after every usage error.
const usage = "usage: mcp-mark3labs --transport stdio | --transport http [--port N]"

// usageError is a bad argument or knob: main prints "mcp-mark3labs: <message>" and the usage line, exit 2.
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

var digits = regexp.MustCompile(`^\d+$`)

// parseArgs reads `--transport stdio | --transport http [--port N]` (also `--flag=value`).
// Errors are *usageError: an unknown option or positional argument, a missing or unknown
// transport, --port with stdio, or a port outside 0–65535.
func parseArgs(argv []string) (args, error) {
	fs := flag.NewFlagSet("mcp-mark3labs", flag.ContinueOnError)
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

// config is what the knobs ask the target to serve.
type config struct {
	// catalog is the number of catalog tools listed (WIRECOST_CATALOG, default 3, at least 1).
	catalog int
	// stateBytes is the size of confirm's requestState (WIRECOST_STATE, or WIRECOST_STATE_BYTES
	// when unset; default 0 = none).
	stateBytes int
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
	cfg.stateBytes, err = readCount(stateName, 0, 0)
	return cfg, err
}

// isUsage reports whether err is a usage error (exit 2).
func isUsage(err error) bool {
	var u *usageError
	return errors.As(err, &u)
}
