import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WireFormatError } from "../../runner/wire/errors.js";
import { Http1StreamParser, bodyToStreamOffset, headerValue, type HttpMessage } from "../../runner/wire/http1.js";
import { b, chop, chunked, len } from "../count/helpers.js";

function parseAll(kind: "request" | "response", pieces: Buffer[], methods: string[] = [], ended = true): HttpMessage[] {
  const p = new Http1StreamParser(kind, "conn 1 test");
  for (const m of methods) p.expectResponseTo(m);
  const out: HttpMessage[] = [];
  for (const piece of pieces) out.push(...p.push(piece));
  if (ended) out.push(...p.end());
  return out;
}

function errorOf(fn: () => unknown): WireFormatError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof WireFormatError, `expected a WireFormatError, got ${String(e)}`);
    return e;
  }
  assert.fail("expected a WireFormatError");
}

const HEAD = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n";
const BODY = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const REQUEST = b(HEAD + BODY);

describe("Http1StreamParser: requests", () => {
  it("parses one Content-Length request: head, headers in order, body", () => {
    const [m, ...rest] = parseAll("request", [REQUEST]);
    assert.equal(rest.length, 0);
    assert.ok(m);
    assert.equal(m.startLine, "POST /mcp HTTP/1.1");
    assert.equal(m.method, "POST");
    assert.equal(m.target, "/mcp");
    assert.equal(m.version, "HTTP/1.1");
    assert.deepEqual(m.headers, [
      ["Host", "127.0.0.1:3000"],
      ["Content-Type", "application/json"],
      ["Content-Length", "40"],
    ]);
    assert.equal(m.headBytes, len(HEAD));
    assert.equal(m.bodyBytes, len(BODY));
    assert.equal(m.body.toString(), BODY);
    assert.equal(m.framingBytes, 0);
    assert.equal(m.chunked, false);
    assert.equal(m.startOffset, 0);
    assert.equal(m.endOffset, REQUEST.length);
    assert.deepEqual(m.bodySegments, [{ bodyOffset: 0, streamOffset: len(HEAD), length: len(BODY) }]);
  });

  it("gives the same message when split at every byte offset, and byte by byte", () => {
    for (let cut = 0; cut <= REQUEST.length; cut++) {
      const msgs = parseAll("request", chop(REQUEST, [cut]));
      assert.equal(msgs.length, 1, `cut at ${cut}`);
      const m = msgs[0]!;
      assert.equal(m.headBytes, len(HEAD), `cut at ${cut}`);
      assert.equal(m.body.toString(), BODY, `cut at ${cut}`);
      assert.equal(m.headers.length, 3, `cut at ${cut}`);
    }
    const bytewise = parseAll("request", chop(REQUEST, [...Array(REQUEST.length).keys()].slice(1)));
    assert.equal(bytewise.length, 1);
    assert.equal(bytewise[0]!.headBytes, len(HEAD));
    assert.equal(bytewise[0]!.body.toString(), BODY);
  });

  it("returns each message from the push that completes it", () => {
    const p = new Http1StreamParser("request");
    assert.deepEqual(p.push(REQUEST.subarray(0, 10)), []);
    assert.equal(p.push(REQUEST.subarray(10, REQUEST.length - 1)).length, 0);
    assert.equal(p.push(REQUEST.subarray(REQUEST.length - 1)).length, 1);
    assert.deepEqual(p.end(), []);
  });

  it("parses keep-alive requests back to back, a GET without body between", () => {
    const get = "GET /mcp HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n";
    const wire = b(HEAD + BODY + get + HEAD + BODY);
    const msgs = parseAll("request", [wire]);
    assert.deepEqual(
      msgs.map((m) => [m.method, m.headBytes, m.bodyBytes, m.startOffset]),
      [
        ["POST", len(HEAD), len(BODY), 0],
        ["GET", len(get), 0, len(HEAD + BODY)],
        ["POST", len(HEAD), len(BODY), len(HEAD + BODY + get)],
      ],
    );
  });

  it("parses a chunked request body with extensions and trailers", () => {
    const c = chunked(
      [
        { data: '{"jsonrpc":"2.0",', ext: ";a=1" },
        { data: '"method":"x"}', ext: ' ; name="q"' },
      ],
      "X-Sum: 9\r\n",
    );
    const head = "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    const [m] = parseAll("request", [b(head + c.wire)]);
    assert.ok(m);
    assert.equal(m.chunked, true);
    assert.equal(m.body.toString(), c.body);
    assert.equal(m.framingBytes, c.framing);
    assert.equal(m.headBytes + m.bodyBytes + m.framingBytes, len(head + c.wire));
    assert.deepEqual(m.trailers, [["X-Sum", "9"]]);
    // body offset 17 is the first byte of the second chunk: after head, first size line, data, CRLF, second size line
    const second = len(head) + len(`11;a=1\r\n`) + 17 + 2 + len(`d ; name="q"\r\n`);
    assert.equal(bodyToStreamOffset(m.bodySegments, 17), second);
  });

  it("counts empty lines before a request line in that request's head", () => {
    const [a, c] = parseAll("request", [b(HEAD + BODY + "\r\n" + HEAD + BODY)]);
    assert.equal(a!.headBytes, len(HEAD));
    assert.equal(c!.headBytes, 2 + len(HEAD));
  });

  it("accepts bare LF line ends, counting the bytes as sent", () => {
    const head = "GET / HTTP/1.1\nHost: h\n\n";
    const [m] = parseAll("request", [b(head)]);
    assert.equal(m!.headBytes, len(head));
    assert.deepEqual(m!.headers, [["Host", "h"]]);
  });
});

describe("Http1StreamParser: responses", () => {
  const ok = (body: string, extra = "") => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${len(body)}\r\n\r\n${body}`;

  it("parses a chunked response with extension and trailers; framing counted to the byte", () => {
    const c = chunked([{ data: "event: message\ndata: {}\n\n", ext: ";x=y" }, { data: "data: 2\n\n" }], "Server-Timing: a;dur=1\r\nX-B: c\r\n");
    const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    const wire = b(head + c.wire);
    for (let cut = 0; cut <= wire.length; cut++) {
      const [m, ...rest] = parseAll("response", chop(wire, [cut]), ["POST"]);
      assert.equal(rest.length, 0);
      assert.equal(m!.status, 200);
      assert.equal(m!.headBytes, len(head));
      assert.equal(m!.bodyBytes, len(c.body));
      assert.equal(m!.framingBytes, c.framing);
      assert.equal(m!.body.toString(), c.body);
      assert.deepEqual(m!.trailers, [
        ["Server-Timing", "a;dur=1"],
        ["X-B", "c"],
      ]);
    }
  });

  it("has no body for 1xx, 204, 304 and a response to HEAD, whatever Content-Length says", () => {
    const cont = "HTTP/1.1 100 Continue\r\n\r\n";
    const r200 = ok('{"a":1}');
    const r204 = "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n";
    const r304 = 'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 100\r\n\r\n';
    const head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 123\r\n\r\n";
    const after = ok("{}");
    const msgs = parseAll("response", [b(cont + r200 + r204 + r304 + head + after)], ["POST", "DELETE", "GET", "HEAD", "GET"]);
    assert.deepEqual(
      msgs.map((m) => [m.status, m.headBytes, m.bodyBytes]),
      [
        [100, len(cont), 0],
        [200, len(r200) - 7, 7],
        [204, len(r204), 0],
        [304, len(r304), 0],
        [200, len(head), 0],
        [200, len(after) - 2, 2],
      ],
    );
  });

  it("parses 202 with Content-Length 0, 202 with a body, and 202 without length (delimited by close)", () => {
    const a = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
    const withBody = "HTTP/1.1 202 Accepted\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nAccepted";
    const closing = "HTTP/1.1 202 Accepted\r\nConnection: close\r\n\r\n";
    const msgs = parseAll("response", chop(b(a + withBody + closing), [len(a) + 3, len(a + withBody) + 1]), ["POST", "POST", "POST"]);
    assert.deepEqual(
      msgs.map((m) => [m.status, m.headBytes, m.bodyBytes, m.closeDelimited]),
      [
        [202, len(a), 0, false],
        [202, len(withBody) - 8, 8, false],
        [202, len(closing), 0, true],
      ],
    );
  });

  it("ends a body without length at end of stream, across chunks", () => {
    const head = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n";
    const p = new Http1StreamParser("response");
    assert.deepEqual(p.push(b(head + "hello ")), []);
    assert.deepEqual(p.push(b("world")), []);
    const [m] = p.end();
    assert.equal(m!.body.toString(), "hello world");
    assert.equal(m!.headBytes, len(head));
    assert.equal(m!.closeDelimited, true);
    assert.equal(m!.version, "HTTP/1.0");
  });

  it("exposes the head and body received so far of a still-open message", () => {
    const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    const ev = "data: 1\n\n";
    const p = new Http1StreamParser("response");
    assert.equal(p.partial, undefined);
    p.push(b(head.slice(0, 20)));
    assert.deepEqual((({ head, headBytes, bodyBytes, framingBytes }) => ({ head, headBytes, bodyBytes, framingBytes }))(p.partial!), {
      head: undefined,
      headBytes: 20,
      bodyBytes: 0,
      framingBytes: 0,
    });
    p.push(b(head.slice(20) + `${len(ev).toString(16)}\r\n${ev}\r\n`));
    let part = p.partial!;
    assert.equal(part.head?.status, 200);
    assert.equal(part.headBytes, len(head));
    assert.equal(part.body.toString(), ev);
    assert.equal(part.framingBytes, 5);
    p.push(b("1")); // half a chunk-size line is framing received so far
    part = p.partial!;
    assert.equal(part.framingBytes, 6);
    assert.equal(part.headBytes + part.bodyBytes + part.framingBytes, p.receivedBytes);
  });

  it("gives partial bodies asked after every chunk that stay the prefix they were, and the same body at the end", () => {
    const body = Buffer.from(Array.from({ length: 3000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(""));
    const wire = Buffer.concat([b(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
    for (const step of [1, 7, 256]) {
      const p = new Http1StreamParser("response");
      const seen: Buffer[] = [];
      const done: HttpMessage[] = [];
      for (let i = 0; i < wire.length; i += step) {
        p.push(wire.subarray(i, i + step), done);
        const part = p.partial;
        if (part) seen.push(part.body);
      }
      assert.equal(done.length, 1);
      assert.ok(done[0]!.body.equals(body), `step ${step}: the final body`);
      for (const s of seen) assert.ok(s.equals(body.subarray(0, s.length)), `step ${step}: a partial body of ${s.length} bytes is still the prefix`);
    }
  });

  it("does not let an interim response use up a queued HEAD", () => {
    const msgs = parseAll(
      "response",
      [b("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n" + ok("{}"))],
      ["HEAD", "GET"],
    );
    assert.deepEqual(
      msgs.map((m) => [m.status, m.bodyBytes]),
      [
        [103, 0],
        [200, 0],
        [200, 2],
      ],
    );
  });

  it("finds headers case-insensitively", () => {
    const [m] = parseAll("response", [b(ok("{}", "MCP-Session-Id: abc\r\n"))]);
    assert.equal(headerValue(m!, "mcp-session-id"), "abc");
    assert.equal(headerValue(m!, "x-missing"), undefined);
  });
});

describe("Http1StreamParser: malformed streams", () => {
  const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

  it("names label, offset and expectation for a bad chunk-size line", () => {
    const p = new Http1StreamParser("response", "conn 2 s2c");
    const e = errorOf(() => p.push(b(head + "5\r\nhello\r\nzz\r\n")));
    const at = len(head) + len("5\r\nhello\r\n");
    assert.equal(e.message, `conn 2 s2c at byte ${at}: expected chunk-size line (hex digits then CRLF), got "zz\\r\\n"`);
    assert.equal(e.offset, at);
    assert.equal(e.label, "conn 2 s2c");
  });

  it("fails at the first byte that cannot start a chunk-size line, before its line end arrives", () => {
    const p = new Http1StreamParser("response", "conn 3 s2c");
    const e = errorOf(() => p.push(b(head + "q")));
    assert.equal(e.message, `conn 3 s2c at byte ${len(head)}: expected chunk-size line (hex digits then CRLF), got "q"`);
  });

  it("wants CRLF after chunk data", () => {
    const e = errorOf(() => new Http1StreamParser("response", "conn 1 s2c").push(b(head + "3\r\nabcX\r\n")));
    assert.equal(e.message, `conn 1 s2c at byte ${len(head) + 6}: expected CRLF after the 3-byte chunk that starts at byte ${len(head)}, got "X\\r\\n"`);
  });

  it("rejects a bad status line and a bad request line", () => {
    assert.equal(
      errorOf(() => new Http1StreamParser("response", "conn 4 s2c").push(b("HTTP/1.1 2OO OK\r\n"))).message,
      'conn 4 s2c at byte 0: expected status line (HTTP/1.1 SP 3-digit status), got "HTTP/1.1 2OO OK\\r\\n"',
    );
    assert.equal(
      errorOf(() => new Http1StreamParser("request", "conn 4 c2s").push(b(HEAD + BODY + "{}\r\n"))).message,
      `conn 4 c2s at byte ${len(HEAD + BODY)}: expected request line (METHOD SP target SP HTTP/1.1), got "{}\\r\\n"`,
    );
  });

  it("rejects a header line without a colon, and obsolete folding", () => {
    assert.equal(
      errorOf(() => new Http1StreamParser("request", "c").push(b("GET / HTTP/1.1\r\nHost h\r\n\r\n"))).message,
      'c at byte 16: expected header line (name: value), got "Host h\\r\\n\\r\\n"',
    );
    assert.match(
      errorOf(() => new Http1StreamParser("request", "c").push(b("GET / HTTP/1.1\r\nA: 1\r\n  2\r\n\r\n"))).message,
      /^c at byte 22: expected header line \(name: value\); obsolete line folding/,
    );
  });

  it("rejects conflicting Content-Length values", () => {
    assert.equal(
      errorOf(() => new Http1StreamParser("request", "c").push(b("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"))).message,
      'c at byte 0: expected one decimal Content-Length, got "3, 4"',
    );
  });

  it("throws at end of stream inside a head, a Content-Length body, or a chunk", () => {
    const p1 = new Http1StreamParser("request", "conn 5 c2s");
    p1.push(REQUEST.subarray(0, 30));
    assert.equal(errorOf(() => p1.end()).message, "conn 5 c2s at byte 30: expected more header lines and a blank line to end the head, got end of stream");
    const p2 = new Http1StreamParser("request", "conn 5 c2s");
    p2.push(REQUEST.subarray(0, REQUEST.length - 4));
    assert.equal(errorOf(() => p2.end()).message, `conn 5 c2s at byte ${REQUEST.length - 4}: expected 4 more body bytes (Content-Length), got end of stream`);
    const p3 = new Http1StreamParser("response", "conn 5 s2c");
    p3.push(b(head + "a\r\n12345"));
    assert.equal(
      errorOf(() => p3.end()).message,
      `conn 5 s2c at byte ${len(head) + 8}: expected 5 more bytes of the 10-byte chunk that starts at byte ${len(head)}, got end of stream`,
    );
  });

  it("refuses 101 Switching Protocols", () => {
    assert.equal(
      errorOf(() => new Http1StreamParser("response", "c").push(b("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"))).message,
      "c at byte 0: 101 Switching Protocols: the bytes after it are not HTTP/1.1, which wirecost does not count",
    );
  });

  it("names stray bytes at the end of a stream at their first byte, not at the end", () => {
    const p = new Http1StreamParser("response", "c");
    const res = "HTTP/1.1 204 No Content\r\n\r\n"; // 27 bytes
    assert.equal(p.push(b(`${res}HTTP/1.1 2`)).length, 1);
    assert.equal(errorOf(() => p.end()).message, 'c at byte 27: expected a complete status line (HTTP/1.1 SP 3-digit status), got "HTTP/1.1 2"');
    assert.equal(p.failure, "ended-in-head");
    assert.equal(p.startLineComplete, false);
  });

  it("keeps the messages completed before a fault, and says why and where it stopped", () => {
    const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"; // 47 bytes
    const p = new Http1StreamParser("response", "c");
    const out: HttpMessage[] = [];
    assert.ok(errorOf(() => p.push(b(`HTTP/1.1 204 No Content\r\n\r\n${head}5\r\nhello\r\nzz\r\n`), out)));
    assert.deepEqual(
      out.map((m) => m.status),
      [204],
    );
    assert.equal(p.failure, "malformed");
    const { message, unreadFrom } = p.stopped();
    assert.equal(unreadFrom, 27 + 47 + 10);
    assert.deepEqual([message?.startOffset, message?.headBytes, message?.bodyBytes, message?.framingBytes, message?.body.toString()], [27, 47, 5, 5, "hello"]);
    // Chunk data not followed by CRLF at its declared size.
    const q = new Http1StreamParser("response", "c");
    errorOf(() => q.push(b(`${head}4\r\nhello\r\n`)));
    assert.equal(q.failure, "chunk-length");
    assert.equal(q.stopped().unreadFrom, 47 + 3 + 4);
    // A head not complete: unreadable from its first byte.
    const r = new Http1StreamParser("request", "c");
    errorOf(() => r.push(b("POST / HTTP/1.1\r\nHost h\r\n\r\n")));
    assert.deepEqual(r.stopped(), { unreadFrom: 0 });
    const s = new Http1StreamParser("response", "c");
    errorOf(() => s.push(b("HTTP/1.1 101 Switching Protocols\r\n\r\nxyz")));
    assert.equal(s.failure, "switch");
    assert.equal(s.stopped().unreadFrom, 36);
  });

  it("asks answerWith which request each final response answers, at its first byte", () => {
    const p = new Http1StreamParser("response", "c");
    const asked: number[] = [];
    p.answerWith((offset) => {
      asked.push(offset);
      return asked.length === 1 ? "HEAD" : "";
    });
    // The answer to HEAD has no body whatever its Content-Length; a 100 Continue is not asked about.
    const r1 = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"; // 38 bytes
    const cont = "HTTP/1.1 100 Continue\r\n\r\n"; // 25 bytes
    const r2 = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    const out = p.push(b(r1 + cont + r2));
    assert.deepEqual(
      out.map((m) => [m.status, m.bodyBytes]),
      [
        [200, 0],
        [100, 0],
        [200, 5],
      ],
    );
    assert.deepEqual(asked, [0, 38 + 25]);
    assert.throws(() => new Http1StreamParser("request").answerWith(() => ""), /response parser/);
  });
});
