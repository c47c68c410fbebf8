/** The contract between the runner and a client driver (one per value of the `client` axis). */
import type { StdioChannel } from "../capture/tap.js";
import type { FlowStep } from "../matrix/flows.js";

/** What a driver is told about the configuration it drives. */
export interface DriverContext {
  /** Every axis value of the configuration (built-in and pass-through axes). */
  values: Record<string, string>;
  /** Protocol revision, e.g. "2025-11-25". */
  revision: string;
  /** Flow name, e.g. "plain". */
  flow: string;
  /** The flow's steps, from the matrix's `flows:` (runner/matrix/flows.ts); the MCP drivers run them. */
  steps?: FlowStep[];
  /** Wall-clock limit for one exchange, milliseconds. */
  timeoutMs: number;
  /** The target's `sdkClient:` (the SDK client generation client `sdk` drives it with), when it names one. */
  sdkClient?: string;
  /** The target's `tool:` (the tool its flows call, with its JSON arguments); absent: `echo` (runner/drivers/mcp/flows.ts). */
  tool?: { name: string; arguments: Record<string, unknown> };
}

/**
 * What a driver speaks to its target: `mcp` (Model Context Protocol sessions) or `jsonrpc` (plain
 * JSON-RPC 2.0, no MCP). Recorded per client in provenance.json (`clients.<name>.protocol`), so
 * pages know which configurations speak MCP without guessing from names.
 */
export type Protocol = "mcp" | "jsonrpc";

/** A client driver: drives one flow over one transport, then returns. Throws on any protocol error. */
export interface Driver {
  /** The protocol the driver speaks (see {@link Protocol}). */
  protocol: Protocol;
  /** Flows this driver knows (the list in declarations.ts, which expansion checks configurations against); absent: any flow of the matrix (`flows:`). */
  flows?: readonly string[];
  /** npm packages the driver runs on (client SDKs), recorded with their versions in provenance. */
  packages?: readonly string[];
  /** Revisions this driver speaks (likewise declared in declarations.ts). */
  revisions: readonly string[];
  /** Drive over a tapped stdio pair; must not end stdin (the runner does). */
  stdio(channel: StdioChannel, ctx: DriverContext): Promise<void>;
  /** Drive over HTTP to 127.0.0.1:`port` (the relay). */
  http(port: number, ctx: DriverContext): Promise<void>;
}

/** Thrown by drivers when the server's answer is not what the protocol requires. */
export class ProtocolError extends Error {
  override name = "ProtocolError";
}

/**
 * `value` (a JSON value from the wire) as JSON text for a run's reason, cut to `maxChars`
 * characters. JSON.stringify recurses once per nesting level, so a value nested some thousands
 * deep (a hostile or broken server's answer) overflows V8's stack; such a value is named as what
 * it is instead of failing the run with "Maximum call stack size exceeded".
 * @param maxChars at most this many characters of the JSON text
 */
export function jsonExcerpt(value: unknown, maxChars: number): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, maxChars);
  } catch (e) {
    if (e instanceof RangeError) return "a JSON value nested too deep to show";
    throw e;
  }
}
