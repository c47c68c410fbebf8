/**
 * Pipelining MCP wires for {@link McpSession}: many requests in flight at once, each response
 * matched to its request by JSON-RPC id, never by order (the v2 SDK answers pipelined stdio
 * requests out of order). The per-call engine times through them; the byte-counting raw driver
 * keeps the strictly sequential wires of wires.ts. Server→client requests are not expected on
 * these wires (the per-call workload sends none) and are answered with `onServerRequest` anyway.
 */
import { Agent, request as httpRequest } from "node:http";
import type { Readable, Writable } from "node:stream";
import { parseSseEvents } from "../../wire/sse.js";
import { ProtocolError } from "../types.js";
import { mcpHeaders } from "./wires.js";
import type { JsonRpcMessage, Outgoing, Wire } from "./session.js";
import { ResponseTimeout } from "../../errors.js";

interface Pending {
  resolve(m: JsonRpcMessage): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** Stdio: newline-delimited JSON on a child's stdin/stdout; responses routed by id. */
export class PipelinedStdioWire implements Wire {
  private readonly pending = new Map<number, Pending>();
  private answer: (r: JsonRpcMessage) => JsonRpcMessage = (r) => ({ jsonrpc: "2.0", id: r.id, error: { code: -32601, message: "Method not found" } });

  /**
   * @param stdin the server's stdin; @param stdout the server's stdout (read from now on)
   * @param timeoutMs limit per request, milliseconds
   */
  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
    private readonly timeoutMs: number,
  ) {
    let buf = "";
    stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() !== "") this.onMessage(line);
      }
    });
  }

  private onMessage(line: string): void {
    let m: JsonRpcMessage;
    try {
      m = JSON.parse(line) as JsonRpcMessage;
    } catch {
      return this.failAll(new ProtocolError(`stdout line: not JSON: ${line.slice(0, 120)}`));
    }
    if (m.method !== undefined) {
      if (m.id !== undefined) this.stdin.write(JSON.stringify(this.answer(m)) + "\n");
      return; // notifications are read past
    }
    const p = typeof m.id === "number" ? this.pending.get(m.id) : undefined;
    if (!p) return; // a stray response
    this.pending.delete(m.id as number);
    clearTimeout(p.timer);
    p.resolve(m);
  }

  /** Reject every request in flight with `e` (e.g. the server exited). */
  failAll(e: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(e);
    }
  }

  exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    this.answer = onServerRequest;
    const id = msg.id!;
    return new Promise<JsonRpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ResponseTimeout(`${msg.method} (id ${id}): no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.stdin.write(Buffer.concat([msg.body, Buffer.from("\n")]));
    });
  }

  async notify(msg: Outgoing): Promise<void> {
    this.stdin.write(Buffer.concat([msg.body, Buffer.from("\n")]));
  }
}

/** Streamable HTTP: one POST per message from a keep-alive pool (up to 64 sockets), so POSTs overlap. */
export class PipelinedHttpWire implements Wire {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private sessionId?: string;
  private initialized = false;

  /** @param port server port on 127.0.0.1; @param path endpoint path, e.g. `/mcp`; @param timeoutMs limit per request */
  constructor(
    private readonly port: number,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {}

  private post(msg: Outgoing): Promise<{ status: number; type: string; body: Buffer; sessionId: string | undefined }> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    for (const [k, v] of mcpHeaders(msg, this.sessionId, this.initialized)) headers[k] = v;
    headers["Content-Length"] = String(msg.body.length);
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        { host: "127.0.0.1", port: this.port, path: this.path, method: "POST", headers, agent: this.agent, timeout: this.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const sid = res.headers["mcp-session-id"];
            resolve({
              status: res.statusCode ?? 0,
              type: res.headers["content-type"] ?? "",
              body: Buffer.concat(chunks),
              sessionId: typeof sid === "string" ? sid : undefined,
            });
          });
          res.on("error", reject);
        },
      );
      r.on("timeout", () => r.destroy(new ResponseTimeout(`${msg.method || "response"}: no answer within ${this.timeoutMs} ms`)));
      r.on("error", reject);
      r.end(msg.body);
    });
  }

  async exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    const res = await this.post(msg);
    if (res.status !== 200) throw new ProtocolError(`${msg.method}: HTTP ${res.status} ${res.body.toString().slice(0, 200)}`);
    if (msg.method === "initialize") {
      this.sessionId = res.sessionId;
      this.initialized = true;
    }
    const messages = res.type.startsWith("text/event-stream") ? parseSseEvents(res.body).map((e) => e.data.toString()) : [res.body.toString()];
    for (const text of messages) {
      let m: JsonRpcMessage;
      try {
        m = JSON.parse(text) as JsonRpcMessage;
      } catch {
        throw new ProtocolError(`${msg.method}: response: not JSON: ${text.slice(0, 120)}`);
      }
      if (m.method === undefined && m.id === msg.id) return m;
      if (m.method !== undefined && m.id !== undefined)
        await this.notify({ body: Buffer.from(JSON.stringify(onServerRequest(m))), method: "", revision: msg.revision });
    }
    throw new ProtocolError(`${msg.method}: the HTTP response carried no JSON-RPC response with id ${msg.id}`);
  }

  async notify(msg: Outgoing): Promise<void> {
    const res = await this.post(msg);
    if (res.status !== 202 && res.status !== 200)
      throw new ProtocolError(`${msg.method || "response"}: HTTP ${res.status} ${res.body.toString().slice(0, 200)}`);
  }

  /** Close the pooled sockets. */
  close(): void {
    this.agent.destroy();
  }
}
