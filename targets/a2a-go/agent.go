package main

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// echoExecutor answers every message with one completed Task snapshot whose one artifact
// (echo-1, echo-2, … per process, name "echo") is the text part "Echo: <text>".
type echoExecutor struct {
	artifactSeq atomic.Uint64
}

var _ a2asrv.AgentExecutor = (*echoExecutor)(nil)

// Execute implements a2asrv.AgentExecutor: it yields one Task in state completed, with a UTC
// timestamp, the artifact, and the user message as its history (as the other echo agents write it).
func (e *echoExecutor) Execute(_ context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		var text strings.Builder
		for _, p := range execCtx.Message.Parts {
			text.WriteString(p.Text())
		}
		part := a2a.NewTextPart("Echo: " + text.String())
		part.MediaType = "text/plain"
		now := time.Now().UTC()
		task := &a2a.Task{
			ID:        execCtx.TaskID,
			ContextID: execCtx.ContextID,
			Status:    a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &now},
			Artifacts: []*a2a.Artifact{{
				ID:    a2a.ArtifactID(fmt.Sprintf("echo-%d", e.artifactSeq.Add(1))),
				Name:  "echo",
				Parts: a2a.ContentParts{part},
			}},
			History: []*a2a.Message{execCtx.Message},
		}
		yield(task, nil)
	}
}

// Cancel implements a2asrv.AgentExecutor. Echo tasks complete within SendMessage, so there is
// never one to cancel; it yields a canceled status update as the SDK's documentation suggests.
func (e *echoExecutor) Cancel(_ context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(execCtx, a2a.TaskStateCanceled, nil), nil)
	}
}

// agentCard is the card served at /.well-known/agent-card.json (not used by the timing flows; the
// wire flow a2a-card fetches it): the JS target's fields, with the JSON-RPC interface at
// http://127.0.0.1:PORT/, and one echo skill (the A2A TCK's mandatory card test requires a
// non-empty skills list, each skill with id, name, description and tags).
func agentCard(port int) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name:        "wirecost echo",
		Description: "Echoes the text of each message as a completed task artifact.",
		Version:     "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			a2a.NewAgentInterface(fmt.Sprintf("http://%s:%d/", host, port), a2a.TransportProtocolJSONRPC),
		},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "Replies Echo: <text>.", Tags: []string{"echo"}}},
	}
}

// newMux routes POST / to the SDK's JSON-RPC handler and the well-known path to its agent-card
// handler. Only the exact path / reaches JSON-RPC; any other path is net/http's 404.
func newMux(port int) *http.ServeMux {
	handler := a2asrv.NewHandler(&echoExecutor{})
	mux := http.NewServeMux()
	mux.Handle("/{$}", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(agentCard(port)))
	return mux
}
