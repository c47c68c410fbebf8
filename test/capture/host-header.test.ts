/**
 * The relay's Host rewriting (runner/capture/host-header.ts): in random streams of HTTP/1.1
 * requests (Content-Length and chunked bodies, bodies that hold Host-like lines, random chunkings)
 * exactly the Host headers naming the relay's port come out naming the server's, and nothing
 * else changes; a stream that is not HTTP passes unchanged and is never held back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { HostRewriter } from "../../runner/capture/host-header.js";

const RELAY = 41234;
const SERVER = 8931;

/** One request: its bytes as the client sends them, and as the server should get them. */
interface Request {
  sent: string;
  expected: string;
  rewritten: boolean;
}

const bodyArb = fc.string({ maxLength: 200 }).map((s) => `${s}\r\nHost: 127.0.0.1:${RELAY}\r\n\r\n`);
const hostArb = fc.constantFrom(`127.0.0.1:${RELAY}`, `localhost:${RELAY}`, `[::1]:${RELAY}`, "127.0.0.1:9", "example.test", `127.0.0.1:${RELAY}0`);
const requestArb: fc.Arbitrary<Request> = fc
  .record({
    method: fc.constantFrom("POST", "GET", "DELETE"),
    host: hostArb,
    hostName: fc.constantFrom("Host", "host", "HOST"),
    body: bodyArb,
    chunked: fc.boolean(),
    extra: fc.constantFrom("", "Hostile: 127.0.0.1:41234\r\n", "X-Host: 127.0.0.1:41234\r\n"),
    leadingEmpty: fc.boolean(),
  })
  .map(({ method, host, hostName, body, chunked, extra, leadingEmpty }) => {
    const framed = chunked ? `${body.length.toString(16)}\r\n${body}\r\n0\r\nTrailer-Host: x:${RELAY}\r\n\r\n` : body;
    const framing = chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${Buffer.byteLength(body, "latin1")}\r\n`;
    const head = (h: string) => `${leadingEmpty ? "\r\n" : ""}${method} /mcp HTTP/1.1\r\n${extra}${hostName}: ${h}\r\n${framing}\r\n`;
    const rewritten = host.endsWith(`:${RELAY}`);
    const toServer = rewritten ? `127.0.0.1:${SERVER}` : host;
    return { sent: head(host) + framed, expected: head(toServer) + framed, rewritten };
  });

/** Cut `bytes` at `cuts` (fractions) into chunks. */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    out.push(bytes.subarray(from, to));
    from = to;
  }
  return out;
}

test("Host rewriting: the Host headers naming the relay's port, and nothing else, name the server's, in any chunking", () => {
  fc.assert(
    fc.property(
      fc.array(requestArb, { minLength: 1, maxLength: 5 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }),
      (requests, cuts) => {
        const rewriter = new HostRewriter(RELAY, `127.0.0.1:${SERVER}`);
        const sent = Buffer.from(requests.map((r) => r.sent).join(""), "latin1");
        const out = chunked(sent, cuts).flatMap((c) => rewriter.push(c));
        out.push(...rewriter.flush());
        assert.equal(Buffer.concat(out).toString("latin1"), requests.map((r) => r.expected).join(""));
        assert.equal(rewriter.rewrites, requests.filter((r) => r.rewritten).length);
        const delta = requests.filter((r) => r.rewritten).reduce((d, r) => d + r.expected.length - r.sent.length, 0);
        assert.equal(rewriter.deltaBytes, delta, "the bytes the server gets beyond the client's");
      },
    ),
    { numRuns: 300 },
  );
});

test("Host rewriting: bytes that are not HTTP requests pass unchanged and at once, chunk by chunk", () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 500 }), { maxLength: 8 }), (chunks) => {
      const rewriter = new HostRewriter(RELAY, `127.0.0.1:${SERVER}`);
      for (const c of chunks) {
        const out = Buffer.concat(rewriter.push(Buffer.from(c)));
        // Random bytes may start like a request line and a Host line: only then is anything held.
        if (!/\r?\n[Hh]/.test(Buffer.concat(chunks.map((x) => Buffer.from(x))).toString("latin1"))) assert.ok(out.equals(Buffer.from(c)));
      }
    }),
    { numRuns: 300 },
  );
  const rewriter = new HostRewriter(RELAY, `127.0.0.1:${SERVER}`);
  assert.deepEqual(Buffer.concat(rewriter.push(Buffer.from("hello 0"))).toString(), "hello 0", "a line that may become a request line is not held");
  const upgrade = `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${RELAY}\r\nUpgrade: websocket\r\n\r\nHost: 127.0.0.1:${RELAY}\r\n`;
  assert.equal(
    Buffer.concat(new HostRewriter(RELAY, `127.0.0.1:${SERVER}`).push(Buffer.from(upgrade))).toString(),
    `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${SERVER}\r\nUpgrade: websocket\r\n\r\nHost: 127.0.0.1:${RELAY}\r\n`,
    "after an Upgrade the bytes are not HTTP: passed as they are",
  );
});

test("Host rewriting: a Host line cut anywhere is held until its line end, then forwarded rewritten", () => {
  const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${RELAY}\r\nContent-Length: 2\r\n\r\n{}`;
  const expected = head.replace(`:${RELAY}`, `:${SERVER}`);
  const hostStart = head.indexOf("Host");
  const hostEnd = head.indexOf("\r\nContent") + 2;
  for (let cut = 0; cut <= head.length; cut++) {
    const rewriter = new HostRewriter(RELAY, `127.0.0.1:${SERVER}`);
    const first = Buffer.concat(rewriter.push(Buffer.from(head.slice(0, cut)))).toString();
    const forwardedAtOnce = cut <= hostStart ? head.slice(0, cut) : cut < hostEnd ? head.slice(0, hostStart) : expected.slice(0, cut - 1);
    assert.equal(first, forwardedAtOnce, `cut ${cut}`);
    const rest = Buffer.concat(rewriter.push(Buffer.from(head.slice(cut)))).toString();
    assert.equal(first + rest, expected, `cut ${cut}`);
  }
});
