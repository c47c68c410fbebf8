import { test } from "node:test";
import assert from "node:assert/strict";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { ResponseError, serializePost, validateJsonRpc } from "../../runner/measure/request.js";
import { allowedCores, resolveLayout } from "../../runner/measure/pinning.js";
import { runTrial } from "../../runner/measure/trial.js";
import { freePort, startTarget, waitForPort } from "../../runner/targets/process.js";
import { root } from "../paths.js";

test("a JSON-RPC error inside HTTP 200 fails validation", () => {
  const err = Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32009,"message":"version not supported"}}');
  assert.throws(
    () => validateJsonRpc(200, err),
    (e: unknown) => e instanceof ResponseError && /HTTP 200 carrying JSON-RPC error -32009/.test(e.message),
  );
  assert.throws(() => validateJsonRpc(500, Buffer.from("{}")), /HTTP 500/);
  assert.throws(() => validateJsonRpc(200, Buffer.from('{"result":{}}'), "Echo: hello"), /lacks "Echo: hello"/);
  validateJsonRpc(200, Buffer.from('{"result":{"x":"Echo: hello"}}'), "Echo: hello");
});

test("the raw client rejects the A2A SDK's HTTP-200 version error (no A2A-Version header)", async () => {
  const port = await freePort();
  const proc = startTarget({ argv: ["node", "dist/targets/a2a-js/server.js", "--port", "{port}"], env: {} }, { port: String(port) }, root);
  try {
    await waitForPort(port, 20_000, () => proc.exit() === undefined);
    const client = await KeepAliveClient.connect(port);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hello" }] } },
    });
    const req = { workload: "bad", bytes: serializePost(port, "/", [], body), validate: (s: number, b: Buffer) => validateJsonRpc(s, b, "Echo: hello") };
    await assert.rejects(client.send(req), /HTTP 200 carrying JSON-RPC error -32009/);
    client.close();
  } finally {
    await proc.stop();
  }
});

test("a trial whose target answers HTTP 200 with a JSON-RPC error is a failed run", async () => {
  const all = allowedCores();
  // The MCP workload sent to the A2A agent: HTTP 200 + JSON-RPC error (no A2A-Version header).
  const r = await runTrial({
    config: "wrong",
    trial: 1,
    seq: 1,
    cwd: root,
    values: {},
    workload: "mcp-tools-call-2026-07-28",
    command: { argv: ["node", "dist/targets/a2a-js/server.js", "--port", "{port}"], env: {} },
    layout: resolveLayout("default", all),
    allCores: all,
    measures: ["latency"],
    warmupCalls: 1,
    calls: 5,
    connections: [],
    throughputMs: 0,
    startTimeoutMs: 20_000,
  });
  assert.equal(r.status, "failed");
  assert.match(r.error ?? "", /404|JSON-RPC error|HTTP/);
  assert.equal(r.latency, undefined);
});
