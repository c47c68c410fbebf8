package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestParseArgs checks the accepted command lines and that every bad one is refused.
func TestParseArgs(t *testing.T) {
	ok := map[string]int{
		"--port 0": 0, "--port 8080": 8080, "--port=65535": 65535,
		"--transport http --port 1": 1, "--port 1 --transport=http": 1,
	}
	for line, want := range ok {
		if got, err := parseArgs(strings.Fields(line)); err != nil || got != want {
			t.Errorf("parseArgs(%q) = %d, %v; want %d", line, got, err, want)
		}
	}
	for _, line := range []string{
		"", "--port", "--port x", "--port 65536", "--port -1", "--port +1", "--port 1e3", "--port=",
		"--transport grpc --port 1", "--transport", "--port 1 extra", "--bogus", "-port 1",
	} {
		if _, err := parseArgs(strings.Fields(line)); err == nil {
			t.Errorf("parseArgs(%q): want an error", line)
		}
	}
}

// TestSendMessage runs the workload's exact request through the mux and checks the echo task.
func TestSendMessage(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"wirecost-1","role":"ROLE_USER","parts":[{"text":"hel"},{"text":"lo"}]},"configuration":{"historyLength":0}}}`
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	rec := httptest.NewRecorder()
	newMux(1).ServeHTTP(rec, req)
	var resp struct {
		Result struct {
			Task struct {
				Artifacts []struct {
					ArtifactID string `json:"artifactId"`
					Name       string `json:"name"`
					Parts      []map[string]string
				} `json:"artifacts"`
				Status struct{ State string } `json:"status"`
			} `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s, %v", rec.Code, rec.Body, err)
	}
	task := resp.Result.Task
	if task.Status.State != "TASK_STATE_COMPLETED" || len(task.Artifacts) != 1 {
		t.Fatalf("unexpected task: %s", rec.Body)
	}
	a := task.Artifacts[0]
	if a.ArtifactID != "echo-1" || a.Name != "echo" || len(a.Parts) != 1 ||
		a.Parts[0]["text"] != "Echo: hello" || a.Parts[0]["mediaType"] != "text/plain" {
		t.Errorf("unexpected artifact: %s", rec.Body)
	}
}
