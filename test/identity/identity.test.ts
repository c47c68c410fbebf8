/**
 * Identity of repeats on hand-built logs: each test varies known fields between repeats and
 * checks that exactly those are named (and nothing when the bytes only differ in chunking).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareRepeats } from "../../runner/results/identity.js";
import { LogBuilder, chunked, len, sseEvent } from "../count/helpers.js";

const REQ = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.x/clientInfo":{"name":"c"}}}}';

/** One POST + response exchange on conn 1; `o` varies the pieces. */
function exchange(o: {
  date?: string;
  session?: string;
  host?: string;
  body?: string;
  framing?: "cl" | "chunked" | "chunked2";
  sse?: { id?: string; data: string };
}): LogBuilder {
  const reqBody = REQ;
  const req = `POST /mcp HTTP/1.1\r\nHost: ${o.host ?? "127.0.0.1:4000"}\r\nContent-Type: application/json\r\nContent-Length: ${len(reqBody)}\r\n\r\n${reqBody}`;
  const body = o.body ?? '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"_meta":{"t":1}}}';
  const sse = o.sse ? sseEvent([o.sse.data], o.sse.id ? `id: ${o.sse.id}\n` : "") : undefined;
  const payload = sse ?? body;
  const type = sse ? "text/event-stream" : "application/json";
  const extra = [`Date: ${o.date ?? "Mon, 01 Jan 2026 00:00:00 GMT"}`, ...(o.session ? [`mcp-session-id: ${o.session}`] : [])];
  let framing: string;
  let wireBody: string;
  if (o.framing === "chunked" || o.framing === "chunked2") {
    const half = o.framing === "chunked" ? Math.floor(payload.length / 2) : 3;
    const c = chunked([{ data: payload.slice(0, half) }, { data: payload.slice(half) }]);
    framing = "Transfer-Encoding: chunked";
    wireBody = c.wire;
  } else {
    framing = `Content-Length: ${len(payload)}`;
    wireBody = payload;
  }
  const res = [`HTTP/1.1 200 OK`, `Content-Type: ${type}`, ...extra, framing].join("\r\n") + "\r\n\r\n" + wireBody;
  return new LogBuilder().send(1, "c2s", req).send(1, "s2c", res).close(1);
}

test("identity: identical repeats are bytes-identical and name nothing", () => {
  const r = compareRepeats([exchange({}).records, exchange({}).records, exchange({}).records], "http");
  assert.equal(r.bytesIdentical, true);
  assert.equal(r.repeats, 3);
  assert.deepEqual(r.varyingFields, []);
  assert.equal(new Set(r.digests).size, 1);
});

test("identity: the same bytes chunked differently in the log are identical", () => {
  const a = exchange({});
  const whole = Buffer.concat(a.records.filter((x) => x.b64).map((x) => Buffer.from(x.b64!, "base64")));
  assert.ok(whole.length > 0);
  const b = new LogBuilder();
  for (const rec of a.records) {
    if (rec.eof) b.eof(rec.conn, rec.dir);
    else {
      const bytes = Buffer.from(rec.b64!, "base64");
      b.send(rec.conn, rec.dir, bytes.subarray(0, 5), bytes.subarray(5, 9), bytes.subarray(9));
    }
  }
  assert.deepEqual(compareRepeats([a.records, b.records], "http").varyingFields, []);
});

test("identity: date, session id and host headers are named by lower-case name", () => {
  const r = compareRepeats(
    [
      exchange({ session: "aaa" }).records,
      exchange({ date: "Mon, 01 Jan 2026 00:00:01 GMT", session: "bbb" }).records,
      exchange({ session: "ccc", host: "127.0.0.1:4001" }).records,
    ],
    "http",
  );
  assert.equal(r.bytesIdentical, false);
  assert.deepEqual(r.varyingFields, ["date", "host", "mcp-session-id"]);
});

test("identity: a header present in one repeat only is named", () => {
  const r = compareRepeats([exchange({}).records, exchange({ session: "x" }).records], "http");
  assert.deepEqual(r.varyingFields, ["mcp-session-id"]);
});

test("identity: JSON paths inside bodies are named; key order alone is json formatting", () => {
  const r = compareRepeats(
    [exchange({}).records, exchange({ body: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ho"}],"_meta":{"t":2}}}' }).records],
    "http",
  );
  // content-length is equal (same lengths), so only the two paths vary.
  assert.deepEqual(r.varyingFields, ["result._meta.t", "result.content[0].text"]);
  const f = compareRepeats(
    [exchange({}).records, exchange({ body: '{"id":1,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"hi"}],"_meta":{"t":1}}}' }).records],
    "http",
  );
  assert.deepEqual(f.varyingFields, ["json formatting"]);
});

test("identity: a key that is not an identifier is quoted; a longer body also names content-length", () => {
  const r = compareRepeats(
    [
      exchange({ body: '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.x/state":"a"}}}' }).records,
      exchange({ body: '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.x/state":"abc"}}}' }).records,
    ],
    "http",
  );
  assert.deepEqual(r.varyingFields, ["content-length", 'result._meta["io.x/state"]']);
});

test("identity: content-length vs chunked is a framing difference, not header noise", () => {
  const r = compareRepeats([exchange({}).records, exchange({ framing: "chunked" }).records], "http");
  assert.deepEqual(r.varyingFields, ["framing: content-length vs chunked"]);
  const s = compareRepeats([exchange({ framing: "chunked" }).records, exchange({ framing: "chunked2" }).records], "http");
  assert.deepEqual(s.varyingFields, ["framing: chunk sizes"]);
});

test("identity: SSE event id and data paths are named", () => {
  const r = compareRepeats(
    [
      exchange({ sse: { id: "1", data: '{"jsonrpc":"2.0","id":1,"result":{"x":1}}' } }).records,
      exchange({ sse: { id: "2", data: '{"jsonrpc":"2.0","id":1,"result":{"x":2}}' } }).records,
    ],
    "http",
  );
  assert.deepEqual(r.varyingFields, ["result.x", "sse id"]);
});

test("identity: a different number of connections or messages is named", () => {
  const one = exchange({});
  const two = exchange({});
  two.send(2, "c2s", "GET / HTTP/1.1\r\nHost: h\r\n\r\n").send(2, "s2c", "HTTP/1.1 204 No Content\r\n\r\n").close(2);
  assert.deepEqual(compareRepeats([one.records, two.records], "http").varyingFields, ["connections", "http messages"]);
});

test("identity: the same exchanges spread over connections differently name only connections", () => {
  const get = (n: number) => `GET /${n} HTTP/1.1\r\nHost: h\r\n\r\n`;
  const ok = (n: number) => `HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n${n}`;
  // Four exchanges in the same order; repeat 1 alternates connections, repeat 2 does not.
  const log = (conns: number[]) => {
    const b = new LogBuilder();
    conns.forEach((c, n) => b.send(c, "c2s", get(n)).send(c, "s2c", ok(n)));
    return b.close(1).close(2).records;
  };
  const r = compareRepeats([log([1, 2, 1, 2]), log([1, 1, 2, 2]), log([1, 2, 1, 2])], "http");
  assert.equal(r.bytesIdentical, false);
  assert.deepEqual(r.varyingFields, ["connections"]);
});

test("identity: stdio lines name the JSON path; a partial line is named", () => {
  const log = (id: string, partial = "") =>
    new LogBuilder()
      .send(undefined, "c2s", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"${id}"}}}\n`)
      .send(undefined, "s2c", '{"jsonrpc":"2.0","id":1,"result":{}}\n' + partial).records;
  const r = compareRepeats([log("a"), log("b", "{")], "stdio");
  assert.deepEqual(r.varyingFields, ["params.clientInfo.name", "stdio partial line"]);
  assert.deepEqual(compareRepeats([log("a"), log("a")], "stdio").varyingFields, []);
});

/** Exchanges `POST /mcp` → 200 JSON, one per [conn, id, method, result] entry, in that order. */
function exchanges(list: [conn: number, id: number, method?: string, ok?: number][], o: { date?: string; typeHeader?: string } = {}): LogBuilder {
  const log = new LogBuilder();
  for (const [conn, id, method = "tools/call", ok = 1] of list) {
    const req = `{"jsonrpc":"2.0","id":${id},"method":"${method}"}`;
    const res = `{"jsonrpc":"2.0","id":${id},"result":{"ok":${ok}}}`;
    log.send(conn, "c2s", `POST /mcp HTTP/1.1\r\nHost: h\r\n${o.typeHeader ?? "Content-Type"}: application/json\r\nContent-Length: ${len(req)}\r\n\r\n${req}`);
    log.send(
      conn,
      "s2c",
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: ${o.date ?? "Mon, 01 Jan 2026 00:00:00 GMT"}\r\nContent-Length: ${len(res)}\r\n\r\n${res}`,
    );
  }
  return log;
}

test("identity: each difference between aligned exchanges is named once, by what differs", () => {
  const names = (a: LogBuilder, b: LogBuilder) => compareRepeats([a.records, b.records], "http").varyingFields;
  const base = exchanges([
    [1, 1],
    [1, 2],
  ]);
  // The same JSON path differing in two messages names that path only (no "json formatting").
  assert.deepEqual(
    names(
      base,
      exchanges([
        [1, 1, undefined, 2],
        [1, 2, undefined, 2],
      ]),
    ),
    ["result.ok"],
  );
  // Another id, or another method, names that member, not the alignment.
  assert.deepEqual(
    names(
      base,
      exchanges([
        [1, 1],
        [1, 3],
      ]),
    ),
    ["id"],
  );
  assert.deepEqual(
    names(
      base,
      exchanges([
        [1, 1, "tools/list"],
        [1, 2],
      ]),
    ),
    ["method"],
  );
  // Head bytes that differ only in a header name's case.
  assert.deepEqual(
    names(
      base,
      exchanges(
        [
          [1, 1],
          [1, 2],
        ],
        { typeHeader: "content-type" },
      ),
    ),
    ["header formatting"],
  );
  // The same exchanges in another order on one connection, or spread over connections otherwise.
  assert.deepEqual(
    names(
      base,
      exchanges([
        [1, 2],
        [1, 1],
      ]),
    ),
    ["exchange order"],
  );
  assert.deepEqual(
    names(
      exchanges([
        [1, 1],
        [1, 2],
        [2, 3],
        [2, 4],
      ]),
      exchanges([
        [1, 1],
        [1, 3],
        [2, 2],
        [2, 4],
      ]),
    ),
    ["connections"],
  );
  // A connection that carried no bytes is left out, as the stream digest leaves it out.
  const unused = exchanges(
    [
      [1, 1],
      [1, 2],
    ],
    { date: "Tue, 02 Jan 2026 00:00:00 GMT" },
  )
    .eof(2, "c2s")
    .eof(2, "s2c");
  assert.deepEqual(names(base, unused), ["date"]);
});
