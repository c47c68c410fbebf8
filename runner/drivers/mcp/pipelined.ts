/**
 * Pipelining MCP wires for {@link McpSession}: many requests in flight at once, each response
 * matched to its request by JSON-RPC id, never by order (the v2 SDK answers pipelined stdio
 * requests out of order). The per-call engine times through them; the byte-counting raw driver
 * keeps the strictly sequential wires of wires.ts. Server→client requests are not expected on
 * these wires (the per-call workload sends none) and are answered with `onServerRequest` anyway.
 */
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import type { Readable, Writable } from "node:stream";
import { SseParser } from "../../wire/sse.js";
import { STREAM_END_GRACE_MS } from "../http-connection.js";
import { ProtocolError } from "../types.js";
import { mcpHeaders } from "./wires.js";
import { hasHandshake, hasProtocolVersionHeader } from "./revision.js";
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
  /** Lines of the server's stdout that are not JSON (a log, junk): how many, and the first (at most 80 characters). */
  readonly stray = { lines: 0, first: "" };

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
      // A stray line (a server's log on stdout) is read past; the counter names it.
      if (this.stray.lines++ === 0) this.stray.first = line.slice(0, 80);
      return;
    }
    if (typeof m !== "object" || m === null) return;
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

  /** Step `end` over stdio: close the server's stdin (as wires.ts StdioWire). */
  async end(): Promise<void> {
    this.stdin.end();
  }
}

/** What one POST brought back. */
interface PostResult {
  status: number;
  /** Content-Type, "" when none. */
  type: string;
  /** The whole body (a JSON body, or an event stream that ended before its answer); empty when `response` is set. */
  body: Buffer;
  sessionId: string | undefined;
  /** The JSON-RPC response with the request's id, when it came as an SSE event. */
  response?: JsonRpcMessage;
}

/**
 * Streamable HTTP: one POST per message from a keep-alive pool (up to 64 sockets), so POSTs overlap.
 *
 * An exchange ends at its JSON-RPC response, not at the end of the HTTP response. MCP 2025-11-25,
 * Streamable HTTP, "Sending Messages to the Server": the server SHOULD close the SSE stream after
 * all responses are sent — it may keep it open (pings, a late close). So an event stream is parsed
 * as it arrives; the event carrying the response with the request's id resolves the exchange at
 * once (the call's time ends there), server→client requests before it are answered at once by a
 * POST of their own, and the stream is read on for at most {@link STREAM_END_GRACE_MS}: if it ends,
 * its socket goes back to the pool; if not, the request is aborted (its socket closed). A stream
 * left open occupies its socket, so calls meanwhile go on other pooled sockets.
 */
export class PipelinedHttpWire implements Wire {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  /** Requests answered whose event stream is still open (aborted after the grace, or at close). */
  private readonly lingering = new Set<ClientRequest>();
  private sessionId?: string;
  private initialized = false;

  /** @param port server port on 127.0.0.1; @param path endpoint path, e.g. `/mcp`; @param timeoutMs limit per request */
  constructor(
    private readonly port: number,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * POST one message. A 200 event stream answering a request (`msg.id` set) resolves at the event
   * carrying the response with that id; anything else resolves at the end of the body.
   * @throws ResponseTimeout when the socket is idle for `timeoutMs`; ProtocolError on an SSE event
   *   that is not JSON, or when answering a server→client request fails
   */
  private post(msg: Outgoing, onServerRequest?: (r: JsonRpcMessage) => JsonRpcMessage): Promise<PostResult> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    for (const [k, v] of mcpHeaders(msg, this.sessionId, this.initialized)) headers[k] = v;
    headers["Content-Length"] = String(msg.body.length);
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        { host: "127.0.0.1", port: this.port, path: this.path, method: "POST", headers, agent: this.agent, timeout: this.timeoutMs },
        (res) => {
          const sid = res.headers["mcp-session-id"];
          const head = {
            status: res.statusCode ?? 0,
            type: res.headers["content-type"] ?? "",
            sessionId: typeof sid === "string" ? sid : undefined,
          };
          const chunks: Buffer[] = [];
          res.on("error", reject);
          if (head.status !== 200 || !head.type.startsWith("text/event-stream") || msg.id === undefined) {
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ ...head, body: Buffer.concat(chunks) }));
            return;
          }
          const events = new SseParser();
          let settled = false;
          const fail = (e: Error): void => {
            settled = true;
            reject(e);
            r.destroy();
          };
          res.on("data", (c: Buffer) => {
            if (settled) return; // read past what follows the answer, so that the socket can be reused
            chunks.push(c);
            for (const ev of events.push(c)) {
              // An event with empty data carries no message: the priming event of MCP 2025-11-25
              // (Streamable HTTP, "Resumability and Redelivery": an event id and empty data, e.g.
              // rmcp's before each answer), as the raw driver reads it (runner/drivers/mcp/wires.ts).
              if (ev.data.length === 0) continue;
              let m: JsonRpcMessage;
              try {
                m = JSON.parse(ev.data.toString()) as JsonRpcMessage;
              } catch {
                return fail(new ProtocolError(`${msg.method}: SSE event: not JSON: ${ev.data.toString().slice(0, 120)}`));
              }
              if (m.method !== undefined && m.id !== undefined && onServerRequest) {
                this.notify({ body: Buffer.from(JSON.stringify(onServerRequest(m))), method: "", revision: msg.revision }).catch(fail);
              } else if (m.method === undefined && m.id === msg.id) {
                settled = true;
                resolve({ ...head, body: Buffer.alloc(0), response: m });
                this.linger(r, res);
                return;
              }
            }
          });
          res.on("end", () => {
            if (!settled) resolve({ ...head, body: Buffer.concat(chunks) });
            settled = true;
          });
        },
      );
      r.on("timeout", () => r.destroy(new ResponseTimeout(`${msg.method || "response"}: no answer within ${this.timeoutMs} ms`)));
      r.on("error", reject);
      r.end(msg.body);
    });
  }

  /** Let an answered request's stream end within {@link STREAM_END_GRACE_MS}, else abort it. */
  private linger(r: ClientRequest, res: IncomingMessage): void {
    if (res.complete) return;
    this.lingering.add(r);
    const timer = setTimeout(() => r.destroy(), STREAM_END_GRACE_MS);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      this.lingering.delete(r);
    };
    res.once("end", done);
    r.once("close", done);
  }

  async exchange(msg: Outgoing, onServerRequest: (r: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage> {
    const res = await this.post(msg, onServerRequest);
    if (res.status !== 200) throw new ProtocolError(`${msg.method}: HTTP ${res.status} ${res.body.toString().slice(0, 200)}`);
    if (msg.method === "initialize") {
      this.sessionId = res.sessionId;
      this.initialized = true;
    }
    if (res.response) return res.response;
    if (!res.type.startsWith("text/event-stream")) {
      let m: JsonRpcMessage;
      try {
        m = JSON.parse(res.body.toString()) as JsonRpcMessage;
      } catch {
        throw new ProtocolError(`${msg.method}: response: not JSON: ${res.body.toString().slice(0, 120)}`);
      }
      if (m.method === undefined && m.id === msg.id) return m;
    }
    throw new ProtocolError(`${msg.method}: the HTTP response carried no JSON-RPC response with id ${msg.id}`);
  }

  /**
   * Step `end` over Streamable HTTP (as wires.ts HttpWire): in the 2025 era, `DELETE` with the
   * session id the server assigned; nothing without one, nothing for 2026-07-28.
   * @throws ProtocolError when the answer is neither 2xx nor 405
   */
  async end(revision: string): Promise<void> {
    if (!hasHandshake(revision) || this.sessionId === undefined) return;
    const headers = {
      ...(hasProtocolVersionHeader(revision) ? { "MCP-Protocol-Version": revision } : {}),
      "Mcp-Session-Id": this.sessionId,
      "Content-Length": "0",
    };
    const status = await new Promise<number>((resolve, reject) => {
      const r = httpRequest(
        { host: "127.0.0.1", port: this.port, path: this.path, method: "DELETE", headers, agent: this.agent, timeout: this.timeoutMs },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", reject);
        },
      );
      r.on("timeout", () => r.destroy(new ResponseTimeout(`end of session (DELETE): no answer within ${this.timeoutMs} ms`)));
      r.on("error", reject);
      r.end();
    });
    if (!(status >= 200 && status < 300) && status !== 405) throw new ProtocolError(`end of session (DELETE): HTTP ${status}`);
  }

  async notify(msg: Outgoing): Promise<void> {
    const res = await this.post(msg);
    if (res.status !== 202 && res.status !== 200)
      throw new ProtocolError(`${msg.method || "response"}: HTTP ${res.status} ${res.body.toString().slice(0, 200)}`);
  }

  /** Abort streams left open and close the pooled sockets. */
  close(): void {
    for (const r of this.lingering) r.destroy();
    this.lingering.clear();
    this.agent.destroy();
  }
}
