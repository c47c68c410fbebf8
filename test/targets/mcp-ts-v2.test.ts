/**
 * Integration tests for the mcp-ts-v2 target: the compiled server is started
 * with plain `node` and driven with hand-written JSON-RPC lines (stdio) and
 * hand-written HTTP/1.1 requests on raw sockets (HTTP), for revisions
 * 2025-11-25 and 2026-07-28.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import type { ResultPromise } from "execa";

/** dist/test/targets/ → dist/targets/mcp-ts-v2/server.js */
const SERVER = fileURLToPath(new URL("../../targets/mcp-ts-v2/server.js", import.meta.url));
const STEP_TIMEOUT_MS = 5000;

type Json = Record<string, unknown>;
type Server = ResultPromise<{ stdin: "pipe"; stdout: "pipe"; stderr: "pipe"; buffer: false; reject: false }>;

const running = new Set<Server>();
after(() => {
  for (const server of running) server.kill("SIGKILL");
});

function start(args: string[], env: Record<string, string> = {}): Server {
  const server: Server = execa("node", [SERVER, ...args], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    env: { ...process.env, ...env },
  });
  running.add(server);
  void server.finally(() => running.delete(server));
  return server;
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Reads newline-delimited JSON-RPC messages from a stdio server, one at a time, strictly in order. */
class LineReader {
  private buffer = "";
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;

  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
      }
      this.waiter?.();
    });
  }

  async next(): Promise<Json> {
    while (this.lines.length === 0) {
      await withTimeout(new Promise<void>((resolve) => (this.waiter = resolve)), "a stdout line");
    }
    return JSON.parse(this.lines.shift() ?? "") as Json;
  }
}

/** A stdio session: write one line, read one line — never more than one request in flight. */
class StdioSession {
  readonly reader: LineReader;
  constructor(readonly server: Server) {
    this.reader = new LineReader(server.stdout);
  }
  send(message: Json): void {
    this.server.stdin.write(`${JSON.stringify(message)}\n`);
  }
  async request(message: Json): Promise<Json> {
    this.send(message);
    return this.reader.next();
  }
}

function envelope(capabilities: Json = {}): Json {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "wirecost-test", version: "0.1.0" },
  };
}

function resultOf(message: Json): Json {
  assert.equal(message["error"], undefined, `unexpected error: ${JSON.stringify(message)}`);
  const result = message["result"];
  assert.ok(result !== null && typeof result === "object", `no result in ${JSON.stringify(message)}`);
  return result as Json;
}

function toolNames(result: Json): string[] {
  return (result["tools"] as Json[]).map((tool) => String(tool["name"]));
}

function textOf(result: Json): string {
  const content = result["content"] as Json[];
  assert.equal(content.length, 1);
  assert.equal(content[0]?.["type"], "text");
  return String(content[0]?.["text"]);
}

/** A parsed HTTP/1.1 response. */
interface HttpResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Parses one complete response from `data`, or returns undefined if its framing is not complete yet. */
function parseResponse(data: Buffer): HttpResponse | undefined {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const [statusLine = "", ...headerLines] = data.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let rest = data.subarray(headEnd + 4);
  const length = headers.get("content-length");
  if (length !== undefined) {
    return rest.length < Number(length) ? undefined : { status, headers, body: rest.subarray(0, Number(length)).toString("utf8") };
  }
  if (headers.get("transfer-encoding") !== "chunked") throw new Error(`unframed response: ${statusLine}`);
  const chunks: Buffer[] = [];
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    if (lineEnd < 0) return undefined;
    const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
    if (rest.length < lineEnd + 2 + size + 2) return undefined;
    if (size === 0) return { status, headers, body: Buffer.concat(chunks).toString("utf8") };
    chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}

/**
 * Writes one hand-built request on a fresh connection and resolves with the
 * response once its framing is complete (an SSE response keeps the socket open
 * past its last chunk, so the connection is never waited out). `onData` sees
 * every byte received so far, for exchanges that must act mid-response.
 */
function httpExchange(port: number, head: string[], body: string, onData?: (received: string) => void): Promise<HttpResponse> {
  const request = `${[...head, `Host: 127.0.0.1:${port}`, `Content-Length: ${Buffer.byteLength(body)}`].join("\r\n")}\r\n\r\n${body}`;
  return withTimeout(
    new Promise<HttpResponse>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let received = Buffer.alloc(0);
      socket.on("data", (chunk) => {
        received = Buffer.concat([received, chunk]);
        onData?.(received.toString("utf8"));
        try {
          const response = parseResponse(received);
          if (response !== undefined) {
            socket.destroy();
            resolve(response);
          }
        } catch (error) {
          socket.destroy();
          reject(error);
        }
      });
      socket.on("error", reject);
      socket.write(request);
    }),
    `a response to ${head[0] ?? ""}`,
  );
}

/** The JSON-RPC messages carried by an SSE body (one per `data:` line). */
function sseMessages(body: string): Json[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as Json);
}

async function startHttp(env: Record<string, string> = {}): Promise<{ server: Server; port: number }> {
  const server = start(["--transport", "http", "--port", "0"], env);
  server.stderr.setEncoding("utf8");
  let stderr = "";
  const port = await withTimeout(
    new Promise<number>((resolve, reject) => {
      server.stderr.on("data", (chunk: string) => {
        stderr += chunk;
        const match = /listening on 127\.0\.0\.1:(\d+)\n/.exec(stderr);
        if (match?.[1] !== undefined) resolve(Number(match[1]));
      });
      void server.then((result) => reject(new Error(`server exited early (${String(result.exitCode)}): ${stderr}`)));
    }),
    "the listening line",
  );
  return { server, port };
}

const POST = ["POST /mcp HTTP/1.1", "Content-Type: application/json", "Accept: application/json, text/event-stream"];

function modernHeaders(method: string, name?: string): string[] {
  return [...POST, "MCP-Protocol-Version: 2026-07-28", `Mcp-Method: ${method}`, ...(name === undefined ? [] : [`Mcp-Name: ${name}`])];
}

describe("mcp-ts-v2 target over stdio", () => {
  test("2025-11-25: initialize, initialized, tools/list, echo, add, confirm via elicitation/create", async () => {
    const server = start(["--transport", "stdio"]);
    const session = new StdioSession(server);

    const init = resultOf(
      await session.request({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: {} },
          clientInfo: { name: "wirecost-test", version: "0.1.0" },
        },
      }),
    );
    assert.equal(init["protocolVersion"], "2025-11-25");
    assert.deepEqual(init["serverInfo"], { name: "wirecost-mcp-ts-v2", version: "1.0.0" });
    session.send({ jsonrpc: "2.0", method: "notifications/initialized" });

    const list = resultOf(await session.request({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    assert.deepEqual(toolNames(list), ["echo", "add", "confirm"]);

    const echo = await session.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hello" } },
    });
    assert.equal(echo["id"], 3);
    assert.equal(textOf(resultOf(echo)), "hello");

    const add = await session.request({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } });
    assert.equal(textOf(resultOf(add)), "5");

    const elicitation = await session.request({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "confirm", arguments: {} } });
    assert.equal(elicitation["method"], "elicitation/create");
    assert.equal((elicitation["params"] as Json)["message"], "Proceed?");
    const confirmed = await session.request({
      jsonrpc: "2.0",
      id: elicitation["id"],
      result: { action: "accept", content: { confirm: true } },
    });
    assert.equal(confirmed["id"], 5);
    assert.equal(textOf(resultOf(confirmed)), "confirmed: yes");

    server.stdin.end();
    const exit = await withTimeout(server, "exit after end of stdin");
    assert.equal(exit.exitCode, 0);
  });

  test("2026-07-28: tools/list, echo and confirm via input_required, with the _meta envelope", async () => {
    const server = start(["--transport", "stdio"]);
    const session = new StdioSession(server);
    const _meta = envelope({ elicitation: {} });

    const list = resultOf(await session.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }));
    assert.deepEqual(toolNames(list), ["echo", "add", "confirm"]);
    assert.equal(list["resultType"], "complete");

    const echo = await session.request({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hello" }, _meta },
    });
    assert.equal(echo["id"], 2);
    assert.equal(textOf(resultOf(echo)), "hello");

    const first = resultOf(await session.request({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "confirm", arguments: {}, _meta } }));
    assert.equal(first["resultType"], "input_required");
    assert.equal(((first["inputRequests"] as Json)["confirm"] as Json)["method"], "elicitation/create");
    assert.equal(first["requestState"], undefined);

    const retried = await session.request({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "confirm", arguments: {}, inputResponses: { confirm: { action: "decline" } }, _meta },
    });
    assert.equal(textOf(resultOf(retried)), "confirmed: no");
    server.kill("SIGTERM");
    assert.equal((await withTimeout(server, "exit on SIGTERM")).exitCode, 0);
  });

  test("2026-07-28: WIRECOST_CATALOG and WIRECOST_STATE_BYTES", async () => {
    const server = start(["--transport", "stdio"], { WIRECOST_CATALOG: "5", WIRECOST_STATE_BYTES: "100" });
    const session = new StdioSession(server);
    const _meta = envelope({ elicitation: {} });

    const list = resultOf(await session.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }));
    assert.deepEqual(toolNames(list), ["echo", "add", "confirm", "tool_4", "tool_5"]);

    const first = resultOf(await session.request({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "confirm", arguments: {}, _meta } }));
    const requestState = first["requestState"];
    assert.equal(typeof requestState, "string");
    assert.equal(Buffer.byteLength(JSON.stringify(requestState)), 100 + 2);

    const retried = await session.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "confirm", arguments: {}, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState, _meta },
    });
    assert.equal(textOf(resultOf(retried)), "confirmed: yes");
    server.stdin.end();
    await withTimeout(server, "exit after end of stdin");
  });
});

describe("mcp-ts-v2 target over HTTP", () => {
  test("2026-07-28: tools/call echo answers 200 with a JSON body", async () => {
    const { server, port } = await startHttp();
    try {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "hello" }, _meta: envelope() },
      });
      const response = await httpExchange(port, modernHeaders("tools/call", "echo"), body);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal(response.headers.get("mcp-session-id"), undefined);
      const message = JSON.parse(response.body) as Json;
      assert.equal(message["id"], 1);
      assert.equal(textOf(resultOf(message)), "hello");

      const missingName = await httpExchange(port, modernHeaders("tools/call"), body);
      assert.equal(missingName.status, 400);
    } finally {
      server.kill("SIGTERM");
      assert.equal((await withTimeout(server, "exit on SIGTERM")).exitCode, 0);
    }
  });

  test("2025-11-25: initialize answers 200 over SSE with a session id; confirm elicits on the open stream", async () => {
    const { server, port } = await startHttp();
    try {
      const init = await httpExchange(
        port,
        POST,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: {} },
            clientInfo: { name: "wirecost-test", version: "0.1.0" },
          },
        }),
      );
      assert.equal(init.status, 200);
      assert.equal(init.headers.get("content-type"), "text/event-stream");
      const sessionId = init.headers.get("mcp-session-id");
      assert.match(sessionId ?? "", /^[0-9a-f-]{36}$/);
      const [initMessage] = sseMessages(init.body);
      assert.equal(resultOf(initMessage ?? {})["protocolVersion"], "2025-11-25");

      const headers = [...POST, "MCP-Protocol-Version: 2025-11-25", `Mcp-Session-Id: ${sessionId ?? ""}`];
      const initialized = await httpExchange(port, headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
      assert.equal(initialized.status, 202);

      // confirm: the elicitation/create arrives on this call's SSE stream; answer it on a second connection.
      let answered = false;
      const confirmBody = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","arguments":{}}}';
      const answers: Array<Promise<HttpResponse>> = [];
      const confirm = await httpExchange(port, headers, confirmBody, (received) => {
        const elicitation = sseMessages(received.slice(received.indexOf("\r\n\r\n"))).find((m) => m["method"] === "elicitation/create");
        if (elicitation === undefined || answered) return;
        answered = true;
        const answer = { jsonrpc: "2.0", id: elicitation["id"], result: { action: "accept", content: { confirm: true } } };
        answers.push(httpExchange(port, headers, JSON.stringify(answer)));
      });
      assert.equal(confirm.status, 200);
      const [answer] = await Promise.all(answers);
      assert.equal(answer?.status, 202);
      const messages = sseMessages(confirm.body);
      assert.deepEqual(
        messages.map((m) => m["method"] ?? m["id"]),
        ["elicitation/create", 2],
      );
      assert.equal(textOf(resultOf(messages[1] ?? {})), "confirmed: yes");
    } finally {
      server.kill("SIGTERM");
      await withTimeout(server, "exit on SIGTERM");
    }
  });
});

describe("mcp-ts-v2 target command line", () => {
  test("an unknown transport exits 2 with a message on stderr", async () => {
    const result = await withTimeout(execa("node", [SERVER, "--transport", "carrier-pigeon"], { reject: false }), "exit on a bad transport");
    assert.equal(result.exitCode, 2);
    assert.match(result.stderr, /unknown transport "carrier-pigeon"/);
  });
});
