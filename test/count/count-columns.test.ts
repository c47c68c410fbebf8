/**
 * The count columns declared once (format/count-columns.ts): the counters fill exactly the declared
 * columns, the README's table says what the declaration says, and each name and label is one
 * column's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../paths.js";
import { COUNT_COLUMNS, COUNT_COLUMN_WORDS } from "../../format/count-columns.js";
import { countLog } from "../../runner/count/index.js";
import type { CaptureRecord } from "../../runner/capture/log.js";

const b64 = (text: string): string => Buffer.from(text).toString("base64");

test("each counter fills exactly the declared columns", () => {
  const request = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const answer = '{"jsonrpc":"2.0","id":1,"result":{}}';
  const stdio: CaptureRecord[] = [
    { seq: 1, dir: "c2s", b64: b64(`${request}\n`) },
    { seq: 2, dir: "s2c", b64: b64(`${answer}\n`) },
    { seq: 3, dir: "c2s", eof: true },
    { seq: 4, dir: "s2c", eof: true },
  ];
  const http: CaptureRecord[] = [
    { conn: 1, seq: 1, dir: "c2s", b64: b64(`POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: ${request.length}\r\n\r\n${request}`) },
    { conn: 1, seq: 2, dir: "s2c", b64: b64(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${answer.length}\r\n\r\n${answer}`) },
    { conn: 1, seq: 3, dir: "c2s", eof: true },
    { conn: 1, seq: 4, dir: "s2c", eof: true },
  ];
  for (const [transport, records] of [
    ["stdio", stdio],
    ["http", http],
  ] as const) {
    const { row } = countLog(records, { transport });
    assert.deepEqual(Object.keys(row).sort(), [...COUNT_COLUMNS].sort(), transport);
    assert.equal(row.jsonrpc_c2s, 1, transport);
  }
});

test("the README's table of count columns is the declaration's", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const rows = readme
    .split("\n")
    .filter((l) => /^\| `[a-z0-9_]+` \| (messages|round trips|events|bytes) \|/.test(l))
    .map((l) => l.slice(2, -2).split(" | "));
  assert.deepEqual(
    rows,
    COUNT_COLUMN_WORDS.map((c) => [`\`${c.name}\``, c.unit, c.meaning]),
  );
});

test("each name and each label is one column's", () => {
  assert.equal(new Set(COUNT_COLUMNS).size, COUNT_COLUMNS.length);
  assert.equal(new Set(COUNT_COLUMN_WORDS.map((c) => c.label)).size, COUNT_COLUMN_WORDS.length);
  for (const c of COUNT_COLUMN_WORDS) assert.ok(c.meaning.length > 10 && c.label.length > 0, c.name);
});
