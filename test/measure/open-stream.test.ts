/**
 * The timing client ends an exchange at its JSON-RPC response, not at the end of the HTTP
 * response (MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server": the server SHOULD
 * close the SSE stream after all responses are sent). Against the fault target that keeps each
 * event stream open (a `: ping` every second, closed after 30 s), a trial with latency and
 * throughput finishes in seconds and no call takes near a second; each exchange goes on a new
 * connection. A server that ends its stream in the read that brings the answer keeps one
 * connection.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { allowedCores, resolveLayout } from "../../runner/measure/pinning.js";
import { runThroughput } from "../../runner/measure/throughput.js";
import { runTrial } from "../../runner/measure/trial.js";
import { WORKLOADS } from "../../runner/measure/workloads.js";
import { freePort, startTarget, waitForPort, type TargetProcess } from "../../runner/targets/process.js";
import { root } from "../paths.js";

const OPEN_STREAM = join(root, "test/fixtures/fault-targets/open-stream.mjs");
const command = { argv: ["node", OPEN_STREAM, "--port", "{port}"], env: {} };

async function startOpenStream(): Promise<{ proc: TargetProcess; port: number }> {
  const port = await freePort();
  const proc = startTarget(command, { port: String(port) }, root);
  await waitForPort(port, 10_000, () => proc.exit() === undefined);
  return { proc, port };
}

test("a trial against a server that keeps each event stream open for 30 s takes seconds, and no call waits for the stream", { timeout: 30_000 }, async () => {
  const all = allowedCores();
  const t0 = Date.now();
  const r = await runTrial({
    config: "open-stream",
    trial: 1,
    seq: 1,
    cwd: root,
    values: {},
    workload: "mcp-tools-call-2026-07-28",
    command,
    layout: resolveLayout("default", all),
    allCores: all,
    measures: ["latency", "throughput"],
    warmupCalls: 3,
    calls: 20,
    connections: [2],
    throughputMs: 1000,
    startTimeoutMs: 10_000,
  });
  const wallMs = Date.now() - t0;
  assert.equal(r.status, "ok", r.error);
  assert.ok(wallMs < 10_000, `trial took ${wallMs} ms (a stream held open is 30 s)`);
  assert.equal(r.latency?.count, 20);
  assert.ok(r.latency!.maxUs < 500_000, `slowest call ${r.latency!.maxUs} µs: it waited on the open stream (pings come every second)`);
  const [tp] = r.throughput!;
  assert.equal(tp!.errors, 0);
  assert.ok(tp!.requests >= 20, `${tp!.requests} requests in a 1 s window`);
  assert.ok(tp!.latency.maxUs < 500_000, `slowest throughput call ${tp!.latency.maxUs} µs`);
  // The answer is the JSON-RPC message carried by the event (validated as JSON), not the event stream
  // (the workload's request is a 2026-07-28 one, so the result carries that revision's resultType).
  const text = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}],"resultType":"complete"}}';
  assert.equal(r.responseBodyBytes, Buffer.byteLength(text));
});

test("each exchange on a stream left open goes on a new connection; the throughput window does not count the 30 s", { timeout: 30_000 }, async () => {
  const { proc, port } = await startOpenStream();
  try {
    const req = WORKLOADS["mcp-tools-call-2026-07-28"]!(port);
    const client = await KeepAliveClient.connect(port);
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await client.send(req);
    assert.ok(Date.now() - t0 < 2000, `5 sequential calls took ${Date.now() - t0} ms`);
    assert.equal(client.connections, 5, "an open stream occupies its connection: the next request needs a new one");
    client.close();
    const w = await runThroughput(port, req, 3, 500);
    assert.equal(w.errors, 0, w.firstError);
    assert.ok(w.wallNs < 2e9, `window of 500 ms took ${w.wallNs / 1e6} ms`);
    assert.ok(w.requestsPerSecond > 20, `${w.requestsPerSecond} requests/s`);
  } finally {
    await proc.stop();
  }
});

/** A TCP server answering every POST with an event stream whose event and last chunk come in one write. */
async function sseServer(): Promise<{ server: Server; port: number }> {
  const body = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}\n\n';
  const chunk = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const server = createServer((s) => {
    let seen = "";
    s.on("data", (d: Buffer) => {
      seen += d.toString("latin1");
      // One answer per complete request (head, then Content-Length body bytes).
      for (;;) {
        const end = seen.indexOf("\r\n\r\n");
        const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, end))?.[1]);
        if (end < 0 || seen.length < end + 4 + length) break;
        seen = seen.slice(end + 4 + length);
        s.write(`HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`);
      }
    });
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

test("an event stream that ends with its answer keeps the one keep-alive connection", async () => {
  const { server, port } = await sseServer();
  try {
    const req = WORKLOADS["mcp-tools-call-2026-07-28"]!(port);
    const client = await KeepAliveClient.connect(port);
    for (let i = 0; i < 5; i++) await client.send(req);
    assert.equal(client.connections, 1);
    client.close();
  } finally {
    server.close();
  }
});
