/**
 * The counter's fast path (runner/count/http-fast.ts) against the general parser: on random
 * HTTP/1.1 connections, usual and unusual (bare LF, chunk extensions, trailers, 1xx, HEAD, 204,
 * close-delimited bodies, SSE with comments and multi-line data, compressed bodies, cut and
 * corrupted streams), counting with the fast path gives the same row, message table and
 * breakdown as counting with the general parser only, or the same error. The one-pass file
 * reader (`countLogFile`) is checked against both on the same connections written as a log.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { formatRecord, reassemble } from "../../runner/capture/log.js";
import { countHttpStreams, countLogFile, type CountResult } from "../../runner/count/index.js";
import { LogBuilder, chop } from "./helpers.js";

/** Rarely `arb`, mostly null: for the options that make a log unusual or malformed. */
const rarely = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, { arbitrary: arb, weight: 1 });

const jsonRpc = fc.oneof(
  { arbitrary: fc.constant('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":7}}}'), weight: 4 },
  { arbitrary: fc.constant('{"jsonrpc":"2.0","method":"notifications/initialized"}'), weight: 4 },
  { arbitrary: fc.constant('{"result":{"content":[{"type":"text","text":"hi"}],"_meta":{"x":1}},"jsonrpc":"2.0","id":"a-1"}'), weight: 4 },
  { arbitrary: fc.constant('{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"no"}}'), weight: 2 },
  { arbitrary: fc.constant('[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]'), weight: 2 },
  { arbitrary: fc.constant('{"jsonrpc":"2.0","id":-0,"method":"ping"}'), weight: 1 },
  { arbitrary: fc.constant('{"not":"json-rpc"}'), weight: 1 },
  { arbitrary: fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":', "", " ", "[]", "{}"), weight: 1 }, // not JSON, or no message
  { arbitrary: rarely(fc.string({ maxLength: 20 })).map((t) => t ?? "null"), weight: 1 },
);

const contentType = fc.constantFrom(
  "Content-Type: application/json",
  "content-type: APPLICATION/JSON; charset=utf-8",
  "Content-Type: application/vnd.x+json",
  "Content-Type: text/plain",
  "Content-Type:  application/json  ",
  "",
);

const sseBody = fc
  .array(
    fc.record({
      // One JSON text, sometimes cut into two data lines (the event's data joins them with "\n").
      data: fc
        .tuple(jsonRpc, rarely(fc.nat(200)), fc.boolean())
        .map(([d, cut, none]) => (none && cut !== null ? [] : cut === null ? [d] : [d.slice(0, cut % (d.length + 1)), d.slice(cut % (d.length + 1))])),
      extra: fc.constantFrom("", "event: message\n", ": comment\n", "id: 4\nretry: 10\n"),
      nl: fc.constantFrom("\n", "\r\n", "\r"),
    }),
    { maxLength: 3 },
  )
  .map((events) => events.map((e) => e.extra + e.data.map((d) => `data: ${d}${e.nl}`).join("") + e.nl).join(""));

/** How a body is framed: its head lines and its bytes on the wire. */
function frame(body: string, how: "length" | "chunked" | "chunked-ext" | "trailers" | "none", cuts: number[]): { headers: string[]; wire: string } {
  if (how === "length") return { headers: [`Content-Length: ${Buffer.byteLength(body)}`], wire: body };
  if (how === "none") return { headers: [], wire: body };
  const bytes = Buffer.from(body);
  const pieces = chop(
    bytes,
    [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b),
  ).filter((p) => p.length > 0);
  let wire = "";
  for (const p of pieces) wire += `${p.length.toString(16)}${how === "chunked-ext" ? ";x=1" : ""}\r\n${p.toString("latin1")}\r\n`;
  wire += how === "trailers" ? "0\r\nX-T: 1\r\n\r\n" : "0\r\n\r\n";
  return { headers: ["Transfer-Encoding: chunked"], wire };
}

const framing = fc.constantFrom<"length" | "chunked" | "chunked-ext" | "trailers">("length", "length", "chunked", "chunked", "chunked-ext", "trailers");

const request = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "HEAD"),
  type: contentType,
  body: jsonRpc,
  framing,
  cuts: fc.array(fc.nat(400), { maxLength: 3 }),
  extra: fc.constantFrom("", "Mcp-Session-Id: abc", "X-Odd:\tv\t", "Accept: application/json, text/event-stream"),
});

const response = fc.record({
  status: fc.constantFrom("200 OK", "200 OK", "202 Accepted", "204 No Content", "304 Not Modified", "100 Continue", "200"),
  type: fc.constantFrom("Content-Type: application/json", "content-type: text/event-stream", "Content-Type: text/event-stream; charset=utf-8", ""),
  json: jsonRpc,
  sse: sseBody,
  framing,
  cuts: fc.array(fc.nat(400), { maxLength: 3 }),
  extra: fc.oneof(
    fc.constantFrom("", "Date: Mon, 30 Nov 2026 16:52:16 GMT", "Connection: keep-alive", "Content-Encoding: identity"),
    rarely(fc.constant("Content-Encoding: gzip")).map((e) => e ?? ""),
  ),
});

const connection = fc.record({
  requests: fc.array(request, { minLength: 0, maxLength: 4 }),
  responses: fc.array(response, { minLength: 0, maxLength: 4 }),
  lineEnd: fc.constantFrom("\r\n", "\r\n", "\r\n", "\r\n", "\r\n", "\n"),
  closeDelimitedLast: rarely(fc.constant(true)),
  cut: rarely(fc.nat(2000)), // cut a stream short (the log ends mid-message)
  corrupt: rarely(fc.tuple(fc.nat(2000), fc.integer({ min: 0, max: 255 }))),
  ended: fc.boolean(),
  pieces: fc.array(fc.nat(2000), { maxLength: 4 }),
});

type Conn = typeof connection extends fc.Arbitrary<infer T> ? T : never;

/** The two streams of a generated connection. */
function wire(c: Conn): { c2s: Buffer; s2c: Buffer } {
  const nl = c.lineEnd;
  let c2s = "";
  for (const r of c.requests) {
    const f = frame(r.body, r.framing, r.cuts);
    const lines = [`${r.method} /mcp HTTP/1.1`, "Host: 127.0.0.1", r.type, r.extra, ...f.headers].filter((l) => l !== "");
    c2s += lines.join(nl) + nl + nl + f.wire;
  }
  let s2c = "";
  c.responses.forEach((r, k) => {
    // A response to HEAD, a 204 and a 304 have no body, whatever their head says (RFC 9112 §6.3).
    const interim = r.status.startsWith("1");
    const bodiless = interim || c.requests[k]?.method === "HEAD" || r.status.startsWith("204") || r.status.startsWith("304");
    const body = bodiless ? "" : r.type.includes("event-stream") ? r.sse : r.json;
    const last = k === c.responses.length - 1;
    const f = frame(body, last && c.closeDelimitedLast === true ? "none" : r.framing, r.cuts);
    if (bodiless) f.wire = "";
    if (interim) f.headers = [];
    const lines = [`HTTP/1.1 ${r.status}`, r.type, r.extra, ...f.headers].filter((l) => l !== "");
    s2c += lines.join(nl) + nl + nl + f.wire;
  });
  const out = { c2s: Buffer.from(c2s, "latin1"), s2c: Buffer.from(s2c, "latin1") };
  if (c.cut !== null) out.s2c = out.s2c.subarray(0, c.cut % (out.s2c.length + 1));
  if (c.corrupt !== null && out.c2s.length > 0) out.c2s[c.corrupt[0] % out.c2s.length] = c.corrupt[1];
  return out;
}

/** Count, or the error's message. */
function attempt(f: () => CountResult): { result: unknown } | { error: string } {
  try {
    const r = f();
    return { result: { row: r.row, breakdown: r.breakdown, messages: r.messages.toRows(), anomalies: r.anomalies } };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

/** The capture log of connections, each stream cut into pieces, c2s before s2c. */
function logOf(conns: Conn[]): LogBuilder {
  const log = new LogBuilder();
  conns.forEach((c, k) => {
    const { c2s, s2c } = wire(c);
    for (const [dir, bytes] of [
      ["c2s", c2s],
      ["s2c", s2c],
    ] as const) {
      if (bytes.length === 0) continue;
      const cuts = [...new Set(c.pieces.map((p) => p % bytes.length))].filter((p) => p > 0).sort((a, b) => a - b);
      log.send(k + 1, dir, ...chop(bytes, cuts));
    }
    if (c.ended) log.close(k + 1);
  });
  return log;
}

describe("count fast path", () => {
  it("gives the general parser's counts, message table and errors on random connections", () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.array(connection, { minLength: 1, maxLength: 3 }), (conns) => {
        const streams = reassemble(logOf(conns).records);
        const general = attempt(() => countHttpStreams(streams, false));
        assert.deepEqual(
          attempt(() => countHttpStreams(streams, true)),
          general,
        );
        if ("result" in general) fast++;
      }),
      { numRuns: 600 },
    );
    assert.ok(fast > 100, `only ${fast} of 600 random logs counted without error: the generator is too harsh`);
  });

  it("countLogFile (one pass, each connection counted as it ends) gives the same as the general path", () => {
    const dir = mkdtempSync(join(tmpdir(), "fast-path-"));
    fc.assert(
      fc.property(fc.array(connection, { minLength: 1, maxLength: 3 }), (conns) => {
        const log = logOf(conns);
        const path = join(dir, "log.jsonl");
        writeFileSync(path, log.records.map(formatRecord).join(""));
        assert.deepEqual(
          attempt(() => countLogFile(path, { transport: "http" })),
          attempt(() => countHttpStreams(reassemble(log.records), false)),
        );
      }),
      { numRuns: 200 },
    );
  });
});
