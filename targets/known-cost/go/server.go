package main

import (
	"encoding/json"
	"fmt"
)

// server answers the MCP requests of one process; it keeps no state between requests.
type server struct {
	costs Costs
}

// message is a JSON-RPC 2.0 request or notification (no id).
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// toolCall is the params of tools/call.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// rpcError is a JSON-RPC 2.0 error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// tools is the tools/list result: search_tickets and get_tickets.
var tools = map[string]any{"tools": []any{
	map[string]any{"name": "search_tickets", "description": "Search tickets (known cost)", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer"}},
		"required": []string{"query"},
	}},
	map[string]any{"name": "get_tickets", "description": "Get tickets by id (known cost)", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"ids": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}}},
		"required": []string{"ids"},
	}},
}}

// handle answers one JSON-RPC message: the answer's bytes, or nil for a notification.
func (s *server) handle(raw []byte) []byte {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return answer(json.RawMessage("null"), nil, &rpcError{-32700, "parse error: " + err.Error()})
	}
	if len(m.ID) == 0 {
		return nil
	}
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p)
		version := "2025-11-25"
		if p.ProtocolVersion == "2025-06-18" {
			version = p.ProtocolVersion
		}
		return answer(m.ID, map[string]any{
			"protocolVersion": version,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "known-cost-go", "version": "1"},
		}, nil)
	case "ping":
		return answer(m.ID, map[string]any{}, nil)
	case "tools/list":
		return answer(m.ID, tools, nil)
	case "tools/call":
		call, err := parseAndValidate(m.Params, s.costs.ParseAndValidateUs)
		if err != nil {
			return answer(m.ID, nil, &rpcError{-32602, err.Error()})
		}
		n := doWork(call, s.costs.DoWorkUs)
		return answer(m.ID, buildResult(call, n, s.costs.BuildResultUs), nil)
	default:
		return answer(m.ID, nil, &rpcError{-32601, "method not found: " + m.Method})
	}
}

// parseAndValidate spends its known cost, then decodes and checks the tools/call params.
//
//go:noinline
func parseAndValidate(params json.RawMessage, costUs int64) (toolCall, error) {
	spin(costUs)
	var call toolCall
	if err := json.Unmarshal(params, &call); err != nil {
		return call, fmt.Errorf("invalid tools/call params: %v", err)
	}
	if call.Name != "search_tickets" && call.Name != "get_tickets" {
		return call, fmt.Errorf("unknown tool %q", call.Name)
	}
	return call, nil
}

// doWork spends its known cost (the tool's work) and returns how many arguments the call had.
//
//go:noinline
func doWork(call toolCall, costUs int64) int {
	spin(costUs)
	return len(call.Arguments)
}

// buildResult spends its known cost, then builds the tools/call result.
//
//go:noinline
func buildResult(call toolCall, arguments int, costUs int64) map[string]any {
	spin(costUs)
	text := fmt.Sprintf("%s ran with %d argument(s)", call.Name, arguments)
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
}

// answer is a JSON-RPC 2.0 response with result or error.
func answer(id json.RawMessage, result any, e *rpcError) []byte {
	out := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		out["error"] = e
	} else {
		out["result"] = result
	}
	b, _ := json.Marshal(out) // maps of JSON values only: cannot fail
	return b
}
