//go:build gosdk_pre_1_7

package main

// confirm's handler on go-sdk releases before v1.7.0 (v1.2.0 … v1.6.1), which serve the 2025
// revisions only and have no input-required results (CallToolResult.InputRequests and
// RequestState arrived in v1.7.0). Built with the tag gosdk_pre_1_7 by the releases report
// (targets/mcp-go-releases/build.sh); the wire matrix's mcp-go (v1.8.0) never compiles it.

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmTool returns confirm's handler for the 2025 era: a server→client elicitation/create
// related to this call (ServerSession.Elicit), with the same message and form schema as
// confirm.go's input request. state is unused: the 2025 revisions have no requestState.
func confirmTool(_ string) mcp.ToolHandlerFor[noArgs, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		answer, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: confirmMessage, RequestedSchema: confirmSchema()})
		if err != nil {
			return nil, nil, err
		}
		if answer.Action == "accept" && answer.Content["confirm"] == true {
			return text("confirmed: yes"), nil, nil
		}
		return text("confirmed: no"), nil, nil
	}
}
