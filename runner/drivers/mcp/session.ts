/**
 * An MCP session as the raw driver sees it: numbered requests (fixed ids from 1), notifications,
 * the revision's handshake and `_meta` envelope. The wire (stdio lines or HTTP POSTs) sits behind
 * the `Wire` interface.
 */
import { jsonExcerpt, ProtocolError } from "../types.js";
import { hasHandshake, initializeParams, metaEnvelope, revisionMismatch } from "./revision.js";

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
  /** End the session the transport's way for `revision` (runner/matrix/flows.ts, step `end`). */
  end(revision: string): Promise<void>;
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

  /**
   * Open the session: initialize + notifications/initialized for 2025-era revisions, nothing for 2026-07-28.
   * @throws ProtocolError when initialize answers another protocolVersion than the session's revision
   */
  async open(): Promise<void> {
    if (!hasHandshake(this.revision)) return;
    await this.request("initialize", initializeParams(this.revision));
    await this.notify("notifications/initialized");
  }

  /**
   * Send a request and return its result.
   * @throws ProtocolError when the response is a JSON-RPC error or lacks a result, when the result
   *   shows another revision than the session's (`revisionMismatch`, ./revision.ts: initialize's
   *   protocolVersion in the 2025 era, `resultType` on every 2026-07-28 result), or when it is a tool
   *   error (`isError: true`) and `opts.toolError` is not `accept`
   * @param opts.toolError `accept`: a tool error is returned as the answer it is (MCP, "Tools" →
   *   "Error Handling": a tool error is a result, not a protocol error), and so is a JSON-RPC error
   *   answering a `tools/call` (the spec's answer to an unknown tool or invalid arguments, and what
   *   some servers send where a tool fails): the server's answer, counted, which `wirecost measure`
   *   names as a finding (runner/count/tool-catalog.ts `toolErrorsOfRun`); default `throw`
   */
  async request(method: string, params?: Record<string, unknown>, opts: { toolError?: "throw" | "accept" } = {}): Promise<JsonRpcMessage> {
    const id = this.nextId++;
    const p = this.withMeta(params);
    const msg: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (p) msg.params = p;
    const res = await this.wire.exchange(
      { body: Buffer.from(JSON.stringify(msg)), method, name: typeof params?.name === "string" ? params.name : undefined, id, revision: this.revision },
      this.answer,
    );
    const mismatch = revisionMismatch(this.revision, method, res);
    if (mismatch) throw mismatch;
    if (res.error && method === "tools/call" && opts.toolError === "accept") return res;
    if (res.error) throw new ProtocolError(`${method} (id ${id}) answered JSON-RPC error ${res.error.code}: ${res.error.message}`);
    if (!res.result) throw new ProtocolError(`${method} (id ${id}) answered without a result`);
    if ((res.result as { isError?: boolean }).isError && opts.toolError !== "accept")
      throw new ProtocolError(`${method} (id ${id}) answered a tool error: ${jsonExcerpt(res.result, 200)}`);
    return res;
  }

  /**
   * End the session (step `end`): the wire's way for the session's revision.
   * @throws ProtocolError when the server refuses the end with an unexpected answer
   */
  async end(): Promise<void> {
    await this.wire.end(this.revision);
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
