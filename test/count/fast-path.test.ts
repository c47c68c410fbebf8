/**
 * The counter's fast path (runner/count/http-fast.ts) against the general parser: on random
 * HTTP/1.1 connections, usual and unusual (bare LF, chunk extensions, trailers, 1xx, HEAD, 204,
 * close-delimited bodies, SSE with comments and multi-line data, compressed bodies, cut and
 * corrupted streams) and anomalous (responses logged before their requests or twice, declared
 * lengths that lie, 101, JSON-RPC in text/plain bodies, SSE events never ended, null and
 * string-for-number ids), counting with the fast path gives the same row, message table,
 * breakdown and anomalies as counting with the general parser only; by default every log counts
 * and adds up, and with strict both give the same error or the same count. The one-pass file
 * reader (`countLogFile`) is checked against both on the same connections written as a log.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { formatRecord, reassemble } from "../../runner/capture/log.js";
import { connectionsCounted, countHttpStreams, countLogFile, type CountResult } from "../../runner/count/index.js";
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
  { arbitrary: fc.constantFrom('{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","id":"1","result":{}}'), weight: 2 }, // a result id of either type
  { arbitrary: fc.constant('{"jsonrpc":"2.0","id":null,"method":"ping"}'), weight: 1 },
  { arbitrary: fc.constant('{"not":"json-rpc"}'), weight: 1 },
  { arbitrary: fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":', "", " ", "[]", "{}"), weight: 1 }, // not JSON, or no message
  { arbitrary: rarely(fc.string({ maxLength: 20 })).map((t) => t ?? "null"), weight: 1 },
);

const contentType = fc.oneof(
  {
    arbitrary: fc.constantFrom("Content-Type: application/json", "content-type: APPLICATION/JSON; charset=utf-8", "Content-Type:  application/json  "),
    weight: 6,
  },
  { arbitrary: fc.constantFrom("Content-Type: application/vnd.x+json", "Content-Type: text/plain", ""), weight: 1 }, // a JSON body of another type: jsonrpc-in-non-json-body
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
  .chain((events) => fc.tuple(fc.constant(events), rarely(fc.constantFrom("data: open", ": comment", "data: {}\n"))))
  // Rarely a last event never ended by a blank line (sse-event-unterminated), or a comment after the last.
  .map(([events, open]) => events.map((e) => e.extra + e.data.map((d) => `data: ${d}${e.nl}`).join("") + e.nl).join("") + (open ?? ""));

/**
 * How a body is framed: its head lines and its bytes on the wire. `lie` (rarely set) is added to
 * the declared length (Content-Length, or the first chunk's size): a length that disagrees.
 */
function frame(
  body: string,
  how: "length" | "chunked" | "chunked-ext" | "trailers" | "none",
  cuts: number[],
  lie: number | null = null,
): { headers: string[]; wire: string } {
  if (how === "length") return { headers: [`Content-Length: ${Math.max(0, Buffer.byteLength(body) + (lie ?? 0))}`], wire: body };
  if (how === "none") return { headers: [], wire: body };
  const bytes = Buffer.from(body);
  const pieces = chop(
    bytes,
    [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b),
  ).filter((p) => p.length > 0);
  let wire = "";
  pieces.forEach((p, k) => {
    const size = Math.max(1, p.length + (k === 0 ? (lie ?? 0) : 0));
    wire += `${size.toString(16)}${how === "chunked-ext" ? ";x=1" : ""}\r\n${p.toString("latin1")}\r\n`;
  });
  wire += how === "trailers" ? "0\r\nX-T: 1\r\n\r\n" : "0\r\n\r\n";
  return { headers: ["Transfer-Encoding: chunked"], wire };
}

const framing = fc.constantFrom<"length" | "chunked" | "chunked-ext" | "trailers">(
  "length",
  "length",
  "length",
  "chunked",
  "chunked",
  "chunked",
  "chunked-ext",
  "trailers",
);

const request = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "POST", "POST", "POST", "GET", "DELETE", "HEAD"),
  type: contentType,
  body: jsonRpc,
  framing,
  cuts: fc.array(fc.nat(400), { maxLength: 3 }),
  lie: rarely(fc.constantFrom(-2, -1, 1, 3)),
  extra: fc.constantFrom("", "Mcp-Session-Id: abc", "X-Odd:\tv\t", "Accept: application/json, text/event-stream"),
});

const response = fc.record({
  status: fc.oneof(
    fc.constantFrom("200 OK", "200 OK", "202 Accepted", "204 No Content", "304 Not Modified", "100 Continue", "200"),
    rarely(fc.constant("101 Switching Protocols")).map((s) => s ?? "200 OK"),
  ),
  type: fc.oneof(
    {
      arbitrary: fc.constantFrom("Content-Type: application/json", "content-type: text/event-stream", "Content-Type: text/event-stream; charset=utf-8"),
      weight: 6,
    },
    { arbitrary: fc.constantFrom("", "Content-Type: text/plain"), weight: 1 }, // read as JSON when it is JSON
  ),
  json: jsonRpc,
  sse: sseBody,
  framing,
  cuts: fc.array(fc.nat(400), { maxLength: 3 }),
  lie: rarely(fc.constantFrom(-2, -1, 1, 3)),
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
  // The order of the log: all requests then all responses, each response after its request, or
  // rarely a response logged before its request (unsolicited or extra); rarely a response twice.
  order: fc.constantFrom<"requests-first" | "turns" | "early">("requests-first", "turns", "turns", "turns", "early"),
  early: fc.nat(4),
  twice: rarely(fc.nat(4)),
});

type Conn = typeof connection extends fc.Arbitrary<infer T> ? T : never;

/**
 * The two streams of a generated connection, and where each message ends in them (offsets, in
 * message order: the log interleaves the streams at these boundaries).
 */
function wire(c: Conn): { c2s: Buffer; s2c: Buffer; c2sEnds: number[]; s2cEnds: number[] } {
  const nl = c.lineEnd;
  let c2s = "";
  const c2sEnds: number[] = [];
  const s2cEnds: number[] = [];
  for (const r of c.requests) {
    const f = frame(r.body, r.framing, r.cuts, r.lie);
    const lines = [`${r.method} /mcp HTTP/1.1`, "Host: 127.0.0.1", r.type, r.extra, ...f.headers].filter((l) => l !== "");
    c2s += lines.join(nl) + nl + nl + f.wire;
    c2sEnds.push(Buffer.byteLength(c2s, "latin1"));
  }
  let s2c = "";
  const responses = [...c.responses];
  if (c.twice !== null && responses.length > 0) responses.splice(c.twice % responses.length, 0, responses[c.twice % responses.length]!);
  responses.forEach((r, k) => {
    // A response to HEAD, a 204 and a 304 have no body, whatever their head says (RFC 9112 §6.3).
    const interim = r.status.startsWith("1");
    const bodiless = interim || c.requests[k]?.method === "HEAD" || r.status.startsWith("204") || r.status.startsWith("304");
    const body = bodiless ? "" : r.type.includes("event-stream") ? r.sse : r.json;
    const last = k === responses.length - 1;
    const f = frame(body, last && c.closeDelimitedLast === true ? "none" : r.framing, r.cuts, r.lie);
    if (bodiless) f.wire = "";
    if (interim) f.headers = [];
    const lines = [`HTTP/1.1 ${r.status}`, r.type, r.extra, ...f.headers].filter((l) => l !== "");
    s2c += lines.join(nl) + nl + nl + f.wire;
    s2cEnds.push(Buffer.byteLength(s2c, "latin1"));
  });
  const out = { c2s: Buffer.from(c2s, "latin1"), s2c: Buffer.from(s2c, "latin1"), c2sEnds, s2cEnds };
  if (c.cut !== null) out.s2c = out.s2c.subarray(0, c.cut % (out.s2c.length + 1));
  if (c.corrupt !== null && out.c2s.length > 0) out.c2s[c.corrupt[0] % out.c2s.length] = c.corrupt[1];
  return out;
}

/** Count, or the error's message. */
function attempt(f: () => CountResult): { result: unknown } | { error: string } {
  try {
    const r = f();
    addsUp(r);
    return { result: { row: r.row, breakdown: r.breakdown, messages: r.messages.toRows(), anomalies: r.anomalies } };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

/** Check that a count adds up: layers plus unattributed bytes are the total, and the message rows the columns. */
function addsUp(r: CountResult): void {
  const { row } = r;
  const rows = r.messages.toRows();
  const parts = row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes;
  assert.equal(parts + row.unattributed_bytes, row.total_bytes);
  assert.equal(
    rows.reduce((s, m) => s + m.headBytes + m.bodyBytes + m.framingBytes + m.unattributedBytes, 0),
    row.total_bytes,
  );
  assert.equal(
    rows.reduce((s, m) => s + m.unattributedBytes, 0),
    row.unattributed_bytes,
  );
  for (const a of r.anomalies) assert.ok(a.offset >= 0 && a.bytes >= 0, JSON.stringify(a));
}

/**
 * The capture log of connections, each stream cut into pieces. The order of a connection's
 * messages in the log: `requests-first` all requests then all responses; `turns` request k, then
 * response k (and any left over after); `early` as turns, but response `early` logged before its request.
 */
function logOf(conns: Conn[]): LogBuilder {
  const log = new LogBuilder();
  conns.forEach((c, k) => {
    const { c2s, s2c, c2sEnds, s2cEnds } = wire(c);
    // Cut points of each stream: message ends (where the log may switch streams) and the pieces.
    const send = (dir: "c2s" | "s2c", bytes: Buffer, from: number, to: number) => {
      const end = Math.min(to, bytes.length);
      if (end <= from) return;
      const cuts = [...new Set(c.pieces.map((p) => from + (p % (end - from))))].filter((p) => p > from).sort((a, b) => a - b);
      log.send(
        k + 1,
        dir,
        ...chop(
          bytes.subarray(from, end),
          cuts.map((p) => p - from),
        ),
      );
    };
    if (c.order === "requests-first") {
      send("c2s", c2s, 0, c2s.length);
      send("s2c", s2c, 0, s2c.length);
    } else {
      const turns: ["c2s" | "s2c", number][] = [];
      for (let i = 0; i < Math.max(c2sEnds.length, s2cEnds.length); i++) {
        if (i < c2sEnds.length) turns.push(["c2s", i]);
        if (i < s2cEnds.length) turns.push(["s2c", i]);
      }
      if (c.order === "early") {
        const i = turns.findIndex(([d, n]) => d === "s2c" && n === c.early % Math.max(1, s2cEnds.length));
        if (i > 0 && turns[i - 1]![0] === "c2s") [turns[i - 1], turns[i]] = [turns[i]!, turns[i - 1]!];
      }
      const at = { c2s: 0, s2c: 0 };
      for (const [dir, n] of turns) {
        const ends = dir === "c2s" ? c2sEnds : s2cEnds;
        const bytes = dir === "c2s" ? c2s : s2c;
        const to = n === ends.length - 1 ? bytes.length : ends[n]!;
        send(dir, bytes, at[dir], to);
        at[dir] = Math.max(at[dir], Math.min(to, bytes.length));
      }
    }
    if (c.ended) log.close(k + 1);
  });
  return log;
}

describe("count fast path", () => {
  it("gives the general parser's counts, message table, anomalies and strict errors on random connections", () => {
    let anomalous = 0;
    let fastConns = 0;
    const before = connectionsCounted.fast;
    fc.assert(
      fc.property(fc.array(connection, { minLength: 1, maxLength: 3 }), (conns) => {
        const streams = reassemble(logOf(conns).records);
        const general = attempt(() => countHttpStreams(streams, false));
        assert.deepEqual(
          attempt(() => countHttpStreams(streams, true)),
          general,
        );
        assert.ok("result" in general, `by default every log counts: ${"error" in general ? general.error : ""}`);
        if ((general.result as { anomalies: unknown[] }).anomalies.length > 0) anomalous++;
        const strict = attempt(() => countHttpStreams(streams, false, true));
        assert.deepEqual(
          attempt(() => countHttpStreams(streams, true, true)),
          strict,
        );
        assert.equal("error" in strict, (general.result as { anomalies: unknown[] }).anomalies.length > 0, "strict fails exactly when there is an anomaly");
      }),
      { numRuns: 600 },
    );
    fastConns = connectionsCounted.fast - before;
    assert.ok(anomalous > 100, `only ${anomalous} of 600 logs with an anomaly`);
    assert.ok(fastConns > 50, `only ${fastConns} connections counted by the fast path: the generator is too harsh`);
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
