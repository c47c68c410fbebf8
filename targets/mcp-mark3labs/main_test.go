package main

import "testing"

// TestJSNumber checks add's text against JavaScript's String(a+b).
func TestJSNumber(t *testing.T) {
	a, b := 0.1, 0.2 // variables: a constant 0.1 + 0.2 would be folded exactly to 0.3
	for in, want := range map[float64]string{3: "3", a + b: "0.30000000000000004", 1e21: "1e+21", 1e-7: "1e-7", -2.5: "-2.5"} {
		if got := jsNumber(in); got != want {
			t.Errorf("jsNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

// TestRequestState checks the requestState's length and alphabet cycle.
func TestRequestState(t *testing.T) {
	s := requestStateOf(70)
	if len(s) != 70 || s[:3] != "ABC" || s[64:67] != "ABC" {
		t.Errorf("requestStateOf(70) = %q", s)
	}
	if requestStateOf(0) != "" {
		t.Error("requestStateOf(0) is not empty")
	}
}

// TestParseArgs checks the CLI's accepted and refused forms.
func TestParseArgs(t *testing.T) {
	if a, err := parseArgs([]string{"--transport", "http", "--port", "0"}); err != nil || a.transport != "http" || a.port != 0 {
		t.Errorf("http --port 0: %+v %v", a, err)
	}
	for _, bad := range [][]string{{}, {"--transport", "tcp"}, {"--transport", "stdio", "--port", "1"}, {"--transport", "http", "--port", "70000"}, {"--transport", "http", "x"}} {
		if _, err := parseArgs(bad); !isUsage(err) {
			t.Errorf("%v: want a usage error, got %v", bad, err)
		}
	}
}
