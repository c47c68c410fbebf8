package main

import (
	"math"
	"strings"
	"testing"
)

// TestJSNumber checks add's text against what JavaScript's String(a+b) prints.
func TestJSNumber(t *testing.T) {
	for v, want := range map[float64]string{
		3: "3", 0.30000000000000004: "0.30000000000000004", 1e21: "1e+21", 1.5e-7: "1.5e-7",
		1e-7: "1e-7", 1e-6: "0.000001", 123456789012: "123456789012", -2.5: "-2.5", 1e300: "1e+300",
	} {
		if got := jsNumber(v); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", v, got, want)
		}
	}
	a, b := 0.1, 0.2 // at run time, as add computes it (constants would fold to exactly 0.3)
	if got := jsNumber(a + b); got != "0.30000000000000004" {
		t.Errorf("jsNumber(0.1+0.2) = %q", got)
	}
	if got := jsNumber(math.Copysign(0, -1)); got != "0" {
		t.Errorf("jsNumber(-0) = %q", got)
	}
}

// TestRequestStateOf checks the length and the repeating alphabet of confirm's requestState.
func TestRequestStateOf(t *testing.T) {
	if s := requestStateOf(0); s != "" {
		t.Errorf("requestStateOf(0) = %q", s)
	}
	s := requestStateOf(130)
	if len(s) != 130 || s[:3] != "ABC" || s[62:66] != "-_AB" || s[128:] != "AB" {
		t.Errorf("requestStateOf(130) = %q", s)
	}
}

// TestTicketsText checks JSON.stringify's bytes: key order, no HTML escaping, no newline.
func TestTicketsText(t *testing.T) {
	got, err := ticketsText([]ticket{{ID: 1, Subject: "a<b>&\"c\"", Body: "x\ny", Status: "open", Priority: "low", Customer: "customer-0001", CreatedAt: "2025-01-01T00:00:00.000Z"}})
	want := `[{"id":1,"subject":"a<b>&\"c\"","body":"x\ny","status":"open","priority":"low","customer":"customer-0001","createdAt":"2025-01-01T00:00:00.000Z"}]`
	if err != nil || got != want {
		t.Errorf("ticketsText = %s, %v; want %s", got, err, want)
	}
	if got, _ := ticketsText([]ticket{}); got != "[]" {
		t.Errorf("ticketsText(empty) = %s", got)
	}
}

// TestParseArgs checks the shared CLI: accepted forms and usage errors.
func TestParseArgs(t *testing.T) {
	ok := map[string]args{"--transport stdio": {transport: "stdio"}, "--transport http": {transport: "http"}, "--transport=http --port 8080": {transport: "http", port: 8080}}
	for line, want := range ok {
		if got, err := parseArgs(splitArgs(line)); err != nil || got != want {
			t.Errorf("parseArgs(%q) = %+v, %v", line, got, err)
		}
	}
	for _, line := range []string{"", "--transport tcp", "--transport stdio --port 1", "--transport http --port 65536", "--transport http --port +1", "--transport http extra", "--bogus"} {
		if _, err := parseArgs(splitArgs(line)); !isUsage(err) {
			t.Errorf("parseArgs(%q): want a usage error, got %v", line, err)
		}
	}
}

func splitArgs(line string) []string {
	var out []string
	word := ""
	for _, c := range line + " " {
		if c == ' ' {
			if word != "" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(c)
	}
	return out
}

// TestHarnessSettings checks --harness's arguments and the protocol's variables: accepted values,
// and a usage error naming the variable for a bad one.
func TestHarnessSettings(t *testing.T) {
	for argv, want := range map[string]string{"--harness direct": "direct", "--harness=sdk": "sdk"} {
		if got, server, err := parseHarnessArgs(strings.Fields(argv)); err != nil || got != want || server.argv != nil || server.url != "" {
			t.Errorf("parseHarnessArgs(%q) = %q, %+v, %v", argv, got, server, err)
		}
	}
	if _, server, err := parseHarnessArgs(strings.Fields("--harness sdk -- env A=1 python3 server.py")); err != nil || strings.Join(server.argv, " ") != "env A=1 python3 server.py" {
		t.Errorf("another server's command: %+v, %v", server, err)
	}
	if _, server, err := parseHarnessArgs(strings.Fields("--harness sdk --url http://127.0.0.1:4000/mcp")); err != nil || server.url != "http://127.0.0.1:4000/mcp" {
		t.Errorf("another server's URL: %+v, %v", server, err)
	}
	if err := checkGivenServer(givenServer{url: "http://127.0.0.1:4000/mcp"}, "stdio"); !isUsage(err) {
		t.Errorf("a URL for a stdio client: %v, want a usage error", err)
	}
	for _, argv := range []string{"--harness", "--harness nope", "--harness direct extra", "--harness direct -- server", "--harness sdk --url http://example.com/mcp", "--harness sdk --"} {
		if _, _, err := parseHarnessArgs(strings.Fields(argv)); !isUsage(err) {
			t.Errorf("parseHarnessArgs(%q): %v, want a usage error", argv, err)
		}
	}
	env := map[string]string{
		"WIRECOST_TICKETS_DB": "/tmp/t.sqlite", "WIRECOST_QUERY": "refund", "WIRECOST_LIMIT": "10", "WIRECOST_CALLS": "3",
		"WIRECOST_WARMUP_CALLS": "0", "WIRECOST_TRANSPORT": "http", "WIRECOST_REVISION": "2026-07-28",
		"WIRECOST_LOOP_IDS": "1,2", "WIRECOST_LOOP_REPEATS": "2", "WIRECOST_PAYLOAD_LIMITS": "2,40", "WIRECOST_PAYLOAD_CALLS": "5",
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	s, err := readHarnessSettings("sdk")
	if err != nil || s.calls != 3 || len(s.loopIDs) != 2 || s.loopRepeats != 2 || len(s.payloadLimits) != 2 || s.payloadCalls != 5 {
		t.Fatalf("readHarnessSettings: %+v, %v", s, err)
	}
	for name, bad := range map[string]string{"WIRECOST_CALLS": "x", "WIRECOST_PAYLOAD_LIMITS": "2,0", "WIRECOST_TRANSPORT": "in-process", "WIRECOST_REVISION": "2025-06-18"} {
		t.Setenv(name, bad)
		if _, err := readHarnessSettings("sdk"); !isUsage(err) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v, want a usage error naming it", name, bad, err)
		}
		t.Setenv(name, env[name])
	}
}
