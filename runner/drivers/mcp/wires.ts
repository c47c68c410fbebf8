/**
 * The two MCP wires of the raw driver: newline-delimited JSON over a tapped stdio pair, and
 * Streamable HTTP POSTs with hand-built heads over a keep-alive connection.
 */
import type { StdioChannel } from "../../capture/tap.js";
import { SseParser } from "../../wire/sse.js";
import { HttpConnection, STREAM_END_GRACE_MS, header } from "../http-connection.js";
import type { HttpHead } from "../../wire/http1.js";
import { ProtocolError } from "../types.js";
import { hasHandshake, hasProtocolVersionHeader } from "./revision.js";
import type { JsonRpcMessage, Outgoing, Wire } from "./session.js";

function parseJson(bytes: Buffer | string, where: string): JsonRpcMessage {
  try {
    return JSON.parse(bytes.toString()) as JsonRpcMessage;
  } catch {
    throw new ProtocolError(`${where}: not JSON: ${bytes.toString().slice(0, 120)}`);
  }
}

/**
 * The MCP headers of one Streamable HTTP POST, in wire order (after Content-Type and Accept,
 * before Content-Length): `MCP-Protocol-Version` (2026-07-28 always; 2025-06-18 and 2025-11-25 once initialized),
 * `Mcp-Session-Id` when the server assigned one, and for 2026-07-28 `Mcp-Method` and, for a
 * tools/call, `Mcp-Name`.
 */
export function mcpHeaders(msg: Outgoing, sessionId: string | undefined, initialized: boolean): [string, string][] {
  const h: [string, string][] = [];
  const modern = !hasHandshake(msg.revision);
  if (modern || (initialized && hasProtocolVersionHeader(msg.revision))) h.push(["MCP-Protocol-Version", msg.revision]);
  if (sessionId) h.push(["Mcp-Session-Id", sessionId]);
  if (modern) {
    h.push(["Mcp-Method", msg.method]);
    if (msg.name !== undefined) h.push(["Mcp-Name", msg.name]);
  }
  return h;
}

/**
 * One stdout line as a JSON-RPC message, or undefined for a line that is not a JSON object (a
 * server's log line on stdout, a common bug): the driver reads past it, as the MCP stdio transport
 * tells clients not to expect anything but messages there, and the counter names it
 * (`stdio-non-jsonrpc-line`) instead of the run being lost.
 */
function jsonRpcLine(line: Buffer | string): JsonRpcMessage | undefined {
  try {
    const m = JSON.parse(line.toString()) as unknown;
    return typeof m === "object" && m !== null && !Array.isArray(m) ? (m as JsonRpcMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Stdio: one message per line; strictly sequential (one request in flight). */
export class StdioWire implements Wire {
  constructor(
    private readonly ch: StdioChannel,
    private readonly timeoutMs: number,
  ) {}

  async exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    this.ch.send(Buffer.concat([msg.body, Buffer.from("\n")]));
    for (;;) {
      const line = await this.ch.readLine(this.timeoutMs);
      const m = jsonRpcLine(line);
      if (m === undefined) continue; // a stray line (a server's log on stdout): read past; the counter names it
      if (m.method !== undefined && m.id !== undefined) {
        this.ch.send(Buffer.from(JSON.stringify(onServerRequest(m)) + "\n"));
      } else if (m.method === undefined && m.id === msg.id) {
        return m;
      }
      // notifications and stray responses are read past
    }
  }

  async notify(msg: Outgoing): Promise<void> {
    this.ch.send(Buffer.concat([msg.body, Buffer.from("\n")]));
  }

  /** stdio ends the session by closing the server's stdin (MCP 2025-11-25, "Lifecycle", Shutdown: stdio), in every revision. */
  async end(): Promise<void> {
    this.ch.end();
  }
}

/** Whether a response head says `Content-Type: text/event-stream`. */
function isEventStream(head: Pick<HttpHead, "headers">): boolean {
  return (header(head, "content-type") ?? "").startsWith("text/event-stream");
}

/**
 * Streamable HTTP: one POST per message on a keep-alive connection to the relay. A server→client
 * request that arrives as an SSE event on a still-open response (2025-era `elicitation/create`) is
 * answered at once by a POST on a second connection, while the first response stays open; its
 * result is then read from the first stream. Waiting for the first response to end would deadlock.
 *
 * An exchange ends at its JSON-RPC response, not at the end of the HTTP response: on an event
 * stream, once the event carrying the response with the request's id has arrived, the stream is
 * read at most {@link STREAM_END_GRACE_MS} more (MCP 2025-11-25, Streamable HTTP, "Sending Messages
 * to the Server": the server SHOULD close the SSE stream after all responses are sent, so it may
 * keep it open); a stream still open then is left (its connection closed, the next POST on a new
 * one), and its bytes so far stay in the capture log as an incomplete message.
 */
export class HttpWire implements Wire {
  private readonly conn: HttpConnection;
  /** Second connection, opened on first use, for answers posted while a response is open. */
  private side?: HttpConnection;
  private sessionId?: string;
  private initialized = false;

  constructor(
    private readonly port: number,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {
    this.conn = new HttpConnection(port);
  }

  /** The request head and body bytes for one message. */
  private bytes(msg: Outgoing): Buffer {
    const h = [
      `POST ${this.path} HTTP/1.1`,
      `Host: 127.0.0.1:${this.port}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      ...mcpHeaders(msg, this.sessionId, this.initialized).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${msg.body.length}`,
    ];
    return Buffer.concat([Buffer.from(h.join("\r\n") + "\r\n\r\n"), msg.body]);
  }

  async exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    const events = new SseParser();
    let fed = 0;
    let found: JsonRpcMessage | undefined;
    /**
     * Handle the SSE events completed by `body` (the response body so far; each call's body
     * extends the last): answer server requests, keep our response. Only the bytes not fed before
     * are parsed, so a large body costs time linear in its size.
     */
    const take = async (body: Buffer): Promise<void> => {
      const fresh = events.push(body.subarray(fed));
      fed = body.length;
      for (const event of fresh) {
        // An event with empty data carries no message: the priming event of MCP 2025-11-25
        // (Streamable HTTP, "resumability": an event id and empty data, e.g. rmcp's on every
        // 2025-era answer); the counter counts it as an SSE event without a message.
        if (event.data.length === 0) continue;
        const m = parseJson(event.data, `${msg.method}: SSE event`);
        if (m.method !== undefined && m.id !== undefined) {
          const answer = Buffer.from(JSON.stringify(onServerRequest(m)));
          this.side ??= new HttpConnection(this.port);
          await this.post(this.side, { body: answer, method: "", revision: msg.revision });
        } else if (m.method === undefined && m.id === msg.id) {
          found = m;
        }
      }
    };
    const res = await this.conn.request(this.bytes(msg), "POST", this.timeoutMs, async (p) => {
      if (p.head?.status === 200 && isEventStream(p.head)) await take(p.body);
      return found !== undefined;
    });
    if (res.status !== 200) throw new ProtocolError(`${msg.method}: HTTP ${res.status ?? "?"} ${res.body.toString().slice(0, 200)}`);
    if (msg.method === "initialize") {
      this.sessionId = header(res, "mcp-session-id");
      this.initialized = true;
    }
    if (isEventStream(res)) {
      if (res.complete) await take(res.body);
    } else found = parseJson(res.body, `${msg.method}: response body`);
    const got = found as JsonRpcMessage | undefined; // assigned inside `take`
    if (got && got.id === msg.id && got.method === undefined) return got;
    throw new ProtocolError(`${msg.method}: the HTTP response carried no JSON-RPC response with id ${msg.id}`);
  }

  private async post(conn: HttpConnection, msg: Outgoing): Promise<void> {
    const res = await conn.request(this.bytes(msg), "POST", this.timeoutMs);
    if (res.status !== 202 && res.status !== 200)
      throw new ProtocolError(`${msg.method || "response"}: HTTP ${res.status ?? "?"} ${res.body.toString().slice(0, 200)}`);
  }

  async notify(msg: Outgoing): Promise<void> {
    await this.post(this.conn, msg);
  }

  /**
   * End the session: in the 2025 era, `DELETE` of the endpoint with the `Mcp-Session-Id` the server
   * assigned (MCP 2025-11-25, "Transports", Session Management: the client SHOULD send it; the
   * server MAY answer 405 Method Not Allowed when clients may not end sessions); nothing when the
   * server assigned no session id, and nothing for 2026-07-28, which has no session.
   * @throws ProtocolError when the answer is neither 2xx nor 405
   */
  async end(revision: string): Promise<void> {
    if (!hasHandshake(revision) || this.sessionId === undefined) return;
    const head = [
      `DELETE ${this.path} HTTP/1.1`,
      `Host: 127.0.0.1:${this.port}`,
      ...(hasProtocolVersionHeader(revision) ? [`MCP-Protocol-Version: ${revision}`] : []),
      `Mcp-Session-Id: ${this.sessionId}`,
      "Content-Length: 0",
    ];
    const res = await this.conn.request(Buffer.from(`${head.join("\r\n")}\r\n\r\n`), "DELETE", this.timeoutMs);
    const status = res.status ?? 0;
    if (!(status >= 200 && status < 300) && status !== 405)
      throw new ProtocolError(`end of session (DELETE): HTTP ${status || "?"} ${res.body.toString().slice(0, 200)}`);
  }

  /** Close both connections. */
  close(): void {
    this.conn.close();
    this.side?.close();
  }
}
