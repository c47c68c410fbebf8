import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CaptureRecord } from "../../runner/capture/log.js";
import { reassemble } from "../../runner/capture/log.js";
import {
  COUNT_COLUMNS,
  WireFormatError,
  countHttp,
  countHttpStreams,
  countLog,
  emptyCountRow,
  streamDigest,
  type CountResult,
  type CountRow,
} from "../../runner/count/index.js";
import { LogBuilder, b, chop, chunked, len, post, sseEvent } from "./helpers.js";

/** Every row adds up: per direction, the message rows' bytes are the columns. */
function checkRows(result: CountResult): void {
  const { row } = result;
  const messages = result.messages.toRows();
  const sum = (dir: "c2s" | "s2c", f: (r: (typeof messages)[number]) => number) => messages.filter((m) => m.dir === dir).reduce((s, m) => s + f(m), 0);
  assert.equal(
    sum("c2s", (m) => m.headBytes),
    row.request_head_bytes,
  );
  assert.equal(
    sum("c2s", (m) => m.bodyBytes),
    row.request_body_bytes,
  );
  assert.equal(
    sum("s2c", (m) => m.headBytes),
    row.response_head_bytes,
  );
  assert.equal(
    sum("s2c", (m) => m.bodyBytes),
    row.response_body_bytes,
  );
  assert.equal(sum("c2s", (m) => m.framingBytes) + sum("s2c", (m) => m.framingBytes), row.chunk_framing_bytes);
  assert.equal(
    sum("c2s", (m) => m.metaBytes),
    row.meta_bytes,
  );
  const jsonRpc = (m: (typeof messages)[number]) => m.kind !== "http-only" && m.kind !== "unattributed";
  assert.equal(messages.filter((m) => m.dir === "c2s" && jsonRpc(m)).length, row.jsonrpc_c2s);
  assert.equal(messages.filter((m) => m.dir === "s2c" && jsonRpc(m)).length, row.jsonrpc_s2c);
  assert.deepEqual(
    messages.map((m) => m.seq),
    messages.map((_, k) => k + 1),
  );
  assert.equal(
    messages.reduce((s, m) => s + m.unattributedBytes, 0),
    row.unattributed_bytes,
  );
  for (const m of messages) assert.ok(m.bodyBytes >= 0, `row ${m.seq} has negative body bytes`);
  assert.equal(
    row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes + row.unattributed_bytes,
    row.total_bytes,
  );
}

function expectRow(values: Partial<CountRow>): CountRow {
  return { ...emptyCountRow(), ...values };
}

// A 2025-11-25 Streamable HTTP session as the Python SDK server answers it, written by hand.
const DATE = "date: Mon, 30 Nov 2026 12:00:00 GMT\r\nserver: uvicorn\r\n";
const SID = "mcp-session-id: 3f1e0a9b6c2d4e8f9a0b1c2d3e4f5a6b";
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wirecost-raw","version":"0.1.0"}}}';
const INIT_RESULT =
  '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{},"tools":{"listChanged":false}},"serverInfo":{"name":"demo","version":"2.2.0"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const LIST_RESULT =
  '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echo the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}';
const CALL_META = '{"progressToken":2}';
const CALL = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":${CALL_META}}}`;
const CALL_RESULT = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}';

function sseHead(session: boolean): string {
  return `HTTP/1.1 200 OK\r\n${DATE}cache-control: no-cache, no-transform\r\nconnection: keep-alive\r\ncontent-type: text/event-stream\r\n${session ? SID + "\r\n" : ""}x-accel-buffering: no\r\nTransfer-Encoding: chunked\r\n\r\n`;
}
const ACCEPTED = `HTTP/1.1 202 Accepted\r\n${DATE}content-length: 0\r\n\r\n`;
const SESSION_HEADERS = ["mcp-protocol-version: 2025-11-25", SID];

/** One SSE response carrying `json` in one event, sent as head, data chunk, last chunk. */
function sseResponse(json: string, session = false) {
  const event = `event: message\r\ndata: ${json}\r\n\r\n`;
  const c = chunked([{ data: event }]);
  const head = sseHead(session);
  const lastChunk = "0\r\n\r\n";
  return { head, event, framing: c.framing, pieces: [head, c.wire.slice(0, -lastChunk.length), lastChunk] };
}

function session2025() {
  const reqs = [post(INIT), post(INITIALIZED, SESSION_HEADERS), post(LIST, SESSION_HEADERS), post(CALL, SESSION_HEADERS)];
  const r0 = sseResponse(INIT_RESULT, true);
  const r2 = sseResponse(LIST_RESULT);
  const r3 = sseResponse(CALL_RESULT);
  const log = new LogBuilder()
    .send(1, "c2s", reqs[0]!.wire)
    .send(1, "s2c", ...r0.pieces)
    .send(1, "c2s", reqs[1]!.wire)
    .send(1, "s2c", ACCEPTED)
    .send(1, "c2s", reqs[2]!.wire)
    .send(1, "s2c", ...r2.pieces)
    .send(1, "c2s", reqs[3]!.wire)
    .send(1, "s2c", ...r3.pieces)
    .close(1);
  const c2s = reqs.reduce((s, r) => s + len(r.wire), 0);
  const s2c = [r0, r2, r3].reduce((s, r) => s + r.pieces.reduce((t, p) => t + len(p), 0), 0) + len(ACCEPTED);
  const expected = expectRow({
    jsonrpc_c2s: 4,
    jsonrpc_s2c: 3,
    http_round_trips: 4,
    request_head_bytes: reqs.reduce((s, r) => s + len(r.head), 0),
    request_body_bytes: len(INIT + INITIALIZED + LIST + CALL),
    response_head_bytes: len(r0.head + r2.head + r3.head + ACCEPTED),
    response_body_bytes: len(r0.event + r2.event + r3.event),
    chunk_framing_bytes: r0.framing + r2.framing + r3.framing,
    sse_events: 3,
    meta_bytes: len(CALL_META),
    c2s_bytes: c2s,
    s2c_bytes: s2c,
    total_bytes: c2s + s2c,
  });
  return { log, expected, reqs };
}

describe("HTTP counting", () => {
  it("counts a 2025-11-25 Streamable HTTP session: initialize → SSE, initialized → 202, tools/list, tools/call", () => {
    const { log, expected } = session2025();
    const result = countHttp(log.records);
    assert.deepEqual(result.row, expected);
    assert.deepEqual(Object.keys(result.row), [...COUNT_COLUMNS]);
    checkRows(result);
    assert.deepEqual(
      result.messages.toRows().map((m) => [m.dir, m.kind, m.method ?? m.startLine, m.sse ?? false]),
      [
        ["c2s", "http-only", "POST /mcp HTTP/1.1", false],
        ["c2s", "request", "initialize", false],
        ["s2c", "http-only", "HTTP/1.1 200 OK", false],
        ["s2c", "result", "initialize", true],
        ["c2s", "http-only", "POST /mcp HTTP/1.1", false],
        ["c2s", "notification", "notifications/initialized", false],
        ["s2c", "http-only", "HTTP/1.1 202 Accepted", false],
        ["c2s", "http-only", "POST /mcp HTTP/1.1", false],
        ["c2s", "request", "tools/list", false],
        ["s2c", "http-only", "HTTP/1.1 200 OK", false],
        ["s2c", "result", "tools/list", true],
        ["c2s", "http-only", "POST /mcp HTTP/1.1", false],
        ["c2s", "request", "tools/call", false],
        ["s2c", "http-only", "HTTP/1.1 200 OK", false],
        ["s2c", "result", "tools/call", true],
      ],
    );
    const call = result.messages.toRows().find((m) => m.method === "tools/call" && m.kind === "request")!;
    assert.equal(call.metaBytes, len(CALL_META));
    assert.equal(call.bodyBytes, len(CALL));
    const sse = result.messages.toRows()[2]!;
    assert.equal(sse.bodyBytes, len("event: message\r\ndata: \r\n\r\n"), "the SSE field names and line ends stay with the HTTP message");
    assert.equal(countLog(log.records, { transport: "http" }).row.total_bytes, expected.total_bytes);
  });

  it("gives the same counts whatever the chunking: a request head split at every byte offset", () => {
    const { log, expected, reqs } = session2025();
    const wire = b(reqs[2]!.wire);
    const at = log.records.findIndex((r) => r.b64 === wire.toString("base64"));
    for (let cut = 1; cut < len(reqs[2]!.head) + 2; cut++) {
      const pieces = chop(wire, [cut]);
      const records: CaptureRecord[] = [
        ...log.records.slice(0, at),
        ...pieces.map((p, _k) => ({ conn: 1, seq: 0, dir: "c2s" as const, b64: p.toString("base64") })),
        ...log.records.slice(at + 1),
      ].map((r, seq) => ({ ...r, seq: seq + 1 }));
      const result = countHttp(records);
      assert.deepEqual(result.row, expected, `cut at ${cut}`);
      assert.equal(streamDigest(records), streamDigest(log.records));
    }
  });

  it("counts two interleaved connections, a server request riding the SSE stream, and its answer on another connection", () => {
    // conn 1: tools/call whose SSE response first carries elicitation/create, then (after the
    // answer arrives on conn 2) the tools/call result.
    const call = post('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask","arguments":{}}}', SESSION_HEADERS);
    const ask = '{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}';
    const answerMeta = '{"note":"{not a brace}"}';
    const answer = post(`{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{},"_meta":${answerMeta}}}`, SESSION_HEADERS);
    const done = '{"jsonrpc":"2.0","id":5,"result":{"content":[],"isError":false}}';
    const e1 = sseEvent([ask], "event: message\nid: e1\n");
    const e2 = sseEvent([done], "event: message\nid: e2\n");
    const head = sseHead(false);
    const c1 = `${len(e1).toString(16)}\r\n${e1}\r\n`;
    const c2 = `${len(e2).toString(16)}\r\n${e2}\r\n0\r\n\r\n`;
    const log = new LogBuilder()
      .send(1, "c2s", call.wire)
      .send(1, "s2c", head + c1)
      .send(2, "c2s", answer.wire)
      .send(2, "s2c", ACCEPTED)
      .close(2)
      .send(1, "s2c", c2)
      .close(1);
    const result = countHttp(log.records);
    const c2sBytes = len(call.wire + answer.wire);
    const s2cBytes = len(head + c1 + c2 + ACCEPTED);
    assert.deepEqual(
      result.row,
      expectRow({
        jsonrpc_c2s: 2,
        jsonrpc_s2c: 2,
        http_round_trips: 2,
        request_head_bytes: len(call.head + answer.head),
        request_body_bytes: len(call.wire + answer.wire) - len(call.head + answer.head),
        response_head_bytes: len(head + ACCEPTED),
        response_body_bytes: len(e1 + e2),
        chunk_framing_bytes: len(c1 + c2) - len(e1 + e2),
        sse_events: 2,
        meta_bytes: len(answerMeta),
        c2s_bytes: c2sBytes,
        s2c_bytes: s2cBytes,
        total_bytes: c2sBytes + s2cBytes,
      }),
    );
    checkRows(result);
    assert.deepEqual(
      result.messages.toRows().map((m) => [m.conn, m.dir, m.kind, m.method ?? m.startLine, m.logSeq]),
      [
        [1, "c2s", "http-only", "POST /mcp HTTP/1.1", 1],
        [1, "c2s", "request", "tools/call", 1],
        [1, "s2c", "http-only", "HTTP/1.1 200 OK", 2],
        [1, "s2c", "request", "elicitation/create", 2],
        [2, "c2s", "http-only", "POST /mcp HTTP/1.1", 3],
        [2, "c2s", "result", "elicitation/create", 3],
        [2, "s2c", "http-only", "HTTP/1.1 202 Accepted", 4],
        [1, "s2c", "result", "tools/call", 7],
      ],
    );
    const elicit = result.messages.toRows()[3]!;
    assert.equal(elicit.offset, len(head) + c1.indexOf("{"));
    assert.equal(elicit.bodyBytes, len(ask));
    assert.equal(elicit.id, "0");
  });

  it("counts a JSON-RPC batch and its batch answer in application/json bodies", () => {
    const members = [
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"a":"b"}}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    ];
    const req = post(`[${members.join(",")}]`);
    const results = ['{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}'];
    const body = `[${results.join(", ")}]\n`;
    const res = `HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${len(body)}\r\n\r\n${body}`;
    const result = countHttp(new LogBuilder().send(1, "c2s", req.wire).send(1, "s2c", res).records);
    assert.equal(result.row.jsonrpc_c2s, 3);
    assert.equal(result.row.jsonrpc_s2c, 2);
    assert.equal(result.row.meta_bytes, len('{"a":"b"}'));
    assert.equal(result.row.response_body_bytes, len(body));
    checkRows(result);
    const rows = result.messages.toRows();
    assert.deepEqual(
      rows.map((m) => [m.kind, m.method, m.bodyBytes]),
      [
        ["http-only", undefined, 4], // "[", ",", ",", "]"
        ["request", "ping", len(members[0]!)],
        ["notification", "notifications/cancelled", len(members[1]!)],
        ["request", "ping", len(members[2]!)],
        ["http-only", undefined, 5], // "[", ", ", "]", "\n"
        ["result", "ping", len(results[0]!)],
        ["error", "ping", len(results[1]!)],
      ],
    );
  });

  it("counts multi-line SSE data, comments, id/event/retry, CRLF and LF, and events that carry no message", () => {
    const json = '{"jsonrpc":"2.0",\n"method":"notifications/progress","params":{"progressToken":1,"progress":1}}';
    const [l1, l2] = json.split("\n");
    const body =
      ": stream opened\r\n\r\n" + // comment block: no event
      "id: prime-1\r\ndata:\r\n\r\n" + // priming event: an event, no message
      "retry: 3000\nid: 2\n\n" + // no data: no event
      `event: message\r\ndata: ${l1}\r\ndata: ${l2}\r\n\r\n` + // one message over two data lines
      "event: ping\ndata: keep-alive\n\n"; // an event whose data is not JSON
    const head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: " + len(body) + "\r\n\r\n";
    const get = "GET /mcp HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n";
    const result = countHttp(new LogBuilder().send(1, "c2s", get).send(1, "s2c", head, body).close(1).records);
    assert.equal(result.row.sse_events, 3);
    assert.equal(result.row.jsonrpc_s2c, 1);
    assert.equal(result.row.http_round_trips, 1);
    checkRows(result);
    const note = result.messages.toRows().find((m) => m.kind === "notification")!;
    assert.equal(note.bodyBytes, len(json), "the joining \\n counts as the message's own byte");
    assert.equal(note.offset, len(head) + body.indexOf("{"));
    assert.equal(note.sse, true);
  });

  it("counts bodiless responses: 100 Continue (not a round trip), 204, 304, HEAD, 202 with and without body", () => {
    const p1 = post("{}", ["Expect: 100-continue"]);
    const cont = "HTTP/1.1 100 Continue\r\n\r\n";
    const r1 = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
    const del = "DELETE /mcp HTTP/1.1\r\nHost: h\r\n" + SID + "\r\n\r\n";
    const r204 = "HTTP/1.1 204 No Content\r\n\r\n";
    const cond = 'GET /x HTTP/1.1\r\nHost: h\r\nIf-None-Match: "v"\r\n\r\n';
    const r304 = 'HTTP/1.1 304 Not Modified\r\nETag: "v"\r\ncontent-length: 77\r\n\r\n';
    const head = "HEAD /mcp HTTP/1.1\r\nHost: h\r\n\r\n";
    const rHead = "HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/json\r\ncontent-length: 60\r\n\r\n";
    const n1 = post(INITIALIZED);
    const r202 = "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n";
    const n2 = post(INITIALIZED);
    const r202body = "HTTP/1.1 202 Accepted\r\ncontent-type: text/plain\r\ncontent-length: 8\r\n\r\nAccepted";
    const c2s = p1.wire + del + cond + head + n1.wire + n2.wire;
    const s2c = cont + r1 + r204 + r304 + rHead + r202 + r202body;
    const result = countHttp(new LogBuilder().send(1, "c2s", c2s).send(1, "s2c", s2c).close(1).records);
    assert.deepEqual(
      result.row,
      expectRow({
        jsonrpc_c2s: 2,
        http_round_trips: 6,
        request_head_bytes: len(c2s) - 2 - 2 * len(INITIALIZED),
        request_body_bytes: 2 + 2 * len(INITIALIZED),
        response_head_bytes: len(s2c) - 2 - 8,
        response_body_bytes: 2 + 8,
        c2s_bytes: len(c2s),
        s2c_bytes: len(s2c),
        total_bytes: len(c2s + s2c),
      }),
    );
    assert.equal(result.breakdown.http_responses, 7);
    checkRows(result);
  });

  it("counts a stream still open at the end of the log as it stands", () => {
    const get = "GET /mcp HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n" + SID + "\r\n\r\n";
    const head = sseHead(false);
    const ev = sseEvent(['{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}']);
    const open = `${len(ev).toString(16)}\r\n${ev}\r\n` + "1";
    const result = countHttp(new LogBuilder().send(1, "c2s", get).send(1, "s2c", head, open).records);
    assert.deepEqual(
      result.row,
      expectRow({
        jsonrpc_s2c: 1,
        http_round_trips: 1,
        request_head_bytes: len(get),
        response_head_bytes: len(head),
        response_body_bytes: len(ev),
        chunk_framing_bytes: len(open) - len(ev),
        sse_events: 1,
        c2s_bytes: len(get),
        s2c_bytes: len(head + open),
        total_bytes: len(get + head + open),
      }),
    );
    assert.equal(result.breakdown.open_http_messages, 1);
    assert.equal(result.messages.toRows().find((m) => m.startLine === "HTTP/1.1 200 OK")!.incomplete, true);
    checkRows(result);
  });

  it("counts a 2026-07-28 exchange: plain JSON answers, _meta in every POST, no SSE", () => {
    const meta =
      '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}';
    const list = post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${meta}}}`, [
      "MCP-Protocol-Version: 2026-07-28",
      "Mcp-Method: tools/list",
    ]);
    const call = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":${meta}}}`, [
      "MCP-Protocol-Version: 2026-07-28",
      "Mcp-Method: tools/call",
      "Mcp-Name: echo",
    ]);
    const json = (body: string) => `HTTP/1.1 200 OK\r\n${DATE}content-type: application/json\r\ncontent-length: ${len(body)}\r\n\r\n${body}`;
    const r1 = json(LIST_RESULT);
    const r2 = json(CALL_RESULT);
    const log = new LogBuilder().send(1, "c2s", list.wire).send(1, "s2c", r1).send(1, "c2s", call.wire).send(1, "s2c", r2).close(1);
    const result = countHttp(log.records);
    const c2s = len(list.wire + call.wire);
    const s2c = len(r1 + r2);
    assert.deepEqual(
      result.row,
      expectRow({
        jsonrpc_c2s: 2,
        jsonrpc_s2c: 2,
        http_round_trips: 2,
        request_head_bytes: len(list.head + call.head),
        request_body_bytes: c2s - len(list.head + call.head),
        response_head_bytes: s2c - len(LIST_RESULT + CALL_RESULT),
        response_body_bytes: len(LIST_RESULT + CALL_RESULT),
        meta_bytes: 2 * len(meta),
        c2s_bytes: c2s,
        s2c_bytes: s2c,
        total_bytes: c2s + s2c,
      }),
    );
    checkRows(result);
  });

  it("counts a request whose response never came, and pipelined requests answered in order", () => {
    const head = "HEAD /mcp HTTP/1.1\r\nHost: h\r\n\r\n";
    const p = post(LIST);
    const rHead = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n";
    const log = new LogBuilder()
      .send(1, "c2s", head + p.wire + p.wire)
      .send(1, "s2c", rHead)
      .eof(1, "c2s");
    const result = countHttp(log.records);
    assert.equal(result.row.http_round_trips, 1);
    assert.equal(result.row.jsonrpc_c2s, 2);
    assert.equal(result.breakdown.http_requests, 3);
    assert.equal(result.breakdown.http_responses, 1);
    assert.equal(result.row.response_body_bytes, 0, "the answer to HEAD has no body whatever its Content-Length");
    checkRows(result);
  });

  it("with strict, names connection, direction, offset and expectation for a malformed stream", () => {
    const req = post(LIST);
    const bad = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    const log = new LogBuilder()
      .send(1, "c2s", req.wire)
      .send(2, "c2s", req.wire)
      .send(1, "s2c", sseResponse(LIST_RESULT).pieces.join(""))
      .send(2, "s2c", bad + "zz\r\n");
    assert.throws(
      () => countHttp(log.records, true),
      (e: unknown) =>
        e instanceof WireFormatError &&
        e.message ===
          `conn 2 s2c at byte ${len(bad)}: not HTTP/1.1 from here: expected chunk-size line (hex digits then CRLF), got "zz\\r\\n" (http-malformed)`,
    );
    const ended = new LogBuilder().send(4, "c2s", req.wire.slice(0, -3)).eof(4, "c2s");
    assert.throws(() => countHttp(ended.records, true), {
      message: `conn 4 c2s at byte ${len(req.head)}: the connection ended inside the body of "POST /mcp HTTP/1.1": expected 3 more body bytes (Content-Length), got end of stream (truncated-body)`,
    });
  });

  it("with strict, names the stream offset of a JSON body that is not JSON", () => {
    const json = '{"jsonrpc":"2.0","id":1,"method":"x",}';
    const req = post(json);
    assert.throws(() => countHttp(new LogBuilder().send(3, "c2s", req.wire).eof(3, "c2s").records, true), {
      message: `conn 3 c2s at byte ${len(req.head)}: expected a string at byte ${len(req.head) + json.length - 1} in the JSON body of "POST /mcp HTTP/1.1", got "}" (invalid-json)`,
    });
    const body = 'data: {"jsonrpc":\ndata: oops}\n\n';
    const res = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${len(body)}\r\n\r\n${body}`;
    const resHead = res.length - body.length;
    const get = "GET /mcp HTTP/1.1\r\nHost: h\r\n\r\n";
    assert.throws(() => countHttp(new LogBuilder().send(3, "c2s", get).send(3, "s2c", res).close(3).records, true), {
      message: `conn 3 s2c at byte ${resHead}: expected a JSON value at byte ${resHead + body.indexOf("oops")} in the data of the SSE event at body byte 0 of "HTTP/1.1 200 OK", got "oops}" (invalid-json)`,
    });
  });

  it("with strict, refuses to look for messages in a compressed body", () => {
    const res = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 3\r\n\r\nabc";
    assert.throws(() => countHttp(new LogBuilder().send(7, "c2s", "GET / HTTP/1.1\r\n\r\n").send(7, "s2c", res).close(7).records, true), {
      message: `conn 7 s2c at byte ${len(res) - 3}: application/json body of "HTTP/1.1 200 OK" with Content-Encoding: gzip: its JSON-RPC messages are not looked for (compressed-body)`,
    });
  });

  it("with strict, refuses a second response to a request", () => {
    const req = "GET / HTTP/1.1\r\nHost: h\r\n\r\n";
    const res = "HTTP/1.1 204 No Content\r\n\r\n";
    const log = new LogBuilder()
      .send(3, "c2s", req)
      .send(3, "s2c", res + res)
      .close(3);
    for (const count of [() => countHttp(log.records, true), () => countHttpStreams(reassemble(log.records), false, true)]) {
      assert.throws(count, {
        message: `conn 3 s2c at byte ${len(res)}: "HTTP/1.1 204 No Content" answers no request: every request logged before it on this connection (1 in all) has its response (extra-response)`,
      });
    }
  });
});
