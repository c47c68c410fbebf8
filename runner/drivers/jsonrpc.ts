/**
 * Client `jsonrpc`: a plain JSON-RPC 2.0 client for servers that speak JSON-RPC but not MCP (no
 * handshake, no protocol headers, no revisions: the `revision` axis, when there is one, is ignored).
 *
 * Flows: `plain` sends one `echo` request, `two` two, `ten` ten of them, ids 1…n, strictly
 * sequential. Each request's params are `{"text":"hello"}`; its answer must be a result response
 * with the same id whose `result.text` is that text. Stdio: one message per line (lines that are
 * not the answer, such as notifications, are read past). HTTP: one POST per request to the axis
 * `path` (default `/`) on one keep-alive connection, answered by a 200 whose body is the JSON
 * response.
 *
 * A2A flows (A2A 1.0, JSON-RPC binding; HTTP only): `a2a-send` sends the timing workload's
 * `SendMessage` request (runner/measure/workloads.ts `a2a-send-message`, byte for byte: header
 * `A2A-Version: 1.0`, `historyLength: 0`) to `/`, whose answer must be a 200 JSON-RPC result
 * carrying `Echo: hello`; `a2a-card` first fetches the agent card, `GET /.well-known/agent-card.json`
 * (A2A 1.0, "Agent Discovery": the well-known URI), which must be a 200 whose body is a JSON object
 * with a string `name`, then sends the same `SendMessage` on the same connection: a client
 * discovering the agent before its first message.
 */
import { JSONRPC_CLIENT } from "./declarations.js";
import type { StdioChannel } from "../capture/tap.js";
import { HttpConnection } from "./http-connection.js";
import { jsonExcerpt, ProtocolError, type Driver, type DriverContext } from "./types.js";
import { WORKLOADS } from "../measure/workloads.js";

/** Flow name → number of `echo` requests it sends (the A2A flows, {@link A2A_FLOWS}, send none). */
export const JSONRPC_FLOWS: Readonly<Record<string, number>> = { plain: 1, two: 2, ten: 10, "a2a-send": 0, "a2a-card": 0 };

/** The A2A flows: whether each fetches the agent card before its `SendMessage`. */
export const A2A_FLOWS: Readonly<Record<string, { card: boolean }>> = { "a2a-send": { card: false }, "a2a-card": { card: true } };

/** Path of the agent card (A2A 1.0, "Agent Discovery": `/.well-known/agent-card.json`). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

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
    throw new ProtocolError(`echo #${id}: expected a result with text ${JSON.stringify(ECHO_TEXT)}, got ${jsonExcerpt(m, 200)}`);
  }
}

/** The plain JSON-RPC driver (protocol `jsonrpc`). */
export const jsonRpcDriver: Driver = {
  protocol: "jsonrpc",
  flows: JSONRPC_CLIENT.flows,
  revisions: [],
  async stdio(channel: StdioChannel, ctx) {
    if (A2A_FLOWS[ctx.flow]) throw new ProtocolError(`flow ${ctx.flow} runs over HTTP only (A2A's JSON-RPC binding is HTTP)`);
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
      const a2a = A2A_FLOWS[ctx.flow];
      if (a2a) return await a2aFlow(conn, port, a2a.card, ctx.timeoutMs);
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
        if (m["id"] !== id) throw new ProtocolError(`echo #${id}: the response has id ${jsonExcerpt(m["id"], 80)}`);
        checkAnswer(m, id);
      }
    } finally {
      conn.close();
    }
  },
};

/**
 * Run an A2A flow on `conn`: the agent card first when `card`, then the `SendMessage` of the timing
 * workload.
 * @throws ProtocolError when the card is not a 200 JSON object with a string `name`, or the answer
 *   to `SendMessage` is not a 200 JSON-RPC result carrying `Echo: hello`
 */
async function a2aFlow(conn: HttpConnection, port: number, card: boolean, timeoutMs: number): Promise<void> {
  if (card) {
    const head = [`GET ${AGENT_CARD_PATH} HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Accept: application/json"];
    const res = await conn.request(Buffer.from(head.join("\r\n") + "\r\n\r\n"), "GET", timeoutMs);
    if (res.status !== 200) throw new ProtocolError(`agent card: HTTP ${res.status ?? "?"} for GET ${AGENT_CARD_PATH}: ${res.body.toString().slice(0, 200)}`);
    const m = parse(res.body, "agent card");
    if (typeof m["name"] !== "string") throw new ProtocolError(`agent card: no string "name" in ${res.body.toString().slice(0, 200)}`);
  }
  const send = WORKLOADS["a2a-send-message"]!(port);
  const res = await conn.request(send.bytes, "POST", timeoutMs);
  try {
    send.validate(res.status ?? 0, res.body);
  } catch (e) {
    throw new ProtocolError(`SendMessage: ${(e as Error).message}`);
  }
}
