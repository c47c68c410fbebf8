//go:build !gosdk_pre_1_7

package main

// confirm's handler on go-sdk v1.7.0 and later (the releases that serve 2026-07-28). The releases
// report builds older releases with the tag gosdk_pre_1_7, which takes confirm_elicit.go instead
// (targets/mcp-go-releases/README.md).

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmTool returns confirm's handler. Written once for both eras: without an answer (or, when
// state is set, without that exact requestState echoed) it returns an input-required result, which
// the SDK puts on the wire as resultType "input_required" on 2026-07-28 and turns into a real
// server→client elicitation/create request on a 2025-era session (re-running the handler with the
// answer and the state in-process).
func confirmTool(state string) mcp.ToolHandlerFor[noArgs, any] {
	return func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		stateOK := state == "" || req.Params.RequestState == state
		if answer, ok := req.Params.InputResponses[confirmInputKey].(*mcp.ElicitResult); stateOK && ok {
			if answer.Action == "accept" && answer.Content["confirm"] == true {
				return text("confirmed: yes"), nil, nil
			}
			return text("confirmed: no"), nil, nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{
				confirmInputKey: &mcp.ElicitParams{Message: confirmMessage, RequestedSchema: confirmSchema()},
			},
			RequestState: state,
		}, nil, nil
	}
}
