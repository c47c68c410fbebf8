package main

import (
	"fmt"
	"strconv"
)

// host is the only address the agent listens on.
const host = "127.0.0.1"

// usage is printed after the one line that names a bad argument.
const usage = "usage: a2a-go [--transport http] --port N (0-65535, 0: the OS picks)"

// parseArgs reads the command line (without the program name): --port N (required, 0-65535,
// decimal digits only) and an optional --transport http, each also accepted as --name=value.
// It returns the port, or an error naming the bad argument.
func parseArgs(argv []string) (int, error) {
	port := -1
	for i := 0; i < len(argv); i++ {
		name, value, inline := splitFlag(argv[i])
		if name != "--port" && name != "--transport" {
			return 0, fmt.Errorf("unknown argument %q", argv[i])
		}
		if !inline {
			if i+1 >= len(argv) {
				return 0, fmt.Errorf("%s needs a value", name)
			}
			i++
			value = argv[i]
		}
		switch name {
		case "--port":
			n, err := parsePort(value)
			if err != nil {
				return 0, err
			}
			port = n
		case "--transport":
			if value != "http" {
				return 0, fmt.Errorf("--transport %q is not supported (this target serves http only)", value)
			}
		}
	}
	if port < 0 {
		return 0, fmt.Errorf("--port is required")
	}
	return port, nil
}

// splitFlag splits "--name=value" into its parts; inline is false when arg has no "=".
func splitFlag(arg string) (name, value string, inline bool) {
	for i := 0; i < len(arg); i++ {
		if arg[i] == '=' {
			return arg[:i], arg[i+1:], true
		}
	}
	return arg, "", false
}

// parsePort accepts decimal digits only (no sign, no spaces) in 0-65535.
func parsePort(s string) (int, error) {
	bad := fmt.Errorf("--port %q is not a port number", s)
	if s == "" || len(s) > 5 {
		return 0, bad
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, bad
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 65535 {
		return 0, bad
	}
	return n, nil
}
