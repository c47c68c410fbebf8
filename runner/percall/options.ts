/**
 * Parameters of a per-call matrix (`measures: [percall]`): the `timing:` block of the one matrix
 * language, already validated by matrix.schema.json (its percall if/then makes every key below
 * required, with file:line:col errors at parse time), read here into one typed object. Each
 * configuration (target × transport × revision) is one path: the in-process call (a target that
 * declares `inProcess:`), an MCP target over stdio or HTTP at one revision, or a harness (a target
 * that declares `harness:`, runner/percall/harness.ts) timing its path in another language.
 */
import type { Configuration, DeclaredClient, Matrix, TargetCommand } from "../matrix/types.js";
import type { PercallAssumptions } from "../../format/percall.js";
import { targetOf } from "../matrix/target-of.js";
import { DEFAULT_PROFILE_HZ } from "../attribution/samplers.js";
import { sdkGenerationOf, type SdkClientName } from "../drivers/declarations.js";

export type { PercallAssumptions, TurnShareRow } from "../../format/percall.js";

/** The per-call parameters of a matrix. */
export interface PercallOptions {
  /** Trials per configuration; each trial is a fresh session. */
  trials: number;
  /** Timed calls per trial. */
  calls: number;
  /** Calls discarded after the session's first call (which is always discarded), before timing. */
  warmupCalls: number;
  /** The measured call: `search_tickets` arguments. */
  query: string;
  limit: number;
  /** Extra start-ups per MCP configuration timed for setup only. */
  setupRepeats: number;
  /** Loop sizes: calls per loop and timed repeats per trial (one more is discarded first). */
  loopCalls: number;
  loopRepeats: number;
  /** Payload sweep: `limit` values and timed calls per value. */
  payloadLimits: number[];
  payloadCalls: number;
  /**
   * Samples per second asked of the profiled trial's samplers: the measuring process's V8 profiler
   * and `WIRECOST_PROFILE_HZ` of processes that sample themselves (`timing.profileHz`, default
   * {@link DEFAULT_PROFILE_HZ}); py-spy keeps its own rate (`PY_SPY_HZ`,
   * runner/attribution/samplers.ts).
   */
  profileHz: number;
  /** Start-up and per-request limit, milliseconds (`timeoutSeconds`). */
  timeoutMs: number;
  assumptions: PercallAssumptions;
}

/**
 * One measured path, from one expanded configuration: the direct call inside the runner, an MCP
 * target driven by wirecost's own client, or a harness (runner/percall/harness.ts) that times its
 * path itself (`transport` is the path it measures; `revision` "none" for in-process).
 */
export type PercallPath =
  | { id: string; kind: "direct"; label: string; target: string; values: Record<string, string> }
  | {
      id: string;
      kind: "mcp";
      label: string;
      target: string;
      transport: "stdio" | "http";
      revision: string;
      command: TargetCommand;
      package: string;
      values: Record<string, string>;
      /**
       * The client the calls go through: `raw`, wirecost's thin JSON-RPC client (also when the
       * matrix has no `client` axis), or `sdk`, an MCP TypeScript SDK client generation: the target's
       * own (`client: sdk`, its `sdkClient:`) or one named by value (`client: sdk-v1` / `sdk-v2`).
       */
      client: "raw" | "sdk";
      /** The SDK client generation (v1 or v2), set for client `sdk`. */
      sdkClient?: SdkClientName;
    }
  | {
      id: string;
      kind: "harness";
      label: string;
      target: string;
      transport: string;
      revision: string;
      command: TargetCommand;
      package: string;
      values: Record<string, string>;
      /**
       * Set when the harness is a client declared under `clients:` driving another server: the
       * configuration's target's command for `transport`, given to the harness as the argv items
       * of `{stdio}` or started by wirecost for `{url}` (README "Per-call harnesses in other
       * languages", "Another server").
       */
      drives?: TargetCommand;
      /** How the declared client's own process is profiled when it drives another server (its `profile:`); undefined: timed only. */
      clientProfile?: DeclaredClient["profile"];
    };

interface RawTiming {
  trials: number;
  warmupCalls: number;
  calls: number;
  call: { query: string; limit: number };
  setupRepeats: number;
  loop: { calls: number; repeats: number };
  payload: { limits: number[]; calls: number };
  profileHz?: number;
  assumptions: PercallAssumptions;
}

/**
 * The per-call parameters of `matrix`, or undefined when its `measures:` does not name percall.
 * The matrix must come from {@link loadMatrix} (which validated the file against the schema).
 */
export function percallOptions(matrix: Matrix): PercallOptions | undefined {
  if (!(matrix.measures ?? []).includes("percall")) return undefined;
  const t = matrix.timing as unknown as RawTiming;
  return {
    trials: t.trials,
    calls: t.calls,
    warmupCalls: t.warmupCalls,
    query: t.call.query,
    limit: t.call.limit,
    setupRepeats: t.setupRepeats,
    loopCalls: t.loop.calls,
    loopRepeats: t.loop.repeats,
    payloadLimits: t.payload.limits,
    payloadCalls: t.payload.calls,
    profileHz: t.profileHz ?? DEFAULT_PROFILE_HZ,
    timeoutMs: matrix.timeoutMs,
    assumptions: {
      agentTurnSeconds: t.assumptions.agentTurnSeconds,
      note: t.assumptions.note,
      turnShareRows: t.assumptions.turnShareRows.map((r) => ({ label: r.label, calls: r.calls, turns: r.turns })),
    },
  };
}

/**
 * The path an expanded configuration stands for. Labels: the target's label for an in-process
 * target or an in-process harness; `<target label>, <transport>, <revision>` for an MCP one or a
 * harness over a transport, and `…, <sdkClient> SDK client` when the target's own SDK client
 * drives it (`client` axis value `sdk`, or a generation by value: `sdk-v1`, `sdk-v2`), and
 * `…, <client label>` when a client declared under `clients:` (a harness) drives it.
 * @throws Error on client `sdk` for a target naming no `sdkClient:` or a client axis value other
 *   than raw, sdk, sdk-v1 and sdk-v2 (expand refuses the first at the matrix's line; the second is
 *   a matrix this mode cannot run)
 */
export function percallPath(matrix: Matrix, c: Configuration): PercallPath {
  const v = c.values;
  const t = targetOf(matrix, v)!;
  if (t.inProcess) return { id: c.id, kind: "direct", label: t.label, target: t.name, values: v };
  const declared = v.client !== undefined ? matrix.clients?.[v.client] : undefined;
  if (declared) {
    const transport = v.transport as "stdio" | "http";
    return {
      id: c.id,
      kind: "harness",
      label: `${t.label}, ${transport}, ${v.revision}, ${declared.label}`,
      target: t.name,
      transport,
      revision: v.revision!,
      command: declared.commands[transport]!,
      package: t.package ?? "",
      values: v,
      drives: t.commands[transport]!,
      ...(declared.profile ? { clientProfile: declared.profile } : {}),
    };
  }
  if (t.harness) {
    const tr = v.transport!;
    return {
      id: c.id,
      kind: "harness",
      label: tr === "in-process" ? t.label : `${t.label}, ${tr}, ${v.revision}`,
      target: t.name,
      transport: tr,
      revision: v.revision!,
      command: t.harness.command,
      package: t.package ?? "",
      values: v,
    };
  }
  const transport = v.transport as "stdio" | "http";
  const client = v.client ?? "raw";
  const generation = sdkGenerationOf(client, t.sdkClient);
  if (client !== "raw" && generation === undefined)
    throw new Error(
      `per-call configuration ${c.id}: client ${client} is not one the per-call engine drives (raw, sdk-v1, sdk-v2, or sdk on a target naming sdkClient)`,
    );
  return {
    id: c.id,
    kind: "mcp",
    client: generation === undefined ? "raw" : "sdk",
    ...(generation !== undefined ? { sdkClient: generation } : {}),
    label: `${t.label}, ${transport}, ${v.revision}${generation !== undefined ? `, ${generation} SDK client` : ""}`,
    target: t.name,
    transport,
    revision: v.revision!,
    command: t.commands[transport]!,
    package: t.package ?? "",
    values: v,
  };
}
