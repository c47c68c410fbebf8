/**
 * What each MCP revision puts on the wire around a JSON-RPC message.
 *
 * - 2024-11-05 and 2025-03-26 (specification/2025-03-26/basic/lifecycle): the same handshake as
 *   below; no `MCP-Protocol-Version` header (it came with 2025-06-18) and no elicitation (nor
 *   does the driver declare it). 2025-03-26 brought Streamable HTTP; 2024-11-05's HTTP transport
 *   is HTTP+SSE (an SSE stream from a GET, POSTs to the endpoint it names), which the raw driver
 *   does not speak: it drives 2024-11-05 over stdio only.
 * - 2025-06-18 and 2025-11-25 (specification/2025-11-25/basic/lifecycle): an `initialize`
 *   request then a `notifications/initialized` notification open the session; over Streamable
 *   HTTP every later request carries `MCP-Protocol-Version` and, when the server assigned one,
 *   `Mcp-Session-Id`.
 * - 2026-07-28 (specification/2026-07-28/basic/versioning, transports): no handshake; every
 *   request's `params._meta` carries `io.modelcontextprotocol/protocolVersion`,
 *   `io.modelcontextprotocol/clientCapabilities` (required) and `io.modelcontextprotocol/clientInfo`;
 *   over HTTP every POST carries `MCP-Protocol-Version` and `Mcp-Method`, and `tools/call` adds
 *   `Mcp-Name` (the tool name).
 */

import { RAW_CLIENT } from "../declarations.js";
import { ProtocolError } from "../types.js";

/** Revisions the raw driver speaks (declared in runner/drivers/declarations.ts). */
export const REVISIONS = RAW_CLIENT.revisions;

/** Client identity sent by the raw driver (fixed, so repeats are byte-identical). */
export const CLIENT_INFO = { name: "wirecost-raw", version: "1.0.0" } as const;

/** Client capabilities declared by the raw driver from 2025-06-18: it can answer elicitation. */
export const CLIENT_CAPABILITIES = { elicitation: {} } as const;

/**
 * The client capabilities the raw driver declares at `revision`: {@link CLIENT_CAPABILITIES} from
 * 2025-06-18 (which brought elicitation, specification/2025-06-18/client/elicitation), none before.
 */
export function clientCapabilities(revision: string): Record<string, unknown> {
  return revision >= "2025-06-18" ? CLIENT_CAPABILITIES : {};
}

/** True for revisions that open a session with initialize (2024-11-05 to 2025-11-25). */
export function hasHandshake(revision: string): boolean {
  return revision < "2026-07-28";
}

/**
 * True for revisions whose Streamable HTTP requests after `initialize` carry `MCP-Protocol-Version`
 * (specification/2025-06-18/basic/transports, "Protocol Version Header"; 2025-03-26 had none).
 */
export function hasProtocolVersionHeader(revision: string): boolean {
  return revision >= "2025-06-18";
}

/**
 * True for revisions whose HTTP transport is Streamable HTTP (from 2025-03-26); 2024-11-05's is
 * HTTP+SSE (specification/2024-11-05/basic/transports), which wirecost's drivers do not speak.
 */
export function hasStreamableHttp(revision: string): boolean {
  return revision >= "2025-03-26";
}

/** Why a revision before 2025-03-26 is not driven over HTTP (see {@link hasStreamableHttp}): one line. */
export function noStreamableHttp(revision: string): string {
  return `${revision}'s HTTP transport is HTTP+SSE (an SSE stream from a GET, POSTs to the endpoint it names), which wirecost's drivers do not speak (they drive ${revision} over stdio)`;
}

/** The `_meta` envelope every 2026-07-28 request carries. */
export function metaEnvelope(revision: string): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientCapabilities": CLIENT_CAPABILITIES,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  };
}

/** Params of the 2025-era `initialize` request. */
export function initializeParams(revision: string): Record<string, unknown> {
  return { protocolVersion: revision, capabilities: clientCapabilities(revision), clientInfo: CLIENT_INFO };
}

/**
 * The revision a server spoke, as its answers show it, checked against the one the client asked
 * for. 2025 era: the `protocolVersion` of the `initialize` result (specification/2025-11-25/basic/
 * lifecycle: a server that does not support the requested version answers another one).
 * 2026-07-28: every result carries `resultType` (`complete` or `input_required`: the revision's
 * result discriminator, which the TypeScript v2 SDK's 2026 codec stamps on every result and its
 * client requires), which no 2025-era result carries; a `server/discover` answered with a JSON-RPC
 * error (the method is the revision's own), or whose `supportedVersions` leave the revision out,
 * is a mismatch too. A mismatch is one line, e.g. `server answered 2025-06-18 to a 2025-11-25
 * request`, or, for a 2026-07-28 request answered in the 2025 era's shape (no handshake, so no
 * version named: the TypeScript v1 SDK server over stdio), `server answered 2025-era (tools/list
 * result without resultType) to a 2026-07-28 request`.
 * @param asked the revision the client requested
 * @param method the method of the request answered
 * @param answer the JSON-RPC response's `result` or `error` member
 * @returns the mismatch as a ProtocolError, or undefined when the answer fits `asked` (or says nothing about it)
 */
export function revisionMismatch(asked: string, method: string, answer: { result?: unknown; error?: unknown }): ProtocolError | undefined {
  const r = (answer.result ?? {}) as Record<string, unknown>;
  if (hasHandshake(asked)) {
    if (method !== "initialize" || answer.result === undefined || r.protocolVersion === asked) return undefined;
    const got = typeof r.protocolVersion === "string" ? r.protocolVersion : `no protocolVersion (${JSON.stringify(r.protocolVersion) ?? "absent"})`;
    return new ProtocolError(`server answered ${got} to a ${asked} request`);
  }
  if (answer.result === undefined) {
    if (method !== "server/discover" || answer.error === undefined) return undefined;
    const e = answer.error as { code?: unknown; message?: unknown };
    return new ProtocolError(`server answered 2025-era (server/discover: JSON-RPC error ${String(e.code)} ${String(e.message)}) to a ${asked} request`);
  }
  if (typeof r.resultType !== "string") return new ProtocolError(`server answered 2025-era (${method} result without resultType) to a ${asked} request`);
  if (method === "server/discover" && Array.isArray(r.supportedVersions) && !r.supportedVersions.includes(asked))
    return new ProtocolError(`server answered ${r.supportedVersions.join(", ")} to a ${asked} request`);
  return undefined;
}

/**
 * Watches one session's messages for {@link revisionMismatch}: `sent` records each request's
 * method by id, `received` checks each result against the method of its request. Used where the
 * messages pass through code of wirecost's own but the client is someone else's (the SDK clients'
 * transports).
 */
export class RevisionWatch {
  private readonly methods = new Map<string | number, string>();
  /** The first mismatch seen, if any. */
  mismatch?: ProtocolError;
  /**
   * `tools/call` requests the server answered with a JSON-RPC error so far, read off the wire: how
   * an SDK flow tells the server's error answer (counted, a finding) from a failure of its own
   * (a timeout, a closed connection), which the SDKs throw alike.
   */
  toolCallErrors = 0;

  /** @param revision the revision the client asked for */
  constructor(readonly revision: string) {}

  /** Record an outgoing message (a request's id and method; anything else is ignored). */
  sent(message: unknown): void {
    const m = message as { id?: unknown; method?: unknown };
    if ((typeof m.id === "string" || typeof m.id === "number") && typeof m.method === "string") this.methods.set(m.id, m.method);
  }

  /** Check an incoming message: a response (result or error) to a recorded request. */
  received(message: unknown): void {
    const m = message as { id?: unknown; result?: unknown; error?: unknown };
    if (typeof m.id !== "string" && typeof m.id !== "number") return;
    const method = this.methods.get(m.id);
    if (method === undefined) return;
    this.methods.delete(m.id);
    if (method === "tools/call" && m.error !== undefined) this.toolCallErrors++;
    this.mismatch ??= revisionMismatch(this.revision, method, m);
  }

  /** @throws ProtocolError the first mismatch seen, if any */
  check(): void {
    if (this.mismatch) throw this.mismatch;
  }
}
