/**
 * An MCP session as the raw driver sees it: numbered requests (fixed ids from 1), notifications,
 * the revision's handshake and `_meta` envelope. The wire (stdio lines or HTTP POSTs) sits behind
 * the `Wire` interface.
 */
import { ProtocolError } from "../types.js";
import { hasHandshake, initializeParams, metaEnvelope } from "./revision.js";

/** A JSON-RPC message as parsed off the wire. */
export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC message to send, with what HTTP headers need to know about it. */
export interface Outgoing {
  /** Serialised message, compact JSON, no trailing newline. */
  body: Buffer;
  method: string;
  /** `params.name` of a tools/call (for the `Mcp-Name` header). */
  name?: string;
  /** Request id; undefined for notifications and responses. */
  id?: number;
  revision: string;
}

/**
 * A transport for one session. `exchange` sends a request and resolves with its response;
 * `onServerRequest` answers server→client requests (e.g. elicitation/create) that arrive meanwhile.
 */
export interface Wire {
  exchange(msg: Outgoing, onServerRequest: (req: JsonRpcMessage) => JsonRpcMessage): Promise<JsonRpcMessage>;
  notify(msg: Outgoing): Promise<void>;
}

/** Drives one MCP session over a Wire. */
export class McpSession {
  private nextId = 1;

  constructor(
    private readonly wire: Wire,
    readonly revision: string,
    /** Answers server→client requests; default: error -32601. */
    private readonly answer: (req: JsonRpcMessage) => JsonRpcMessage = (req) => ({
      jsonrpc: "2.0",
      id: req.id,
      error: { code: -32601, message: "Method not found" },
    }),
  ) {}

  /** Open the session: initialize + notifications/initialized for 2025-era revisions, nothing for 2026-07-28. */
  async open(): Promise<void> {
    if (!hasHandshake(this.revision)) return;
    const res = await this.request("initialize", initializeParams(this.revision));
    const got = (res.result as { protocolVersion?: string } | undefined)?.protocolVersion;
    if (got !== this.revision) throw new ProtocolError(`initialize answered protocolVersion ${String(got)}, expected ${this.revision}`);
    await this.notify("notifications/initialized");
  }

  /**
   * Send a request and return its result.
   * @throws ProtocolError when the response is a JSON-RPC error or lacks a result
   */
  async request(method: string, params?: Record<string, unknown>): Promise<JsonRpcMessage> {
    const id = this.nextId++;
    const p = this.withMeta(params);
    const msg: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (p) msg.params = p;
    const res = await this.wire.exchange(
      { body: Buffer.from(JSON.stringify(msg)), method, name: typeof params?.name === "string" ? params.name : undefined, id, revision: this.revision },
      this.answer,
    );
    if (res.error) throw new ProtocolError(`${method} (id ${id}) answered JSON-RPC error ${res.error.code}: ${res.error.message}`);
    if (!res.result) throw new ProtocolError(`${method} (id ${id}) answered without a result`);
    if ((res.result as { isError?: boolean }).isError)
      throw new ProtocolError(`${method} (id ${id}) answered a tool error: ${JSON.stringify(res.result).slice(0, 200)}`);
    return res;
  }

  /** Send a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const msg: Record<string, unknown> = { jsonrpc: "2.0", method };
    if (params) msg.params = params;
    await this.wire.notify({ body: Buffer.from(JSON.stringify(msg)), method, revision: this.revision });
  }

  private withMeta(params?: Record<string, unknown>): Record<string, unknown> | undefined {
    if (hasHandshake(this.revision)) return params;
    return { ...params, _meta: metaEnvelope(this.revision) };
  }
}
