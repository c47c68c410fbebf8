/**
 * The columnar message table: log order (counting sort and comparison sort give the same
 * order), rows across block boundaries, methods given to results, truncation, misuse errors.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MessageTable } from "../../runner/count/index.js";
import { FLAG_NEWLINE, FLAG_SSE, KIND } from "../../runner/count/message-table.js";

/** A table of `n` rows over two streams with log seqs from `seqOf`, in a shuffled stream order. */
function table(n: number, seqOf: (k: number) => number): { t: MessageTable; expected: number[] } {
  const t = new MessageTable();
  const a = t.streamId(1, "c2s");
  const b = t.streamId(1, "s2c");
  // Stream a's rows first, then b's: each stream in offset order, as the counters add them.
  const rows: { seq: number; offset: number; stream: number }[] = [];
  for (let k = 0; k < n; k++) rows.push({ seq: seqOf(k), offset: k, stream: k % 2 === 0 ? a : b });
  const added = [...rows.filter((r) => r.stream === a), ...rows.filter((r) => r.stream === b)];
  for (const r of added) t.add(r.stream, r.seq, r.offset, KIND["http-only"], 1, 2, 3, 0, 0);
  // Log order: by seq, then adding order.
  const expected = added
    .map((r, k) => ({ r, k }))
    .sort((x, y) => x.r.seq - y.r.seq || x.k - y.k)
    .map((x) => x.r.offset);
  return { t: t.finish(), expected };
}

describe("message table", () => {
  it("puts 40,000 rows (three blocks) in log order by counting sort", () => {
    const { t, expected } = table(40_000, (k) => 2 * k + 1);
    assert.equal(t.length, 40_000);
    assert.deepEqual(
      t.toRows().map((r) => r.offset),
      expected,
    );
    assert.deepEqual(
      t.toRows().map((r) => r.seq),
      expected.map((_, i) => i + 1),
    );
  });

  it("gives the same order by comparison sort when log seqs are too large to count", () => {
    const { t, expected } = table(5_000, (k) => 1e12 + 7 * (k % 977) + k);
    assert.deepEqual(
      t.toRows().map((r) => r.offset),
      expected,
    );
  });

  it("keeps every column and gives a result the method of the request it answers", () => {
    const t = new MessageTable();
    const c2s = t.streamId(3, "c2s");
    const s2c = t.streamId(3, "s2c");
    assert.equal(t.streamId(3, "c2s"), c2s, "one index per stream");
    t.add(s2c, 2, 0, KIND.result, 0, 40, 0, 5, FLAG_SSE, undefined, "7");
    t.add(c2s, 1, 0, KIND.request, 0, 60, 0, 9, FLAG_NEWLINE, "tools/call", "7");
    const k = t.add(c2s, 1, 60, KIND["http-only"], 100, 70, 12, 0, 0, undefined, undefined, "POST /mcp HTTP/1.1");
    t.takeBody(k, 60);
    assert.equal(t.streamOf(k), c2s);
    t.finish();
    assert.deepEqual(t.toRows(), [
      {
        conn: 3,
        dir: "c2s",
        seq: 1,
        logSeq: 1,
        offset: 0,
        kind: "request",
        headBytes: 0,
        bodyBytes: 60,
        framingBytes: 0,
        newlineBytes: 1,
        metaBytes: 9,
        unattributedBytes: 0,
        method: "tools/call",
        id: "7",
      },
      {
        conn: 3,
        dir: "c2s",
        seq: 2,
        logSeq: 1,
        offset: 60,
        kind: "http-only",
        headBytes: 100,
        bodyBytes: 10,
        framingBytes: 12,
        newlineBytes: 0,
        metaBytes: 0,
        unattributedBytes: 0,
        startLine: "POST /mcp HTTP/1.1",
      },
      {
        conn: 3,
        dir: "s2c",
        seq: 3,
        logSeq: 2,
        offset: 0,
        kind: "result",
        headBytes: 0,
        bodyBytes: 40,
        framingBytes: 0,
        newlineBytes: 0,
        metaBytes: 5,
        unattributedBytes: 0,
        method: "tools/call",
        id: "7",
        sse: true,
      },
    ]);
  });

  it("keeps an unattributed row's bytes apart, marks rows with anomaly codes, and finds the anomalies of JSON-RPC ids", () => {
    const t = new MessageTable();
    const c2s = t.streamId(0, "c2s");
    const s2c = t.streamId(0, "s2c");
    t.add(c2s, 1, 0, KIND.request, 0, 30, 0, 0, FLAG_NEWLINE, "ping", "1"); // id 1
    t.add(c2s, 2, 31, KIND.request, 0, 33, 0, 0, FLAG_NEWLINE, "ping", "null"); // id null
    const u = t.add(s2c, 3, 0, KIND.unattributed, 0, 21, 0, 0, 0);
    t.add(s2c, 3, 21, KIND.result, 0, 28, 0, 0, FLAG_NEWLINE, undefined, '"1"'); // "1": not 1
    t.add(s2c, 4, 50, KIND.result, 0, 29, 0, 0, FLAG_NEWLINE, undefined, "null"); // answers the null-id request
    t.add(s2c, 5, 80, KIND.error, 0, 40, 0, 0, FLAG_NEWLINE, undefined, "null"); // another answer to it
    t.add(s2c, 6, 121, KIND.result, 0, 28, 0, 0, FLAG_NEWLINE, undefined, "9"); // no request 9
    t.add(c2s, 7, 65, KIND.request, 0, 30, 0, 0, FLAG_NEWLINE, "ping", "9"); // logged after its result
    t.mark(u, "stdio-non-jsonrpc-line");
    t.mark(u, "stdio-non-jsonrpc-line");
    const found: [string, number, string][] = [];
    t.finish((code, k, detail) => found.push([code, k, detail]));
    assert.deepEqual(
      found.map(([code, k]) => [code, k]),
      [
        ["null-id-request", 1],
        ["id-type-mismatch", 3],
        ["unsolicited-response", 6],
      ],
    );
    assert.match(found[1]![2], /^result id "1" has another JSON type/);
    const rows = t.toRows();
    assert.deepEqual(
      rows.map((r) => [r.kind, r.bodyBytes, r.unattributedBytes, r.method, r.anomaly]),
      [
        ["request", 30, 0, "ping", undefined],
        ["request", 33, 0, "ping", undefined],
        ["unattributed", 0, 21, undefined, "stdio-non-jsonrpc-line"],
        ["result", 28, 0, undefined, undefined],
        ["result", 29, 0, "ping", undefined],
        ["error", 40, 0, "ping", undefined],
        ["result", 28, 0, undefined, undefined],
        ["request", 30, 0, "ping", undefined],
      ],
    );
    assert.deepEqual(t.located(u), { conn: 0, dir: "s2c", offset: 0, bytes: 21 });
  });

  it("takes back rows with truncate, and refuses misuse", () => {
    const t = new MessageTable();
    const s = t.streamId(0, "c2s");
    for (let k = 0; k < 20_000; k++) t.add(s, k + 1, k, KIND["line-only"], 0, 1, 0, 0, 0);
    t.mark(2, "stdio-crlf-line");
    t.mark(3, "stdio-crlf-line");
    t.truncate(3);
    assert.equal(t.length, 3);
    t.add(s, 4, 3, KIND["line-only"], 0, 1, 0, 0, 0); // row 3 again: its mark went with the old row 3
    assert.throws(() => t.row(0), /before finish/);
    t.finish();
    assert.deepEqual(
      t.toRows().map((r) => [r.logSeq, r.anomaly]),
      [
        [1, undefined],
        [2, undefined],
        [3, "stdio-crlf-line"],
        [4, undefined],
      ],
    );
    assert.throws(() => t.add(s, 9, 9, KIND["line-only"], 0, 1, 0, 0, 0), /after finish/);
    assert.throws(() => t.row(4), RangeError);
  });
});
