/**
 * Every anomaly code of runner/count/anomalies.ts on a hand-made log whose counts are worked out
 * by hand here (each literal's byte length is written beside it and checked). Every HTTP log is
 * counted three ways that must agree: the fast path (http-fast.ts, which gives up on anomalous
 * connections), the general parser only (http-count.ts on runner/wire/http1.ts), and the one-pass
 * file reader (`countLogFile`); stdio logs by countStdio and countLogFile. Every count is checked
 * to add up (layers plus unattributed bytes = total, message rows = columns), and with `strict`
 * each log throws its first anomaly as a WireFormatError.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { formatRecord, reassemble, type CaptureRecord } from "../../runner/capture/log.js";
import {
  ANOMALY_CODES,
  WireFormatError,
  anomalyCounts,
  connectionsCounted,
  countHttpStreams,
  countLogFile,
  countStdio,
  countStreams,
  emptyCountRow,
  type Anomaly,
  type AnomalyCode,
  type CountResult,
  type CountRow,
} from "../../runner/count/index.js";
import { root } from "../paths.js";
import { LogBuilder, len, post } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "anomalies-"));
let files = 0;

/** A literal, checked to be `bytes` long (the hand count written in the test). */
function lit(text: string, bytes: number): string {
  assert.equal(len(text), bytes, `${JSON.stringify(text)} is ${len(text)} bytes, not ${bytes}`);
  return text;
}

/** What two counts must agree on. */
function view(r: CountResult): unknown {
  return { row: r.row, breakdown: r.breakdown, messages: r.messages.toRows(), anomalies: r.anomalies };
}

/** Check that a count adds up: layers plus unattributed = total, and the message rows = the columns. */
function checkSums(r: CountResult, transport: "http" | "stdio"): void {
  const { row } = r;
  const rows = r.messages.toRows();
  const sum = (f: (m: (typeof rows)[number]) => number, dir?: "c2s" | "s2c") => rows.filter((m) => !dir || m.dir === dir).reduce((s, m) => s + f(m), 0);
  assert.equal(row.total_bytes, row.c2s_bytes + row.s2c_bytes);
  assert.equal(
    sum((m) => m.unattributedBytes),
    row.unattributed_bytes,
  );
  assert.equal(
    sum((m) => m.headBytes + m.bodyBytes + m.framingBytes + m.newlineBytes + m.unattributedBytes),
    row.total_bytes,
  );
  if (transport === "http") {
    assert.equal(
      row.request_head_bytes + row.request_body_bytes + row.response_head_bytes + row.response_body_bytes + row.chunk_framing_bytes + row.unattributed_bytes,
      row.total_bytes,
    );
    assert.equal(
      sum((m) => m.headBytes, "c2s"),
      row.request_head_bytes,
    );
    assert.equal(
      sum((m) => m.bodyBytes, "s2c"),
      row.response_body_bytes,
    );
  } else
    assert.equal(
      sum((m) => m.newlineBytes),
      row.newline_bytes,
    );
  for (const m of rows) assert.ok(m.bodyBytes >= 0 && m.unattributedBytes >= 0, `row ${m.seq}`);
}

/** The strict error of a count's first anomaly. */
function strictMessage(a: Anomaly, stdio: boolean): string {
  const label = stdio && a.conn === 0 ? `stdio ${a.dir}` : `conn ${a.conn} ${a.dir}`;
  return a.code === "empty-log" ? `capture: ${a.detail} (${a.code})` : `${label} at byte ${a.offset}: ${a.detail} (${a.code})`;
}

/**
 * Count an HTTP log by the fast path, the general parser and the file reader; check they agree,
 * that it adds up, and that strict throws its first anomaly.
 * @returns the count, and how many connections the fast path itself counted
 */
function http(records: CaptureRecord[]): CountResult & { fast: number } {
  const streams = reassemble(records);
  const before = connectionsCounted.fast;
  const fast = countHttpStreams(streams, true);
  const fastConns = connectionsCounted.fast - before;
  const general = countHttpStreams(streams, false);
  assert.deepEqual(view(fast), view(general), "fast path and general parser agree");
  const path = join(dir, `${++files}.jsonl`);
  writeFileSync(path, records.map(formatRecord).join(""));
  assert.deepEqual(view(countLogFile(path, { transport: "http" })), view(general), "countLogFile agrees");
  checkSums(general, "http");
  const first = general.anomalies[0];
  for (const f of [true, false]) {
    if (first)
      assert.throws(
        () => countHttpStreams(streams, f, true),
        (e: unknown) => e instanceof WireFormatError && e.message === strictMessage(first, false),
      );
    else countHttpStreams(streams, f, true);
  }
  return { ...general, fast: fastConns };
}

/** Count a stdio log by countStdio and the file reader; check they agree, add up, and that strict throws. */
function stdio(records: CaptureRecord[]): CountResult {
  const r = countStdio(records);
  const path = join(dir, `${++files}.jsonl`);
  writeFileSync(path, records.map(formatRecord).join(""));
  assert.deepEqual(view(countLogFile(path, { transport: "stdio" })), view(r), "countLogFile agrees");
  checkSums(r, "stdio");
  const first = r.anomalies[0];
  if (first)
    assert.throws(
      () => countStdio(records, true),
      (e: unknown) => e instanceof WireFormatError && e.message === strictMessage(first, true),
    );
  else countStdio(records, true);
  return r;
}

/** The anomalies without their details, as tuples. */
function where(r: CountResult): [AnomalyCode, number, string, number, number][] {
  return r.anomalies.map((a) => [a.code, a.conn, a.dir, a.offset, a.bytes]);
}

function expectRow(values: Partial<CountRow>): CountRow {
  return { ...emptyCountRow(), ...values };
}

// Literals shared below, each with its length worked out by hand.
/** `{"jsonrpc":"2.0",` 17 + `"id":1,` 7 + `"method":"ping"` 15 + `}` 1 = 40 */
const PING = lit('{"jsonrpc":"2.0","id":1,"method":"ping"}', 40);
/** `{"jsonrpc":"2.0",` 17 + `"id":1,` 7 + `"result":{}` 11 + `}` 1 = 36 */
const RESULT1 = lit('{"jsonrpc":"2.0","id":1,"result":{}}', 36);
/** `HTTP/1.1 200 OK\r\n` 17 + `Content-Type: application/json\r\n` 32 + `Content-Length: 36\r\n` 20 + `\r\n` 2 = 71 */
const JSON_HEAD = lit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n", 71);
/** A 107-byte JSON response carrying RESULT1. */
const JSON_RES = lit(JSON_HEAD + RESULT1, 107);
/** `HTTP/1.1 204 No Content\r\n` 25 + `\r\n` 2 = 27 */
const NO_CONTENT = lit("HTTP/1.1 204 No Content\r\n\r\n", 27);
/** `GET /mcp HTTP/1.1\r\n` 19 + `Host: h\r\n` 9 + `\r\n` 2 = 30 */
const GET = lit("GET /mcp HTTP/1.1\r\nHost: h\r\n\r\n", 30);
/** `HTTP/1.1 200 OK\r\n` 17 + `Transfer-Encoding: chunked\r\n` 28 + `\r\n` 2 = 47 */
const CHUNKED_HEAD = lit("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 47);

describe("anomalies: counted and named, never a stop", () => {
  it("a chunked SSE body cut by the end of the connection: its bytes counted, 0 responses, truncated-body", () => {
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}';
    const req = post(call);
    /** 17 + `Content-Type: text/event-stream\r\n` 33 + `Transfer-Encoding: chunked\r\n` 28 + 2 = 80 */
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n", 80);
    /** `d\r\n` 3 framing + `: working...\n` 13 body + `\r\n` 2 framing = 18 */
    const chunk = lit("d\r\n: working...\n\r\n", 18);
    const counts = {
      jsonrpc_c2s: 1,
      http_round_trips: 1,
      request_head_bytes: len(req.head),
      request_body_bytes: len(call),
      response_head_bytes: 80,
      response_body_bytes: 13,
      chunk_framing_bytes: 5,
      c2s_bytes: len(req.wire),
      s2c_bytes: 98,
      total_bytes: len(req.wire) + 98,
    };
    const cut = http(new LogBuilder().send(1, "c2s", req.wire).send(1, "s2c", head, chunk).close(1).records);
    assert.deepEqual(cut.row, expectRow(counts));
    assert.equal(cut.row.jsonrpc_s2c, 0, "0 responses");
    assert.deepEqual(where(cut), [["truncated-body", 1, "s2c", 80, 18]]);
    assert.equal(
      cut.anomalies[0]!.detail,
      'the connection ended inside the body of "HTTP/1.1 200 OK": expected chunk-size line (hex digits then CRLF), got end of stream',
    );
    assert.equal(cut.fast, 0, "the fast path gave the connection to the general parser");
    const res = cut.messages.toRows().find((m) => m.dir === "s2c")!;
    assert.deepEqual([res.headBytes, res.bodyBytes, res.framingBytes, res.incomplete, res.anomaly], [80, 13, 5, true, "truncated-body"]);
    // The same bytes on a stream that stayed open (no eof records): the same counts, log-truncated.
    const open = http(new LogBuilder().send(1, "c2s", req.wire).send(1, "s2c", head, chunk).records);
    assert.deepEqual(open.row, expectRow(counts));
    assert.deepEqual(where(open), [["log-truncated", 1, "s2c", 80, 18]]);
    assert.equal(open.breakdown.open_http_messages, 1);
  });

  it("a log line on stdout between messages: 1 message, 21 unattributed bytes, stdio-non-jsonrpc-line", () => {
    const warn = lit("warning startup done\n", 21); // 7 + 1 + 7 + 1 + 4 + "\n"
    const log = new LogBuilder().send(undefined, "c2s", `${PING}\n`).send(undefined, "s2c", warn, `${RESULT1}\n`).eof(undefined, "c2s").eof(undefined, "s2c");
    const r = stdio(log.records);
    assert.deepEqual(
      r.row,
      expectRow({ jsonrpc_c2s: 1, jsonrpc_s2c: 1, newline_bytes: 2, unattributed_bytes: 21, c2s_bytes: 41, s2c_bytes: 58, total_bytes: 99 }),
    );
    assert.deepEqual(where(r), [["stdio-non-jsonrpc-line", 0, "s2c", 0, 21]]);
    assert.match(r.anomalies[0]!.detail!, /^line 1 holds no JSON-RPC message \(one per line\): expected a JSON value at byte 0, got "warning startup done"$/);
    assert.deepEqual(
      r.messages.toRows().map((m) => [m.dir, m.kind, m.bodyBytes, m.newlineBytes, m.unattributedBytes, m.method, m.anomaly]),
      [
        ["c2s", "request", 40, 1, 0, "ping", undefined],
        ["s2c", "unattributed", 0, 0, 21, undefined, "stdio-non-jsonrpc-line"],
        ["s2c", "result", 36, 1, 0, "ping", undefined],
      ],
    );
    // Stdout alone: the result then answers no request.
    const alone = stdio(new LogBuilder().send(undefined, "s2c", warn, `${RESULT1}\n`).eof(undefined, "s2c").records);
    assert.equal(alone.row.jsonrpc_s2c, 1);
    assert.equal(alone.row.unattributed_bytes, 21);
    assert.deepEqual(where(alone), [
      ["stdio-non-jsonrpc-line", 0, "s2c", 0, 21],
      ["unsolicited-response", 0, "s2c", 21, 36],
    ]);
    assert.deepEqual(anomalyCounts(alone.anomalies), { "stdio-non-jsonrpc-line": 1, "unsolicited-response": 1 });
  });

  it("stdio: JSON that is not JSON-RPC, and an error with id null about it, are one anomaly", () => {
    const line = lit('{"level":"info","msg":"ready"}\n', 31); // {"level": 9 + "info", 7 + "msg": 6 + "ready" 7 + } 1 + \n 1
    /** 17 + `"id":null,` 10 + `"error":` 8 + `{"code":` 8 + `-32700,` 7 + `"message":` 10 + `"Parse error"` 13 + `}` 1 + `}` 1 = 75 */
    const parseError = lit('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', 75);
    const r = stdio(new LogBuilder().send(undefined, "c2s", line).send(undefined, "s2c", `${parseError}\n`).close(0).records);
    assert.deepEqual(r.row, expectRow({ jsonrpc_s2c: 1, newline_bytes: 1, unattributed_bytes: 31, c2s_bytes: 31, s2c_bytes: 76, total_bytes: 107 }));
    assert.deepEqual(where(r), [["stdio-non-jsonrpc-line", 0, "c2s", 0, 31]]);
  });

  it("stdio: a CRLF line is counted and named; a partial line after the last newline is unattributed", () => {
    /** 17 + `"method":` 9 + `"notifications/initialized"` 27 + `}` 1 = 54 */
    const note = lit('{"jsonrpc":"2.0","method":"notifications/initialized"}', 54);
    const crlf = stdio(new LogBuilder().send(undefined, "c2s", `${note}\r\n`).eof(undefined, "c2s").records);
    assert.deepEqual(crlf.row, expectRow({ jsonrpc_c2s: 1, newline_bytes: 1, c2s_bytes: 56, total_bytes: 56 }));
    assert.deepEqual(where(crlf), [["stdio-crlf-line", 0, "c2s", 54, 1]]);
    assert.deepEqual(
      crlf.messages.toRows().map((m) => [m.kind, m.bodyBytes, m.newlineBytes, m.anomaly]),
      [
        ["line-only", 1, 1, "stdio-crlf-line"], // the CR, and the newline
        ["notification", 54, 0, undefined],
      ],
    );
    const a = lit('{"jsonrpc":"2.0","method":"a"}\n', 31); // 17 + "method": 9 + "a" 3 + } 1 + \n 1
    const tail = lit('{"jsonrpc":"2.0","met', 21); // 17 + "met 4
    const partial = stdio(new LogBuilder().send(undefined, "c2s", a + tail).eof(undefined, "c2s").records);
    assert.deepEqual(partial.row, expectRow({ jsonrpc_c2s: 1, newline_bytes: 1, unattributed_bytes: 21, c2s_bytes: 52, total_bytes: 52 }));
    assert.equal(partial.breakdown.partial_line_bytes, 21);
    assert.deepEqual(where(partial), [["stdio-partial-line", 0, "c2s", 31, 21]]);
  });

  it('stdio and HTTP: a request with "id": null is counted and named, its null-id result pairs with it', () => {
    /** 17 + `"id":null,` 10 + `"method":"ping"` 15 + `}` 1 = 43 */
    const req = lit('{"jsonrpc":"2.0","id":null,"method":"ping"}', 43);
    /** 17 + `"id":null,` 10 + `"result":{}` 11 + `}` 1 = 39 */
    const res = lit('{"jsonrpc":"2.0","id":null,"result":{}}', 39);
    const s = stdio(new LogBuilder().send(undefined, "c2s", `${req}\n`).send(undefined, "s2c", `${res}\n`).close(0).records);
    assert.deepEqual(where(s), [["null-id-request", 0, "c2s", 0, 43]]);
    assert.deepEqual(
      s.messages.toRows().map((m) => [m.kind, m.method, m.anomaly]),
      [
        ["request", "ping", "null-id-request"],
        ["result", "ping", undefined],
      ],
    );
    const p = post(req);
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 39\r\n\r\n", 71);
    const h = http(
      new LogBuilder()
        .send(1, "c2s", p.wire)
        .send(1, "s2c", head + res)
        .close(1).records,
    );
    assert.deepEqual(where(h), [["null-id-request", 1, "c2s", len(p.head), 43]]);
    assert.equal(h.fast, 1, "the fast path counts it: the message table names JSON-RPC id anomalies for both paths");
    assert.equal(h.row.http_round_trips, 1);
  });

  it('HTTP: a response id of another JSON type ("1" for 1) is never paired: id-type-mismatch', () => {
    const p = post(PING);
    /** 17 + `"id":"1",` 9 + `"result":{}` 11 + `}` 1 = 38 */
    const res = lit('{"jsonrpc":"2.0","id":"1","result":{}}', 38);
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\n", 71);
    const r = http(
      new LogBuilder()
        .send(1, "c2s", p.wire)
        .send(1, "s2c", head + res)
        .close(1).records,
    );
    assert.deepEqual(where(r), [["id-type-mismatch", 1, "s2c", 71, 38]]);
    assert.equal(r.fast, 1);
    const result = r.messages.toRows().find((m) => m.kind === "result")!;
    assert.deepEqual([result.id, result.method, result.anomaly], ['"1"', undefined, "id-type-mismatch"]);
    assert.deepEqual([r.row.jsonrpc_c2s, r.row.jsonrpc_s2c, r.row.http_round_trips, r.row.response_body_bytes], [1, 1, 1, 38]);
  });

  it("HTTP: a response logged before its request is unsolicited, not a round trip (pairing follows seq)", () => {
    const del = lit("DELETE /mcp HTTP/1.1\r\nHost: h\r\n\r\n", 33); // 22 + 9 + 2
    const r = http(new LogBuilder().send(1, "s2c", NO_CONTENT).send(1, "c2s", del).close(1).records);
    assert.deepEqual(r.row, expectRow({ http_round_trips: 0, request_head_bytes: 33, response_head_bytes: 27, c2s_bytes: 33, s2c_bytes: 27, total_bytes: 60 }));
    assert.deepEqual(where(r), [["unsolicited-response", 1, "s2c", 0, 27]]);
    assert.equal(r.fast, 0);
    // Stdio: a result whose id no request has.
    const s = stdio(new LogBuilder().send(undefined, "s2c", `${RESULT1}\n`).eof(undefined, "s2c").records);
    assert.deepEqual(where(s), [["unsolicited-response", 0, "s2c", 0, 36]]);
    assert.equal(s.anomalies[0]!.detail, "result id 1 answers no request sent the other way before it");
  });

  it("HTTP: two responses to one request, the second logged before the next request: extra-response, the real answers paired", () => {
    const list = post(PING);
    /** 17 + `"id":2,` 7 + `"method":"tools/list"` 21 + `}` 1 = 46 */
    const second = post(lit('{"jsonrpc":"2.0","id":2,"method":"tools/list"}', 46));
    /** 17 + `"id":2,` 7 + `"result":{"tools":[]}` 21 + `}` 1 = 46; head 71 with Content-Length: 46 */
    const res2 = lit(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 46\r\n\r\n${'{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}'}`, 117);
    const log = new LogBuilder()
      .send(1, "c2s", list.wire)
      .send(1, "s2c", JSON_RES)
      .send(1, "s2c", JSON_RES) // a second complete answer to the first request
      .send(1, "c2s", second.wire)
      .send(1, "s2c", res2)
      .close(1);
    const r = http(log.records);
    assert.equal(r.row.http_round_trips, 2);
    assert.equal(r.row.jsonrpc_s2c, 3);
    assert.equal(r.row.response_head_bytes, 71 * 3);
    assert.equal(r.row.unattributed_bytes, 0);
    assert.deepEqual(where(r), [["extra-response", 1, "s2c", 107, 107]]);
    assert.deepEqual(
      r.messages
        .toRows()
        .filter((m) => m.kind === "result")
        .map((m) => [m.id, m.method]),
      [
        ["1", "ping"],
        ["1", "ping"],
        ["2", "tools/list"],
      ],
    );
  });

  it("HTTP: bytes that are not HTTP/1.1 are unattributed from the first of them: http-malformed", () => {
    // A line after a complete response that is not a status line.
    const stray = lit("oops\r\n", 6);
    const a = http(
      new LogBuilder()
        .send(1, "c2s", GET)
        .send(1, "s2c", NO_CONTENT + stray)
        .close(1).records,
    );
    assert.deepEqual(
      a.row,
      expectRow({ http_round_trips: 1, request_head_bytes: 30, response_head_bytes: 27, unattributed_bytes: 6, c2s_bytes: 30, s2c_bytes: 33, total_bytes: 63 }),
    );
    assert.deepEqual(where(a), [["http-malformed", 1, "s2c", 27, 6]]);
    assert.equal(a.anomalies[0]!.detail, 'not HTTP/1.1 from here: expected status line (HTTP/1.1 SP 3-digit status), got "oops\\r\\n"');
    // A chunk-size line that is not hex, after a good chunk: the message as read so far, then unattributed.
    const chunk = lit("5\r\nhello\r\n", 10); // framing 3 + 2, body 5
    const bad = lit("zz\r\njunk", 8);
    const b = http(
      new LogBuilder()
        .send(1, "c2s", GET)
        .send(1, "s2c", CHUNKED_HEAD + chunk + bad)
        .close(1).records,
    );
    assert.deepEqual(
      b.row,
      expectRow({
        http_round_trips: 1,
        request_head_bytes: 30,
        response_head_bytes: 47,
        response_body_bytes: 5,
        chunk_framing_bytes: 5,
        unattributed_bytes: 8,
        c2s_bytes: 30,
        s2c_bytes: 65,
        total_bytes: 95,
      }),
    );
    assert.deepEqual(where(b), [["http-malformed", 1, "s2c", 57, 8]]);
    assert.deepEqual(
      b.messages
        .toRows()
        .filter((m) => m.dir === "s2c")
        .map((m) => [m.kind, m.headBytes + m.bodyBytes + m.framingBytes, m.unattributedBytes, m.incomplete ?? false, m.anomaly]),
      [
        ["http-only", 57, 0, true, "http-malformed"],
        ["unattributed", 0, 8, false, "http-malformed"],
      ],
    );
    // A header line without a colon: the whole request, from its first byte.
    const req = lit("POST /mcp HTTP/1.1\r\nHost h\r\n\r\n", 30); // 20 + 8 + 2
    const c = http(new LogBuilder().send(1, "c2s", req).close(1).records);
    assert.deepEqual(c.row, expectRow({ unattributed_bytes: 30, c2s_bytes: 30, total_bytes: 30 }));
    assert.deepEqual(where(c), [["http-malformed", 1, "c2s", 0, 30]]);
    assert.equal(c.anomalies[0]!.detail, 'not HTTP/1.1 from here (at byte 20): expected header line (name: value), got "Host h\\r\\n\\r\\n"');
  });

  it("HTTP: chunk data longer than its declared size: length-mismatch, unattributed from there", () => {
    const body = lit("4\r\nhello\r\n0\r\n\r\n", 15); // "4\r\n" framing 3, "hell" body 4, then "o\r\n0\r\n\r\n" 8 where CRLF should be
    const r = http(
      new LogBuilder()
        .send(1, "c2s", GET)
        .send(1, "s2c", CHUNKED_HEAD + body)
        .close(1).records,
    );
    assert.deepEqual(
      r.row,
      expectRow({
        http_round_trips: 1,
        request_head_bytes: 30,
        response_head_bytes: 47,
        response_body_bytes: 4,
        chunk_framing_bytes: 3,
        unattributed_bytes: 8,
        c2s_bytes: 30,
        s2c_bytes: 62,
        total_bytes: 92,
      }),
    );
    assert.deepEqual(where(r), [["length-mismatch", 1, "s2c", 54, 8]]);
    assert.equal(r.anomalies[0]!.detail, 'not HTTP/1.1 from here: expected CRLF after the 4-byte chunk that starts at byte 47, got "o\\r\\n0\\r\\n\\r\\n"');
  });

  it("HTTP: a Content-Length shorter than the body: the body's declared bytes, then length-mismatch where no start line follows", () => {
    // Content-Length: 30 on the 36-byte RESULT1: 30 body bytes (not JSON: cut), then `t":{}}` and the next response unattributed.
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n", 71);
    const r = http(
      new LogBuilder()
        .send(1, "c2s", post(PING).wire + GET)
        .send(1, "s2c", head + RESULT1 + NO_CONTENT)
        .close(1).records,
    );
    assert.deepEqual(
      [r.row.http_round_trips, r.row.response_head_bytes, r.row.response_body_bytes, r.row.unattributed_bytes, r.row.jsonrpc_s2c],
      [1, 71, 30, 6 + 27, 0],
    );
    assert.deepEqual(where(r), [
      ["invalid-json", 1, "s2c", 71, 30],
      ["length-mismatch", 1, "s2c", 101, 33],
    ]);
    assert.match(
      r.anomalies[1]!.detail!,
      /^not HTTP\/1\.1 right after the 30-byte Content-Length body of "HTTP\/1\.1 200 OK": the declared length disagrees with the bytes/,
    );
  });

  it("HTTP: a Content-Length longer than the body, then the end of the connection: length-mismatch when the body is one whole JSON text", () => {
    const head = lit("POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n", 83); // 20 + 9 + 32 + 20 + 2
    const whole = http(new LogBuilder().send(1, "c2s", head + PING).close(1).records); // 40 of the 50 bytes, a whole JSON text
    assert.deepEqual(whole.row, expectRow({ jsonrpc_c2s: 1, request_head_bytes: 83, request_body_bytes: 40, c2s_bytes: 123, total_bytes: 123 }));
    assert.deepEqual(where(whole), [["length-mismatch", 1, "c2s", 83, 40]]);
    assert.equal(
      whole.anomalies[0]!.detail,
      '"POST /mcp HTTP/1.1" declares Content-Length: 50, the connection ended after 40 body bytes that are one whole JSON text',
    );
    // Cut inside the JSON text: truncated, no message.
    const cut = http(new LogBuilder().send(1, "c2s", head + PING.slice(0, 30)).close(1).records);
    assert.deepEqual([cut.row.jsonrpc_c2s, cut.row.request_body_bytes], [0, 30]);
    assert.deepEqual(where(cut), [["truncated-body", 1, "c2s", 83, 30]]);
  });

  it("HTTP: 101 Switching Protocols: the head counted, the bytes after it unattributed (protocol-switch)", () => {
    const up = lit("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", 70); // 18 + 9 + 20 + 21 + 2
    const head = lit("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", 77); // 34 + 20 + 21 + 2
    const frame = Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]); // a WebSocket text frame "hello", 7 bytes
    const r = http(new LogBuilder().send(1, "c2s", up).send(1, "s2c", head, frame).close(1).records);
    assert.deepEqual(
      r.row,
      expectRow({ request_head_bytes: 70, response_head_bytes: 77, unattributed_bytes: 7, c2s_bytes: 70, s2c_bytes: 84, total_bytes: 154 }),
    );
    assert.deepEqual(where(r), [["protocol-switch", 1, "s2c", 77, 7]]);
  });

  it("HTTP: a head cut by the end of the connection: truncated-head, at the first stray byte", () => {
    // The start line is complete: head bytes as they stand.
    const cut = lit("HTTP/1.1 200 OK\r\nContent-Ty", 27); // 17 + 10
    const a = http(
      new LogBuilder()
        .send(1, "c2s", GET + GET)
        .send(1, "s2c", NO_CONTENT + cut)
        .close(1).records,
    );
    assert.deepEqual(
      a.row,
      expectRow({ http_round_trips: 1, request_head_bytes: 60, response_head_bytes: 54, c2s_bytes: 60, s2c_bytes: 54, total_bytes: 114 }),
    );
    assert.deepEqual(where(a), [["truncated-head", 1, "s2c", 27, 27]]);
    // Not even a start line: unattributed, named at its first byte (not at the end of the stream).
    const stray = lit("HTTP/1.1 2", 10);
    const b = http(
      new LogBuilder()
        .send(1, "c2s", GET)
        .send(1, "s2c", NO_CONTENT + stray)
        .close(1).records,
    );
    assert.deepEqual(
      b.row,
      expectRow({
        http_round_trips: 1,
        request_head_bytes: 30,
        response_head_bytes: 27,
        unattributed_bytes: 10,
        c2s_bytes: 30,
        s2c_bytes: 37,
        total_bytes: 67,
      }),
    );
    assert.deepEqual(where(b), [["truncated-head", 1, "s2c", 27, 10]]);
    assert.equal(
      b.anomalies[0]!.detail,
      'the connection ended inside a response head: expected a complete status line (HTTP/1.1 SP 3-digit status), got "HTTP/1.1 2"',
    );
  });

  it("HTTP: a compressed JSON body: body bytes, no message looked for (compressed-body)", () => {
    const head = lit("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: 3\r\n\r\n", 94); // 17 + 32 + 24 + 19 + 2
    const r = http(new LogBuilder().send(1, "c2s", GET).send(1, "s2c", `${head}abc`).close(1).records);
    assert.deepEqual(
      r.row,
      expectRow({
        http_round_trips: 1,
        request_head_bytes: 30,
        response_head_bytes: 94,
        response_body_bytes: 3,
        c2s_bytes: 30,
        s2c_bytes: 97,
        total_bytes: 127,
      }),
    );
    assert.deepEqual(where(r), [["compressed-body", 1, "s2c", 94, 3]]);
  });

  it("HTTP: a JSON body or SSE data that is not JSON: body bytes, no message (invalid-json)", () => {
    const json = lit('{"jsonrpc":"2.0","id":1,"method":"x",}', 38); // 17 + `"id":1,` 7 + `"method":"x",` 13 + `}` 1
    const req = post(json);
    const a = http(new LogBuilder().send(1, "c2s", req.wire).close(1).records);
    assert.equal(a.row.jsonrpc_c2s, 0);
    assert.equal(a.row.request_body_bytes, 38);
    assert.deepEqual(where(a), [["invalid-json", 1, "c2s", len(req.head), 38]]);
    const body = lit('data: {"jsonrpc":\ndata: oops}\n\n', 31); // 6 + 11 + 1 + 6 + 5 + 1 + 1
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 31\r\n\r\n", 72); // 17 + 33 + 20 + 2
    const b = http(
      new LogBuilder()
        .send(1, "c2s", GET)
        .send(1, "s2c", head + body)
        .close(1).records,
    );
    assert.deepEqual([b.row.sse_events, b.row.jsonrpc_s2c, b.row.response_body_bytes], [1, 0, 31]);
    assert.deepEqual(where(b), [["invalid-json", 1, "s2c", 72, 31]]);
  });

  it("HTTP: JSON-RPC in a text/plain body, or one without Content-Type, is counted and named (jsonrpc-in-non-json-body)", () => {
    const plain = lit("POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 40\r\n\r\n", 77); // 20 + 9 + 26 + 20 + 2
    const bare = lit("POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 40\r\n\r\n", 51); // 20 + 9 + 20 + 2
    const accepted = lit("HTTP/1.1 202 Accepted\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nAccepted", 78); // 23 + 26 + 19 + 2 + 8
    const log = new LogBuilder()
      .send(1, "c2s", plain + PING)
      .send(1, "s2c", JSON_RES)
      .send(1, "c2s", bare + PING.replace('"id":1', '"id":2'))
      .send(1, "s2c", accepted) // a text/plain body that is not JSON: nothing to name
      .close(1);
    const r = http(log.records);
    assert.equal(r.row.jsonrpc_c2s, 2);
    assert.equal(r.row.jsonrpc_s2c, 1);
    assert.equal(r.row.request_body_bytes, 80);
    assert.deepEqual(where(r), [
      ["jsonrpc-in-non-json-body", 1, "c2s", 77, 40],
      ["jsonrpc-in-non-json-body", 1, "c2s", 77 + 40 + 51, 40],
    ]);
    assert.equal(r.anomalies[0]!.detail, '1 JSON-RPC message(s) in the body of "POST /mcp HTTP/1.1", which has Content-Type text/plain');
    assert.equal(r.anomalies[1]!.detail, '1 JSON-RPC message(s) in the body of "POST /mcp HTTP/1.1", which has no Content-Type');
    assert.deepEqual(
      r.messages
        .toRows()
        .filter((m) => m.dir === "c2s")
        .map((m) => [m.kind, m.bodyBytes, m.anomaly]),
      [
        ["http-only", 0, "jsonrpc-in-non-json-body"],
        ["request", 40, "jsonrpc-in-non-json-body"],
        ["http-only", 0, "jsonrpc-in-non-json-body"],
        ["request", 40, "jsonrpc-in-non-json-body"],
      ],
    );
  });

  it("HTTP: an event stream that ends inside an event: not dispatched, its message not counted (sse-event-unterminated)", () => {
    const body = lit(`data: ${RESULT1}\n`, 43); // 6 + 36 + 1, no blank line after it
    const head = lit("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 43\r\n\r\n", 72);
    const p = post(PING);
    const r = http(
      new LogBuilder()
        .send(1, "c2s", p.wire)
        .send(1, "s2c", head + body)
        .close(1).records,
    );
    assert.deepEqual([r.row.sse_events, r.row.jsonrpc_s2c, r.row.http_round_trips, r.row.response_body_bytes, r.row.unattributed_bytes], [0, 0, 1, 43, 0]);
    assert.deepEqual(where(r), [["sse-event-unterminated", 1, "s2c", 72, 43]]);
    // A comment after the last event is not an event left open.
    const ok = `data: ${RESULT1}\n\n: keep-alive\n`;
    const okHead = `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: ${len(ok)}\r\n\r\n`;
    assert.deepEqual(
      where(
        http(
          new LogBuilder()
            .send(1, "c2s", p.wire)
            .send(1, "s2c", okHead + ok)
            .close(1).records,
        ),
      ),
      [],
    );
  });

  it("a log without eof records, and an empty log, are named (log-truncated, empty-log)", () => {
    const p = post(PING);
    const r = http(new LogBuilder().send(1, "c2s", p.wire).send(1, "s2c", JSON_RES).records);
    assert.equal(r.fast, 1, "complete messages: the fast path counts them; the log as a whole is named at the end");
    assert.equal(r.row.total_bytes, len(p.wire) + 107);
    assert.deepEqual(where(r), [["log-truncated", 1, "s2c", 107, 0]]);
    // With the eof records, nothing to name.
    assert.deepEqual(where(http(new LogBuilder().send(1, "c2s", p.wire).send(1, "s2c", JSON_RES).close(1).records)), []);
    for (const records of [[], new LogBuilder().close(1).records]) {
      const e = http(records);
      assert.deepEqual(e.row, emptyCountRow());
      assert.deepEqual(where(e), [["empty-log", 0, "c2s", 0, 0]]);
      assert.deepEqual(where(countStreams([], { transport: "stdio" })), [["empty-log", 0, "c2s", 0, 0]]);
    }
    assert.throws(() => countStreams([], { transport: "http", strict: true }), {
      message: "capture: the log holds no bytes (no records, or only eof records) (empty-log)",
    });
  });

  it("documents every code in one table", () => {
    const codes = Object.keys(ANOMALY_CODES);
    for (const c of codes) assert.match(c, /^[a-z0-9]+(-[a-z0-9]+)*$/, c);
    assert.equal(codes.length, 18);
  });
});

describe("anomaly codes in the README", () => {
  it("lists every code of runner/count/anomalies.ts in its table", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const listed = [...readme.matchAll(/^\| `([a-z0-9-]+)` \| /gm)].map((m) => m[1]);
    for (const code of Object.keys(ANOMALY_CODES)) assert.ok(listed.includes(code), `README.md lists ${code}`);
  });
});
