/**
 * `wirecost count LOG` on logs in the line format of the Python relay published with the
 * mcp-on-the-wire write-up (json.dumps with its default ", " and ": " separators). The fixtures
 * were written by that format's own serialiser; the expected counts are lengths of the literal
 * pieces below, and the test first checks that the fixture holds exactly those pieces.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import { formatRecord, readCaptureLog, reassemble } from "../../runner/capture/log.js";
import { LogBuilder } from "../count/helpers.js";

const fixtures = join(root, "test", "capture", "fixtures");
const httpLog = join(fixtures, "python-relay-http.jsonl");
const stdioLog = join(fixtures, "python-tap-stdio.jsonl");

const reqBody = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":7}}}';
const reqHead = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${reqBody.length}\r\n\r\n`;
const event = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}\n\n';
const resHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
const framing = `${event.length.toString(16)}\r\n` + "\r\n" + "0\r\n\r\n";

/** Parse a TSV output into an object per row. */
function rows(tsv: string): Record<string, string>[] {
  const [head, ...lines] = tsv.trimEnd().split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

test("count: the fixture is in the Python relay's spacing and holds the literal pieces", () => {
  const first = readFileSync(httpLog, "utf8").split("\n")[0]!;
  assert.match(first, /^\{"conn": 1, "seq": 1, "dir": "c2s", "b64": "[A-Za-z0-9+/=]+"\}$/);
  const [c2s, s2c] = reassemble(readCaptureLog(httpLog));
  assert.equal(c2s!.bytes.toString(), reqHead + reqBody);
  assert.equal(s2c!.bytes.toString(), `${resHead}${event.length.toString(16)}\r\n${event}\r\n0\r\n\r\n`);
});

test("count: one TSV row for a Python-relay HTTP log, with counts known by construction", () => {
  const out = execFileSync(process.execPath, [cli, "count", httpLog], { encoding: "utf8" });
  const [row, ...rest] = rows(out);
  assert.equal(rest.length, 0, "exactly one row");
  assert.equal(row!.log, httpLog);
  const expect = {
    jsonrpc_c2s: 1,
    jsonrpc_s2c: 1,
    http_round_trips: 1,
    request_head_bytes: reqHead.length,
    request_body_bytes: reqBody.length,
    response_head_bytes: resHead.length,
    response_body_bytes: event.length,
    chunk_framing_bytes: framing.length,
    sse_events: 1,
    meta_bytes: '{"progressToken":7}'.length,
    newline_bytes: 0,
    c2s_bytes: reqHead.length + reqBody.length,
    s2c_bytes: resHead.length + event.length + framing.length,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(row![k], String(v), k);
  assert.equal(row!.total_bytes, String(expect.c2s_bytes + expect.s2c_bytes));
});

test("count --per-message: rows add up to the total and name the method", () => {
  const out = execFileSync(process.execPath, [cli, "count", httpLog, "--per-message"], { encoding: "utf8" });
  const rs = rows(out);
  const sum = rs.reduce((n, r) => n + Number(r.head_bytes) + Number(r.body_bytes) + Number(r.framing_bytes) + Number(r.newline_bytes), 0);
  assert.equal(sum, reqHead.length + reqBody.length + resHead.length + event.length + framing.length);
  const kinds = rs.map((r) => `${r.dir} ${r.kind} ${r.method} ${r.meta_bytes} ${r.sse}`);
  assert.deepEqual(kinds, ["c2s http-only  0 no", "c2s request tools/call 19 no", "s2c http-only  0 no", "s2c result tools/call 0 yes"]);
});

test("count --stdio: a Python-tap stdio log without conn, a message split across chunks", () => {
  const l1 = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
  const l2 = '{"jsonrpc":"2.0","id":1,"result":{}}\n';
  const [row] = rows(execFileSync(process.execPath, [cli, "count", "--stdio", stdioLog], { encoding: "utf8" }));
  assert.equal(row!.jsonrpc_c2s, "1");
  assert.equal(row!.jsonrpc_s2c, "1");
  assert.equal(row!.newline_bytes, "2");
  assert.equal(row!.total_bytes, String(l1.length + l2.length));
  assert.equal(row!.http_round_trips, "0");
});

test("count: a stdio log counted as HTTP fails with one line that suggests --stdio", () => {
  const r = spawnSync(process.execPath, [cli, "count", stdioLog], { encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /python-tap-stdio\.jsonl: .*add --stdio/);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1);
});

test("count --stdio on an HTTP log (its JSON bodies may still parse as lines) fails with one line that suggests dropping --stdio", () => {
  const r = spawnSync(process.execPath, [cli, "count", "--stdio", httpLog], { encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /python-relay-http\.jsonl: .*got "POST \/mcp HTTP\/1\.1\\r".* drop --stdio/);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1);
});

test("count: a stray stdout line is counted and named on stderr; --strict fails on it with one line", () => {
  const dir = mkdtempSync(join(tmpdir(), "count-cli-"));
  const log = join(dir, "stray.jsonl");
  const warn = "warning startup done\n"; // 21 bytes
  const l1 = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
  const l2 = '{"jsonrpc":"2.0","id":1,"result":{}}\n';
  writeFileSync(log, new LogBuilder().send(undefined, "c2s", l1).send(undefined, "s2c", warn, l2).close(0).records.map(formatRecord).join(""));
  const r = spawnSync(process.execPath, [cli, "count", "--stdio", log], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const [row] = rows(r.stdout);
  assert.equal(row!.jsonrpc_s2c, "1");
  assert.equal(row!.unattributed_bytes, "21");
  assert.equal(row!.total_bytes, String(l1.length + warn.length + l2.length));
  assert.equal(
    r.stderr,
    `${log}: anomaly: stdio s2c at byte 0, 21 bytes: stdio-non-jsonrpc-line: line 1 holds no JSON-RPC message (one per line): expected a JSON value at byte 0, got "warning startup done"\n`,
  );
  const strict = spawnSync(process.execPath, [cli, "count", "--stdio", "--strict", log], { encoding: "utf8" });
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /stray\.jsonl: stdio s2c at byte 0: line 1 holds no JSON-RPC message .*\(stdio-non-jsonrpc-line\)/);
  assert.equal(strict.stderr.trimEnd().split("\n").length, 1);
  assert.equal(strict.stdout, "");
});
