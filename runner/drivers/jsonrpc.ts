/**
 * Client `jsonrpc`: a plain JSON-RPC 2.0 client for servers that speak JSON-RPC but not MCP (no
 * handshake, no protocol headers, no revisions: the `revision` axis, when there is one, is ignored).
 *
 * Flows: `plain` sends one `echo` request, `ten` ten of them, ids 1…n, strictly sequential. Each
 * request's params are `{"text":"hello"}`; its answer must be a result response with the same id
 * whose `result.text` is that text. Stdio: one message per line (lines that are not the answer,
 * such as notifications, are read past). HTTP: one POST per request to the axis `path` (default
 * `/`) on one keep-alive connection, answered by a 200 whose body is the JSON response.
 */
import { JSONRPC_CLIENT } from "./declarations.js";
import type { StdioChannel } from "../capture/tap.js";
import { HttpConnection } from "./http-connection.js";
import { ProtocolError, type Driver, type DriverContext } from "./types.js";

/** Flow name → number of `echo` requests it sends. */
export const JSONRPC_FLOWS: Readonly<Record<string, number>> = { plain: 1, two: 2, ten: 10 };

/** The params of every `echo` request, and the `result.text` its answer must carry. */
export const ECHO_TEXT = "hello";

function requestCount(ctx: DriverContext): number {
  const n = JSONRPC_FLOWS[ctx.flow];
  if (n === undefined) throw new Error(`jsonrpc driver: unknown flow "${ctx.flow}" (flows: ${Object.keys(JSONRPC_FLOWS).join(", ")})`);
  return n;
}

/** Request `id` as the bytes that go on the wire (no trailing newline). */
function requestBytes(id: number): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: { text: ECHO_TEXT } }));
}

/** Parse one JSON text. @throws ProtocolError when it is not JSON */
function parse(bytes: Buffer, where: string): Record<string, unknown> {
  try {
    const v = JSON.parse(bytes.toString()) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new ProtocolError(`${where}: not a JSON object: ${bytes.toString().slice(0, 120)}`);
}

/** @throws ProtocolError when `m` is not the echo answer to request `id` */
function checkAnswer(m: Record<string, unknown>, id: number): void {
  const text = (m["result"] as { text?: unknown } | undefined)?.text;
  if (m["jsonrpc"] !== "2.0" || text !== ECHO_TEXT) {
    throw new ProtocolError(`echo #${id}: expected a result with text ${JSON.stringify(ECHO_TEXT)}, got ${JSON.stringify(m).slice(0, 200)}`);
  }
}

/** The plain JSON-RPC driver (protocol `jsonrpc`). */
export const jsonRpcDriver: Driver = {
  protocol: "jsonrpc",
  flows: JSONRPC_CLIENT.flows,
  revisions: [],
  async stdio(channel: StdioChannel, ctx) {
    const n = requestCount(ctx);
    for (let id = 1; id <= n; id++) {
      channel.send(Buffer.concat([requestBytes(id), Buffer.from("\n")]));
      for (;;) {
        const m = parse(await channel.readLine(ctx.timeoutMs), "stdout line");
        if (m["id"] !== id || m["method"] !== undefined) continue;
        checkAnswer(m, id);
        break;
      }
    }
  },
  async http(port, ctx) {
    const n = requestCount(ctx);
    const path = ctx.values.path ?? "/";
    const conn = new HttpConnection(port);
    try {
      for (let id = 1; id <= n; id++) {
        const body = requestBytes(id);
        const head = [
          `POST ${path} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/json",
          "Accept: application/json",
          `Content-Length: ${body.length}`,
        ];
        const res = await conn.request(Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n"), body]), "POST", ctx.timeoutMs);
        if (res.status !== 200) throw new ProtocolError(`echo #${id}: HTTP ${res.status ?? "?"} ${res.body.toString().slice(0, 200)}`);
        const m = parse(res.body, `echo #${id}: response body`);
        if (m["id"] !== id) throw new ProtocolError(`echo #${id}: the response has id ${JSON.stringify(m["id"])}`);
        checkAnswer(m, id);
      }
    } finally {
      conn.close();
    }
  },
};
