/**
 * byteChangeCauses on real capture logs with known differences: two real runs of one target with
 * a server knob (JSON answers vs SSE), and real logs with one documented edit each (a header
 * added to every response, a JSON member removed from every tool, one round trip removed). Each
 * expected figure is computed here from the edit, independently of the code under test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { readCaptureLog, reassemble, type CaptureRecord } from "../../runner/capture/log.js";
import { byteChangeCauses, type ByteChange } from "../../runner/compare/causes.js";
import { root } from "../paths.js";

const log = (config: string): string => resolve(root, "results/logs", config, "1.jsonl");

/**
 * A log's streams edited: `edit` gets each stream's bytes as latin1 text and returns the new
 * text; the result has one record per stream (and its eof), in the order the streams began.
 */
function editedLog(records: readonly CaptureRecord[], edit: (text: string, dir: "c2s" | "s2c") => string): CaptureRecord[] {
  const streams = reassemble([...records]).sort((a, b) => (a.chunkSeq[0] ?? 0) - (b.chunkSeq[0] ?? 0));
  const out: CaptureRecord[] = [];
  let seq = 1;
  for (const s of streams) {
    const bytes = Buffer.from(edit(s.bytes.toString("latin1"), s.dir), "latin1");
    out.push({ conn: s.conn, seq: seq++, dir: s.dir, b64: bytes.toString("base64") } as CaptureRecord);
    if (s.ended) out.push({ conn: s.conn, seq: seq++, dir: s.dir, eof: true } as CaptureRecord);
  }
  return out;
}

/** The causes' bytes plus the unexplained rest equal the change, per layer and in total. */
function assertSums(r: ByteChange): void {
  assert.equal(r.causes.reduce((s, c) => s + c.bytes, 0) + r.unexplainedBytes, r.delta.total_bytes);
}

test("identical logs: no change, no causes", () => {
  const r = byteChangeCauses(
    { log: log("raw-mcp-ts-v1-http-2025-11-25-plain"), transport: "http" },
    { log: log("raw-mcp-ts-v1-http-2025-11-25-plain"), transport: "http" },
  );
  assert.equal(r.delta.total_bytes, 0);
  assert.deepEqual(r.causes, []);
  assert.equal(r.unexplainedBytes, 0);
});

test("a header added to every response (edit: `x-extra: 1` after each status line)", () => {
  const base = readCaptureLog(log("raw-mcp-ts-v1-http-2025-11-25-plain"));
  let responses = 0;
  const head = editedLog(base, (t, dir) =>
    dir === "s2c"
      ? t.replace(/HTTP\/1\.1 [0-9]{3}[^\r]*\r\n/g, (line) => {
          responses++;
          return `${line}x-extra: 1\r\n`;
        })
      : t,
  );
  assert.ok(responses >= 4, `responses edited: ${responses}`);
  const r = byteChangeCauses({ log: base, transport: "http" }, { log: head, transport: "http" });
  const line = "x-extra: 1\r\n".length;
  assert.equal(r.delta.total_bytes, responses * line);
  assert.equal(r.delta.response_head_bytes, responses * line);
  assert.ok(r.causes.every((c) => c.kind === "header" && c.change === "added" && c.name === "x-extra" && c.dir === "s2c"));
  assert.equal(
    r.causes.reduce((s, c) => s + c.count, 0),
    responses,
  );
  assert.equal(r.unexplainedBytes, 0);
  assertSums(r);
  // Swapped: removed, negative bytes.
  const back = byteChangeCauses({ log: head, transport: "http" }, { log: base, transport: "http" });
  assert.equal(back.delta.total_bytes, -responses * line);
  assert.ok(back.causes.every((c) => c.change === "removed" && c.bytes < 0));
});

test("a body field added: tools/list result `.tools[*].execution` (edit: the member removed from the base)", () => {
  const headRecords = readCaptureLog(log("raw-mcp-ts-v1-stdio-2025-11-25-plain"));
  let removed = 0;
  let tools = 0;
  const base = editedLog(headRecords, (t, dir) =>
    dir !== "s2c"
      ? t
      : t
          .split("\n")
          .map((line) => {
            if (!line.includes('"tools":[')) return line;
            const v = JSON.parse(line);
            assert.equal(JSON.stringify(v), line, "the server writes JSON as JSON.stringify does");
            for (const tool of v.result.tools) {
              tools++;
              delete tool.execution;
            }
            const out = JSON.stringify(v);
            removed += line.length - out.length;
            return out;
          })
          .join("\n"),
  );
  assert.ok(tools >= 1 && removed > 0);
  const r = byteChangeCauses({ log: base, transport: "stdio" }, { log: headRecords, transport: "stdio" });
  assert.equal(r.delta.total_bytes, removed);
  assert.equal(r.causes.length, 1);
  const [c] = r.causes;
  assert.deepEqual(
    { kind: c!.kind, change: c!.change, method: c!.method, name: c!.name, count: c!.count, bytes: c!.bytes },
    { kind: "json path", change: "added", method: "tools/list", name: "result.tools[*].execution", count: tools, bytes: removed },
  );
  assert.equal(r.unexplainedBytes, 0);
});

test("one more round trip: a tools/call exchange removed from the base (HTTP)", () => {
  const headRecords = readCaptureLog(log("raw-mcp-ts-v1-http-2025-11-25-ten"));
  // The last tools/call request and its response, cut from the base's one connection.
  let cut = 0;
  const base = editedLog(headRecords, (t, dir) => {
    const at = dir === "c2s" ? t.lastIndexOf("POST /mcp HTTP/1.1\r\n") : t.lastIndexOf("HTTP/1.1 200 OK\r\n");
    assert.ok(at > 0);
    cut += t.length - at;
    return t.slice(0, at);
  });
  const r = byteChangeCauses({ log: base, transport: "http" }, { log: headRecords, transport: "http" });
  assert.equal(r.delta.total_bytes, cut);
  assert.equal(r.delta.http_round_trips, 1);
  assert.equal(r.causes.length, 1);
  assert.deepEqual(
    { kind: r.causes[0]!.kind, change: r.causes[0]!.change, method: r.causes[0]!.method, bytes: r.causes[0]!.bytes },
    { kind: "exchange", change: "added", method: "tools/call", bytes: cut },
  );
  assertSums(r);
});

test("SSE instead of JSON: two real runs of the Python server, JSON answers on and off", () => {
  const r = byteChangeCauses(
    { log: log("raw-mcp-py-http-2025-11-25-plain-ans-json"), transport: "http" },
    { log: log("raw-mcp-py-http-2025-11-25-plain"), transport: "http" },
  );
  assert.ok(r.delta.total_bytes > 0);
  const sse = r.causes.filter((c) => c.kind === "framing" && c.name === "json → sse");
  assert.equal(
    sse.reduce((s, c) => s + c.count, 0),
    3,
    "initialize, tools/list and tools/call answers",
  );
  assert.ok(sse.every((c) => c.bytes > 0 && (c.layers.response_body_bytes ?? 0) > 0));
  assert.equal(r.unexplainedBytes, 0);
  assert.deepEqual(r.unexplained, {});
  assertSums(r);
});

test("transports must match", () => {
  assert.throws(() => byteChangeCauses({ log: [], transport: "http" }, { log: [], transport: "stdio" }), /cannot align a http run with a stdio run/);
});
