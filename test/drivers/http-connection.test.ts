/**
 * The raw driver's connection over real sockets: once the caller has its answer (the JSON-RPC
 * response's SSE event), a stream that ends within STREAM_END_GRACE_MS comes back complete and
 * the connection is reused; a stream left open comes back incomplete after the grace, its
 * connection is closed, and the next request goes on a new one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { HttpConnection, STREAM_END_GRACE_MS } from "../../runner/drivers/http-connection.js";
import { parseSseEvents } from "../../runner/wire/sse.js";

const HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
const EVENT = chunk('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
const REQUEST = Buffer.from("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");

/** A server answering each request (one per `{}`) with `answer(socket, n)`; counts connections and their closes. */
async function server(answer: (s: Socket, n: number) => void): Promise<{ srv: Server; port: number; conns: () => number; closed: () => number }> {
  let conns = 0;
  let closed = 0;
  let n = 0;
  const srv = createServer((s) => {
    conns++;
    s.on("data", (d: Buffer) => {
      for (let i = d.indexOf("{}"); i >= 0; i = d.indexOf("{}", i + 2)) answer(s, n++);
    });
    s.on("close", () => closed++);
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  return { srv, port: (srv.address() as { port: number }).port, conns: () => conns, closed: () => closed };
}

const answered = (p: { body: Buffer }) => parseSseEvents(p.body).length > 0;

test("a stream that ends soon after its answer comes back complete, on one kept connection", async () => {
  const s = await server((sock) => {
    sock.write(HEAD + EVENT);
    setTimeout(() => sock.write("0\r\n\r\n"), 50);
  });
  const conn = new HttpConnection(s.port);
  try {
    for (let i = 0; i < 3; i++) {
      const r = await conn.request(REQUEST, "POST", 5000, answered);
      assert.equal(r.complete, true);
      assert.equal(parseSseEvents(r.body).length, 1);
    }
    assert.equal(s.conns(), 1);
  } finally {
    conn.close();
    s.srv.close();
  }
});

test("a stream left open comes back incomplete after the grace; the next request goes on a new connection", async () => {
  const s = await server((sock) => {
    sock.write(HEAD + EVENT);
    const ping = setInterval(() => sock.write(chunk(": ping\n\n")), 100);
    sock.on("close", () => clearInterval(ping));
  });
  const conn = new HttpConnection(s.port);
  try {
    for (let i = 0; i < 2; i++) {
      const t0 = Date.now();
      const r = await conn.request(REQUEST, "POST", 10_000, answered);
      const took = Date.now() - t0;
      assert.equal(r.complete, false);
      assert.equal(r.status, 200);
      assert.equal(parseSseEvents(r.body).length, 1);
      assert.ok(took >= STREAM_END_GRACE_MS - 20 && took < STREAM_END_GRACE_MS + 1000, `took ${took} ms`);
    }
    assert.equal(s.conns(), 2, "the open stream occupied its connection");
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(s.closed() >= 1, "the client closed the connection it left");
  } finally {
    conn.close();
    s.srv.close();
  }
});

test("without an answer, a stream that stays open is still waited for until the timeout", async () => {
  const s = await server((sock) => sock.write(HEAD + chunk(": no answer yet\n\n")));
  const conn = new HttpConnection(s.port);
  try {
    await assert.rejects(conn.request(REQUEST, "POST", 300, answered), /no complete HTTP response within 300 ms/);
  } finally {
    conn.close();
    s.srv.close();
  }
});

test("a keep-alive connection the server closed while this process was busy is not written to: the next request goes on a new connection", async () => {
  // The server in its own process (this one's event loop is about to be blocked), closing idle
  // keep-alive connections after 300 ms, as Node's http server and uvicorn do after 5 s.
  const { spawn } = await import("node:child_process");
  const code = `const s = require("node:http").createServer((q, r) => { q.resume(); q.on("end", () => r.end("{}")); });
s.keepAliveTimeout = 300; let n = 0; s.on("connection", () => console.error("conn " + ++n));
s.listen(0, "127.0.0.1", () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  let conns = 0;
  child.stderr.on("data", (d: Buffer) => (conns += (d.toString().match(/conn \d+/g) ?? []).length));
  try {
    const port = await new Promise<number>((res) => child.stdout.once("data", (d: Buffer) => res(Number(d.toString().trim()))));
    const conn = new HttpConnection(port);
    const first = await conn.request(REQUEST, "POST", 5000);
    assert.equal(first.complete, true);
    // Busy past the server's idle timeout: its FIN arrives and waits unread.
    const until = Date.now() + 1500;
    while (Date.now() < until);
    const second = await conn.request(REQUEST, "POST", 5000);
    assert.equal(second.complete, true);
    assert.equal(second.body.toString(), "{}");
    conn.close();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(conns, 2, "a new connection for the second request");
  } finally {
    child.kill();
  }
});
