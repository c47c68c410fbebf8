package main

// The tools mcp-mark3labs serves and the server they are registered on. Everything that reaches the
// wire from here is fixed text, so the bytes are deterministic for a given configuration. The
// catalog, texts and knobs are the ones of targets/mcp-ts-v2 (factory.ts) and targets/mcp-go.

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	// serverName is reported in serverInfo (2025 initialize result, 2026 result _meta).
	serverName = "wirecost-mcp-mark3labs"
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

// requestStateOf returns the deterministic requestState of exactly n ASCII bytes ("" when n is 0).
func requestStateOf(n int) string {
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		b.WriteByte(stateAlphabet[i%len(stateAlphabet)])
	}
	return b.String()
}

// jsNumber formats v as JavaScript's String(v) does for finite numbers (3 → "3",
// 0.1+0.2 → "0.30000000000000004", 1e21 → "1e+21", 1e-7 → "1e-7"), so add answers the same
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

// echoTool answers its text argument back (echo and the tool_K fillers).
func echoTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(text), nil
}

// addTool answers String(a+b) of its two number arguments.
func addTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, errA := req.RequireFloat("a")
	b, errB := req.RequireFloat("b")
	if errA != nil || errB != nil {
		return mcp.NewToolResultError("add needs the numbers a and b"), nil
	}
	return mcp.NewToolResultText(jsNumber(a + b)), nil
}

// confirmTool returns confirm's handler. Written once for both eras with the SDK's
// InputRequestBuilder: without an answer (or, when state is set, without that exact requestState
// echoed) it returns an input_required result, which the SDK sends as such on 2026-07-28 and, on a
// 2025-era session, turns into a real server→client elicitation/create request, re-running the
// handler with the answer in-process.
func confirmTool(state string) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		stateOK := state == "" || req.Params.RequestState == state
		if answer := server.ElicitationResponse(req.Params.InputResponses, confirmInputKey); stateOK && answer != nil {
			content, _ := answer.Content.(map[string]any)
			if answer.Action == mcp.ElicitationResponseActionAccept && content["confirm"] == true {
				return mcp.NewToolResultText("confirmed: yes"), nil
			}
			return mcp.NewToolResultText("confirmed: no"), nil
		}
		return server.NewInputRequestBuilder(state).
			Elicit(confirmInputKey, mcp.ElicitationParams{
				Mode:    mcp.ElicitationModeForm,
				Message: confirmMessage,
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"confirm": map[string]any{"type": "boolean"}},
					"required":   []string{"confirm"},
				},
			}).
			ToolResult(), nil
	}
}

// newServer builds the MCPServer with the first cfg.catalog of echo, add, confirm, tool_4, tool_5, …
// Capabilities: tools with listChanged, as the TypeScript targets declare.
func newServer(cfg config) *server.MCPServer {
	s := server.NewMCPServer(serverName, serverVersion, server.WithToolCapabilities(true))
	textTool := func(name, description string) mcp.Tool {
		return mcp.NewTool(name, mcp.WithDescription(description), mcp.WithString("text", mcp.Required()))
	}
	tools := []server.ServerTool{
		{Tool: textTool("echo", "Echo the text back."), Handler: echoTool},
		{Tool: mcp.NewTool("add", mcp.WithDescription("Add two numbers."),
			mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())), Handler: addTool},
		{Tool: mcp.NewTool("confirm", mcp.WithDescription("Ask the user a yes/no question.")), Handler: confirmTool(requestStateOf(cfg.stateBytes))},
	}
	for k := len(tools) + 1; k <= cfg.catalog; k++ {
		tools = append(tools, server.ServerTool{Tool: textTool("tool_"+strconv.Itoa(k), fillerDescription), Handler: echoTool})
	}
	s.AddTools(tools[:min(cfg.catalog, len(tools))]...)
	return s
}
