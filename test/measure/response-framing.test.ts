/**
 * The raw client's response framing: the byte-scan hot path and its hand-over to the full
 * Http1StreamParser frame every stream of responses exactly as the full parser alone does, however
 * the bytes are split into reads, and whatever the reads' memory holds once push() returns.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Http1StreamParser } from "../../runner/wire/http1.js";
import { MAX_PLAIN_HEAD_BYTES, ResponseFramer, scanResponseHead, type ResponseHeadScan } from "../../runner/measure/response-framing.js";

/** One framed response: status and body text (latin1, so any byte survives). */
type Framed = [status: number, body: string];

/**
 * Frame `stream` fed as the given pieces, each copied into one reused buffer that is overwritten
 * with junk after every push (as net's onread buffer is).
 */
function frame(pieces: Buffer[]): { out: Framed[]; full: boolean } {
  const out: Framed[] = [];
  const framer = new ResponseFramer((status, data, s, e) => out.push([status, data.toString("latin1", s, e)]));
  const reused = Buffer.alloc(Math.max(1, ...pieces.map((p) => p.length)) + 16);
  for (const p of pieces) {
    p.copy(reused);
    reused.fill(0x0a, p.length); // stale bytes past the read: line feeds, the worst case for a scan
    framer.push(reused, p.length);
    reused.fill("\r\n\r\n");
  }
  return { out, full: framer.usesFullParser };
}

/** What the full parser alone makes of `stream` (final responses only). */
function reference(stream: Buffer): Framed[] {
  const p = new Http1StreamParser("response", "reference");
  return p
    .push(stream)
    .filter((m) => (m.status ?? 0) >= 200)
    .map((m) => [m.status ?? 0, m.body.toString("latin1")]);
}

/** Every split of `stream` into two pieces, and the one-byte-at-a-time split. */
function splits(stream: Buffer): Buffer[][] {
  const all: Buffer[][] = [[stream]];
  for (let i = 1; i < stream.length; i++) all.push([stream.subarray(0, i), stream.subarray(i)]);
  all.push([...stream].map((b) => Buffer.from([b])));
  return all;
}

const ok = (body: string, name = "Content-Length", extra = "") =>
  `HTTP/1.1 200 OK\r\n${name}: ${Buffer.byteLength(body)}\r\n${extra}Content-Type: application/json\r\n\r\n${body}`;

test("scanResponseHead reads status, Content-Length and the body offset of a plain head", () => {
  const b = Buffer.from(`xx${ok('{"result":1}')}`, "latin1");
  const out: ResponseHeadScan = { bodyStart: 0, status: 0, contentLength: 0 };
  assert.equal(scanResponseHead(b, 2, b.length, out), "plain");
  assert.deepEqual(out, { bodyStart: b.indexOf("{"), status: 200, contentLength: 12 });
  assert.equal(scanResponseHead(b, 2, b.indexOf("\r\n\r\n") + 3, out), "incomplete");
  for (const [head, why] of [
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "chunked"],
    ["HTTP/1.1 200 OK\r\nContent-Type: x\r\n\r\n", "no Content-Length"],
    ["HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", "two Content-Length"],
    ["HTTP/1.1 200 OK\r\nContent-Length: 1, 1\r\n\r\n", "a Content-Length list"],
    ["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "a negative Content-Length"],
    ["HTTP/1.1 200 OK\r\nContent\rLength: 1\r\n\r\n", "a CR inside a field name (CR | 0x20 is '-')"],
    ["HTTP/1.1 200 OK\nContent-Length: 1\n\n", "bare LF"],
    ["HTTP/1.1 200 OK\r\nContent-Length: 1\r\n folded\r\n\r\n", "folded line"],
    ["HTTP/1.1 100 Continue\r\n\r\n", "interim"],
    ["HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", "204"],
    ["HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n", "304"],
    ["HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", "not HTTP/1.x"],
    ["HTTP/1.1 20x OK\r\nContent-Length: 0\r\n\r\n", "bad status"],
    ["HTTP/1.1 200OK\r\nContent-Length: 0\r\n\r\n", "no space after status"],
  ] as const) {
    const h = Buffer.from(head, "latin1");
    assert.equal(scanResponseHead(h, 0, h.length, out), "unusual", why);
  }
  const cases = Buffer.from("HTTP/1.0 503\r\ncOnTeNt-LeNgTh:\t7 \r\n\r\n", "latin1");
  assert.equal(scanResponseHead(cases, 0, cases.length, out), "plain");
  assert.deepEqual([out.status, out.contentLength], [503, 7]);
  const long = Buffer.from(`HTTP/1.1 200 OK\r\nX: ${"a".repeat(MAX_PLAIN_HEAD_BYTES)}\r\n`, "latin1");
  assert.equal(scanResponseHead(long, 0, long.length, out), "unusual", "an endless head goes to the full parser");
});

test("Content-Length responses split at every byte, and several in one read, frame as the full parser does, on the hot path", () => {
  const stream = Buffer.from(
    ok('{"jsonrpc":"2.0","id":1,"result":{"text":"Echo: hello"}}') +
      ok("", "content-length") +
      ok("\r\n\r\nHTTP/1.1 200 OK\r\n", "CONTENT-LENGTH", "X-A: b\r\n") +
      ok("é€", "Content-Length"),
    "utf8",
  );
  const want = reference(stream);
  assert.equal(want.length, 4);
  for (const pieces of splits(stream)) {
    const got = frame(pieces);
    assert.deepEqual(got.out, want, `pieces ${pieces.map((p) => p.length).join("+")}`);
    assert.equal(got.full, false, "plain responses stay on the hot path");
  }
});

test("a chunked response hands the connection to the full parser, split at every byte, and later responses still frame", () => {
  const chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n";
  const stream = Buffer.from(ok("first") + "HTTP/1.1 100 Continue\r\n\r\n" + chunked + ok("last"), "latin1");
  const want: Framed[] = [
    [200, "first"],
    [200, "hello, world"],
    [200, "last"],
  ];
  assert.deepEqual(reference(stream), want);
  for (const pieces of splits(stream)) {
    const got = frame(pieces);
    assert.deepEqual(got.out, want, `pieces ${pieces.map((p) => p.length).join("+")}`);
    assert.equal(got.full, true);
  }
});

test("a malformed response is a wire format error from the full parser, not a hang", () => {
  const framer = new ResponseFramer(() => assert.fail("no response expected"));
  assert.throws(() => framer.push(Buffer.from("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n")), /status line/);
});

const tokenChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
const fieldArb = fc
  .tuple(fc.string({ unit: tokenChar, minLength: 1, maxLength: 12 }), fc.string({ unit: fc.constantFrom(..."abc 123;=/"), maxLength: 20 }))
  .filter(([n]) => !/^(content-length|transfer-encoding)$/i.test(n));
const responseArb = fc.record({
  status: fc.constantFrom(200, 201, 204, 400, 500, 103),
  fields: fc.array(fieldArb, { maxLength: 4 }),
  nameCase: fc.constantFrom("Content-Length", "content-length", "CONTENT-LENGTH"),
  body: fc.uint8Array({ maxLength: 300 }),
  chunked: fc.boolean(),
  ows: fc.constantFrom("", " ", "\t "),
});

/** Serialize one generated response (1xx and 204 carry no body). */
function serialize(r: typeof responseArb extends fc.Arbitrary<infer T> ? T : never): Buffer {
  const body = r.status < 200 || r.status === 204 ? new Uint8Array(0) : r.body;
  const fields = r.fields.map(([n, v]) => `${n}: ${v}\r\n`).join("");
  if (r.status >= 200 && r.status !== 204 && r.chunked) {
    const half = body.length >> 1;
    const chunks = [body.subarray(0, half), body.subarray(half)].filter((c) => c.length > 0);
    const parts = chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]);
    return Buffer.concat([Buffer.from(`HTTP/1.1 ${r.status} X\r\n${fields}Transfer-Encoding: chunked\r\n\r\n`), ...parts, Buffer.from("0\r\n\r\n")]);
  }
  const length = r.status < 200 ? "" : `${r.nameCase}:${r.ows}${body.length}${r.ows}\r\n`;
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${r.status} X\r\n${fields}${length}\r\n`), body]);
}

test("property: any stream of responses, cut anywhere, frames as the full parser frames it", () => {
  fc.assert(
    fc.property(fc.array(responseArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (responses, cuts) => {
      const stream = Buffer.concat(responses.map(serialize));
      const at = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((s, i) => stream.subarray(s, at[i] ?? stream.length));
      assert.deepEqual(frame(pieces).out, reference(stream));
    }),
    { numRuns: 300 },
  );
});

test("an event stream answers at its JSON-RPC response event, split at every byte; left open, the connection is spent", () => {
  const event = (json: string) => `event: message\ndata: ${json}\n\n`;
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
  const answer = '{"jsonrpc":"2.0","id":7,"result":{"ok":true}}';
  // A notification and a response to another id come first; they do not answer id 7.
  const before = chunk(": hi\n\n") + chunk(event('{"jsonrpc":"2.0","method":"notifications/progress"}') + event('{"jsonrpc":"2.0","id":6,"result":{}}'));
  const open = Buffer.from(head + before + chunk(event(answer)), "latin1");
  const ended = Buffer.from(head + before + chunk(event(answer)) + "0\r\n\r\n" + ok("next"), "latin1");
  for (const pieces of splits(open)) {
    const got: [string, boolean][] = [];
    const framer = new ResponseFramer((_status, data, s, e, left) => got.push([data.toString("latin1", s, e), left]));
    framer.expectId = 7;
    for (const p of pieces) framer.push(p);
    assert.deepEqual(got, [[answer, true]], `pieces ${pieces.map((p) => p.length).join("+")}`);
    assert.equal(framer.leftOpen, true);
    framer.push(Buffer.from(chunk(": ping\n\n") + "garbage that is not a chunk"));
    assert.equal(got.length, 1, "nothing more is read once the stream is left open");
  }
  // The whole stream in one read, ended: the answer is not left open and the next response frames.
  const got: [string, boolean][] = [];
  const framer = new ResponseFramer((_status, data, s, e, left) => got.push([data.toString("latin1", s, e), left]));
  framer.expectId = 7;
  framer.push(ended);
  assert.deepEqual(got, [
    [answer, false],
    ["next", false],
  ]);
  assert.equal(framer.leftOpen, false);
  // A Content-Length event stream also goes to the full parser and answers with the event's data.
  const sized = event(answer);
  const plain = new ResponseFramer((_status, data, s, e, left) => got.push([data.toString("latin1", s, e), left]));
  plain.push(Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: Text/Event-Stream; charset=utf-8\r\nContent-Length: ${sized.length}\r\n\r\n${sized}`));
  assert.deepEqual(got[2], [answer, false]);
  assert.equal(plain.usesFullParser, true);
});
