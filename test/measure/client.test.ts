/**
 * The raw client over real sockets: validation still fails a run on an HTTP-200 JSON-RPC error
 * after identical valid responses were accepted without re-checking, responses split over several
 * TCP segments and chunked ones (a real node:http server) frame, and a server that closes fails the
 * outstanding exchange.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { serializePost, validateJsonRpc, type TimedRequest } from "../../runner/measure/request.js";

/** A TCP server that answers the n-th request (by count of request heads seen) with `answer(n, socket)`. */
async function scripted(answer: (n: number, s: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => {
    let n = 0;
    let seen = "";
    s.on("data", (d: Buffer) => {
      seen += d.toString("latin1");
      // Each request is one fixed POST; count completed ones by their body's closing brace.
      for (let i = seen.indexOf("}"); i >= 0; i = seen.indexOf("}")) {
        seen = seen.slice(i + 1);
        answer(n++, s);
      }
    });
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

const response = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const VALID = '{"jsonrpc":"2.0","id":1,"result":{"text":"Echo: hello"}}';
const ERROR = '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}';

/** The request the tests send, counting how often its check runs. */
function countedRequest(port: number): TimedRequest & { checks: number } {
  const req = {
    workload: "test",
    bytes: serializePost(port, "/", [], "{}"),
    checks: 0,
    validate(status: number, body: Buffer) {
      req.checks++;
      validateJsonRpc(status, body, "Echo: hello");
    },
  };
  return req;
}

test("an HTTP-200 JSON-RPC error after byte-identical valid responses still fails the exchange", async () => {
  const { server, port } = await scripted((n, s) => s.write(response(n === 5 ? ERROR : n === 3 ? VALID.replace("1,", "2,") : VALID)));
  try {
    const client = await KeepAliveClient.connect(port);
    const req = countedRequest(port);
    for (let i = 0; i < 5; i++) await client.send(req);
    assert.equal(req.checks, 3, "responses 0, 3 (a different body) and 4 (differs from 3) are checked; 1 and 2 repeat response 0");
    await assert.rejects(client.send(req), /HTTP 200 carrying JSON-RPC error -32603: boom/);
    client.close();
  } finally {
    server.close();
  }
});

test("a response written in pieces (head split mid-field, body split) and two responses in one segment frame", async () => {
  const text = response(VALID);
  const { server, port } = await scripted((n, s) => {
    if (n === 0) {
      const cuts = [0, 20, 41, text.length - 10, text.length];
      cuts.slice(1).forEach((end, i) => setTimeout(() => s.write(text.slice(cuts[i], end)), 5 * i));
    } else if (n === 1) s.write(text + text); // the second answers the request sent from the first's callback
  });
  try {
    const client = await KeepAliveClient.connect(port);
    const req = countedRequest(port);
    await client.send(req);
    await new Promise<void>((resolve, reject) => client.exchange(req, (err) => (err ? reject(err) : client.exchange(req, (e) => (e ? reject(e) : resolve())))));
    client.close();
  } finally {
    server.close();
  }
});

test("a chunked response from node:http is framed by the full parser and validated", async () => {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" }); // no Content-Length: chunked
      res.write(VALID.slice(0, 10));
      setTimeout(() => res.end(VALID.slice(10)), 2);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    const client = await KeepAliveClient.connect(port);
    const req = countedRequest(port);
    for (let i = 0; i < 3; i++) await client.send(req);
    client.close();
    assert.equal(req.checks, 1);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("a server that closes the connection fails the outstanding exchange", async () => {
  const { server, port } = await scripted((_n, s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"));
  try {
    const client = await KeepAliveClient.connect(port);
    await assert.rejects(client.send(countedRequest(port)), /server closed the connection/);
    await assert.rejects(client.send(countedRequest(port)), /server closed the connection/);
  } finally {
    server.close();
  }
});
