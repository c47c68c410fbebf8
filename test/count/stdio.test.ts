import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COUNT_COLUMNS, WireFormatError, countLog, countStdio, streamDigest, type MessageRow } from "../../runner/count/index.js";
import { LogBuilder, b, chop, len } from "./helpers.js";

const META = '{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}';
const REQ = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${META}}}`;
const RES = '{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"k":1}}}';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a\\nb"}}';

const sumRows = (rows: MessageRow[], f: (r: MessageRow) => number) => rows.reduce((s, r) => s + f(r), 0);

describe("stdio counting", () => {
  it("counts a message split across chunks and several messages in one chunk", () => {
    const c2s = b(`${REQ}\n`);
    const s2c = b(`${NOTE}\n${RES}\n`);
    const log = new LogBuilder()
      .send(undefined, "c2s", ...chop(c2s, [5, 40]))
      .send(undefined, "s2c", ...chop(s2c, [len(NOTE) - 3, len(NOTE) + 1 + 10]))
      .eof(undefined, "c2s");
    const { row, messages: table, breakdown } = countStdio(log.records);
    const messages = table.toRows();
    assert.deepEqual(
      { ...row },
      {
        jsonrpc_c2s: 1,
        jsonrpc_s2c: 2,
        http_round_trips: 0,
        request_head_bytes: 0,
        request_body_bytes: 0,
        response_head_bytes: 0,
        response_body_bytes: 0,
        chunk_framing_bytes: 0,
        sse_events: 0,
        meta_bytes: len(META),
        newline_bytes: 3,
        unattributed_bytes: 0,
        c2s_bytes: c2s.length,
        s2c_bytes: s2c.length,
        total_bytes: c2s.length + s2c.length,
      },
    );
    assert.equal(breakdown.partial_line_bytes, 0);
    assert.deepEqual(
      messages.map((m) => [m.seq, m.dir, m.kind, m.method, m.bodyBytes, m.newlineBytes, m.metaBytes, m.logSeq]),
      [
        [1, "c2s", "request", "tools/list", len(REQ), 1, len(META), 1],
        [2, "s2c", "notification", "notifications/message", len(NOTE), 1, 0, 4],
        [3, "s2c", "result", "tools/list", len(RES), 1, len('{"k":1}'), 5],
      ],
    );
    assert.equal(
      sumRows(messages, (r) => r.bodyBytes + r.newlineBytes),
      row.total_bytes,
    );
    assert.deepEqual(Object.keys(row), [...COUNT_COLUMNS]);
  });

  it("reports a trailing partial line apart: not a message, unattributed, still in the total", () => {
    const tail = '{"jsonrpc":"2.0","id":2,"meth';
    const log = new LogBuilder().send(undefined, "c2s", `${REQ}\n${tail}`);
    const { row, messages: table, breakdown, anomalies } = countLog(log.records, { transport: "stdio" });
    const messages = table.toRows();
    assert.equal(row.jsonrpc_c2s, 1);
    assert.equal(row.newline_bytes, 1);
    assert.equal(row.c2s_bytes, len(REQ) + 1 + len(tail));
    assert.equal(row.unattributed_bytes, len(tail));
    assert.equal(breakdown.partial_line_bytes, len(tail));
    assert.deepEqual(messages[1], {
      conn: 0,
      dir: "c2s",
      seq: 2,
      logSeq: 1,
      offset: len(REQ) + 1,
      kind: "unattributed",
      headBytes: 0,
      bodyBytes: 0,
      framingBytes: 0,
      newlineBytes: 0,
      metaBytes: 0,
      unattributedBytes: len(tail),
      incomplete: true,
      anomaly: "log-truncated",
    });
    // No eof record for the stream: the log may have been cut while the line was arriving.
    assert.deepEqual(
      anomalies.map((a) => [a.code, a.conn, a.dir, a.offset, a.bytes]),
      [["log-truncated", 0, "c2s", len(REQ) + 1, len(tail)]],
    );
  });

  it("counts a batch line's members, one newline per line, and blank and CRLF lines' bytes", () => {
    const a = '{"jsonrpc":"2.0","id":1,"method":"a","params":{"_meta":{}}}';
    const c = '{"jsonrpc":"2.0","method":"c"}';
    const batch = `[${a}, ${c}]`;
    const text = `${batch}\n\n${REQ}\r\n`;
    const { row, messages: table } = countStdio(new LogBuilder().send(undefined, "c2s", text).records);
    const messages = table.toRows();
    assert.equal(row.jsonrpc_c2s, 3);
    assert.equal(row.newline_bytes, 3);
    assert.equal(row.meta_bytes, 2 + len(META));
    assert.deepEqual(
      messages.map((m) => [m.kind, m.bodyBytes, m.newlineBytes]),
      [
        ["line-only", 4, 1], // "[", ", ", "]"
        ["request", len(a), 0],
        ["notification", len(c), 0],
        ["line-only", 0, 1], // the blank line
        ["line-only", 1, 1], // the "\r" before "\n"
        ["request", len(REQ), 0],
      ],
    );
    assert.equal(
      sumRows(messages, (r) => r.bodyBytes + r.newlineBytes),
      len(text),
    );
  });

  it("counts _meta only client to server in the column", () => {
    const { row } = countStdio(new LogBuilder().send(0, "s2c", `${RES}\n`).records);
    assert.equal(row.meta_bytes, 0);
    assert.equal(row.jsonrpc_s2c, 1);
  });

  it("with strict, rejects a line that is not JSON, naming pipe, offset and line", () => {
    const log = new LogBuilder().send(undefined, "s2c", `${RES}\nServer started on stdio\n`);
    assert.throws(
      () => countStdio(log.records, true),
      (e: unknown) =>
        e instanceof WireFormatError &&
        e.message ===
          `stdio s2c at byte ${len(RES) + 1}: line 2 holds no JSON-RPC message (one per line): expected a JSON value at byte ${len(RES) + 1}, got "Server started on stdio" (stdio-non-jsonrpc-line)`,
    );
    const cut = new LogBuilder().send(3, "c2s", '{"jsonrpc":"2.0","id":1,\n');
    assert.throws(() => countLog(cut.records, { transport: "stdio", strict: true }), {
      message: "conn 3 c2s at byte 0: line 1 holds no JSON-RPC message (one per line): expected a string at byte 24, got end of line (stdio-non-jsonrpc-line)",
    });
  });

  it("digests the same bytes identically however they were chunked", () => {
    const text = b(`${REQ}\n${REQ}\n`);
    const one = new LogBuilder().send(undefined, "c2s", text).records;
    const many = new LogBuilder().send(undefined, "c2s", ...chop(text, [1, 2, 50])).eof(undefined, "c2s").records;
    assert.equal(streamDigest(one), streamDigest(many));
    assert.match(streamDigest(one), /^[0-9a-f]{64}$/);
    assert.notEqual(streamDigest(one), streamDigest(new LogBuilder().send(undefined, "s2c", text).records));
  });
});
