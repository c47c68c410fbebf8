package main

// The tools mcp-go serves and the server they are registered on. Everything that reaches the wire
// from here is fixed text, so the bytes are deterministic for a given configuration. The catalog,
// texts and knobs are the ones of targets/mcp-ts-v2 (factory.ts) and targets/common/config.ts.

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// serverName is reported in serverInfo (2025 initialize result, 2026 result _meta).
	serverName = "wirecost-mcp-go"
	// serverVersion is fixed on purpose, so it never changes the byte counts.
	serverVersion = "1.0.0"
	// fillerDescription is the description of every tool_K filler tool.
	fillerDescription = "Catalog filler tool."
	// confirmMessage is the question confirm puts to the user.
	confirmMessage = "Proceed?"
	// confirmInputKey is the key of confirm's one input request (inputRequests.confirm).
	confirmInputKey = "confirm"
	// stateAlphabet is what requestState cycles through (base64url characters: no JSON escaping).
	stateAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)

// textArgs is the input of echo and of every tool_K filler: {"text": string}.
type textArgs struct {
	Text string `json:"text"`
}

// addArgs is the input of add: {"a": number, "b": number}.
type addArgs struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// noArgs is the input of confirm: {}.
type noArgs struct{}

// requestStateOf returns the deterministic requestState of exactly n ASCII bytes ("" when n is 0).
func requestStateOf(n int) string {
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		b.WriteByte(stateAlphabet[i%len(stateAlphabet)])
	}
	return b.String()
}

// jsNumber formats v as JavaScript's String(v) does for finite numbers (e.g. 3 → "3",
// 0.1+0.2 → "0.30000000000000004", 1e21 → "1e+21", 1e-6 → "0.000001", 1e-7 → "1e-7"), so add answers the same
// text as the TypeScript targets.
func jsNumber(v float64) string {
	if v == 0 {
		return "0" // also -0, which JavaScript prints as "0"
	}
	if abs := math.Abs(v); abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // e.g. "1e+21", "1.5e-07"
	mantissa, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mantissa + "e" + sign + digits
}

// text is a tool result of one text content item.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// echoTool answers its text argument back (echo and the tool_K fillers).
func echoTool(_ context.Context, _ *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, any, error) {
	return text(in.Text), nil, nil
}

// confirmSchema is what confirm asks for: {"confirm": boolean}, required.
func confirmSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"confirm": {Type: "boolean"}},
		Required:   []string{"confirm"},
	}
}

// newServer builds the mcp.Server with the target's tools: the first cfg.catalog of echo, add,
// confirm, tool_4, tool_5, …, then (WIRECOST_WORKLOAD=tickets) search_tickets and get_tickets.
// Capabilities are set to {} so that only the inferred {"tools":{"listChanged":true}} is declared,
// as the TypeScript targets declare (the SDK's default would add "logging":{}).
func newServer(cfg config) *mcp.Server {
	server := mcp.NewServer(
		&mcp.Implementation{Name: serverName, Version: serverVersion},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}, Logger: cfg.logger},
	)
	state := requestStateOf(cfg.stateBytes)
	tools := []func(){
		func() { mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Echo the text back."}, echoTool) },
		func() {
			mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Add two numbers."},
				func(_ context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, any, error) {
					return text(jsNumber(in.A + in.B)), nil, nil
				})
		},
		func() {
			mcp.AddTool(server, &mcp.Tool{Name: "confirm", Description: "Ask the user a yes/no question."}, confirmTool(state))
		},
	}
	for k := len(tools) + 1; k <= cfg.catalog; k++ {
		name := "tool_" + strconv.Itoa(k)
		tools = append(tools, func() { mcp.AddTool(server, &mcp.Tool{Name: name, Description: fillerDescription}, echoTool) })
	}
	for _, register := range tools[:min(cfg.catalog, len(tools))] {
		register()
	}
	if cfg.tickets != nil {
		registerTicketTools(server, cfg.tickets)
	}
	return server
}
