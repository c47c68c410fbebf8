package main

// The releases report's builds leave the per-call harness (targets/mcp-go/harness.go) out: it uses
// go-sdk's client API of v1.8.0 (ClientSessionOptions.ProtocolVersion), which the earlier releases
// lack, and the releases report counts the server's bytes only. targets/mcp-go-releases/build.sh
// copies this file in its place.

import (
	"fmt"
	"os"
)

// runHarness answers that this build has no harness (exit 2, one line).
func runHarness(argv []string) int {
	fmt.Fprintf(os.Stderr, "mcp-go: %s: this is a release build of the releases report, without the per-call harness; use the target's own build (targets/mcp-go/build.sh)\n", argv[0])
	return 2
}
