package main

import (
	"math"
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
