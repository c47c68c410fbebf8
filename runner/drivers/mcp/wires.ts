/**
 * The two MCP wires of the raw driver: newline-delimited JSON over a tapped stdio pair, and
 * Streamable HTTP POSTs with hand-built heads over a keep-alive connection.
 */
import type { StdioChannel } from "../../capture/tap.js";
import { parseSseEvents } from "../../count/sse.js";
import { HttpConnection, header } from "../http-connection.js";
import { ProtocolError } from "../types.js";
import { hasHandshake } from "./revision.js";
import type { JsonRpcMessage, Outgoing, Wire } from "./session.js";

function parseJson(bytes: Buffer | string, where: string): JsonRpcMessage {
  try {
    return JSON.parse(bytes.toString()) as JsonRpcMessage;
  } catch {
    throw new ProtocolError(`${where}: not JSON: ${bytes.toString().slice(0, 120)}`);
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
      const m = parseJson(await this.ch.readLine(this.timeoutMs), "stdout line");
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
}

/** Streamable HTTP: one POST per message on a keep-alive connection to the relay. */
export class HttpWire implements Wire {
  private readonly conn: HttpConnection;
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
    ];
    const modern = !hasHandshake(msg.revision);
    if (modern || this.initialized) h.push(`MCP-Protocol-Version: ${msg.revision}`);
    if (this.sessionId) h.push(`Mcp-Session-Id: ${this.sessionId}`);
    if (modern) {
      h.push(`Mcp-Method: ${msg.method}`);
      if (msg.name !== undefined) h.push(`Mcp-Name: ${msg.name}`);
    }
    h.push(`Content-Length: ${msg.body.length}`);
    return Buffer.concat([Buffer.from(h.join("\r\n") + "\r\n\r\n"), msg.body]);
  }

  async exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    const res = await this.conn.request(this.bytes(msg), "POST", this.timeoutMs);
    if (res.status !== 200) throw new ProtocolError(`${msg.method}: HTTP ${res.status ?? "?"} ${res.body.toString().slice(0, 200)}`);
    if (msg.method === "initialize") {
      this.sessionId = header(res, "mcp-session-id");
      this.initialized = true;
    }
    const type = header(res, "content-type") ?? "";
    const messages = type.startsWith("text/event-stream")
      ? parseSseEvents(res.body).map((e) => parseJson(e.data, `${msg.method}: SSE event`))
      : [parseJson(res.body, `${msg.method}: response body`)];
    for (const m of messages) {
      if (m.method !== undefined && m.id !== undefined) {
        await this.notify({ body: Buffer.from(JSON.stringify(onServerRequest(m))), method: "", revision: msg.revision });
      } else if (m.method === undefined && m.id === msg.id) {
        return m;
      }
    }
    throw new ProtocolError(`${msg.method}: the HTTP response carried no JSON-RPC response with id ${msg.id}`);
  }

  async notify(msg: Outgoing): Promise<void> {
    const res = await this.conn.request(this.bytes(msg), "POST", this.timeoutMs);
    if (res.status !== 202 && res.status !== 200) throw new ProtocolError(`${msg.method || "response"}: HTTP ${res.status ?? "?"} ${res.body.toString().slice(0, 200)}`);
  }

  /** Close the connection. */
  close(): void {
    this.conn.close();
  }
}
