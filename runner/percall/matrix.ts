/**
 * The per-call matrix file (e.g. matrices/mcp-per-call-overhead.yaml): a top-level `percall:` block
 * with the call counts, the paths (direct, or target × transport × revision) and the declared
 * assumptions. `isPercallMatrix` tells `wirecost run` to hand the file to this engine.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { UserError } from "../errors.js";

/** One measured path: the in-process call, or one target over one transport and revision. */
export type PercallPath =
  | { id: string; kind: "direct"; label: string }
  | { id: string; kind: "mcp"; label: string; target: string; transport: "stdio" | "http"; revision: string };

/** A target process: argv (transport flags are appended), the package it runs and its pinned version. */
export interface PercallTarget {
  label: string;
  argv: string[];
  package: string;
  version: string;
}

/** One row of the turn-share table: `calls` tool calls spread over `turns` agent turns (0 = no turn around them). */
export interface TurnShareRow {
  label: string;
  calls: number;
  turns: number;
}

/** The whole per-call matrix, validated. */
export interface PercallMatrix {
  file: string;
  title: string;
  /** Trials per path; each trial is a fresh session. */
  trials: number;
  /** Timed calls per trial. */
  calls: number;
  /** Calls discarded after the session's first call (which is always discarded), before timing. */
  warmupCalls: number;
  /** The measured call: `search_tickets` arguments. */
  query: string;
  limit: number;
  /** Extra start-ups per path timed for setup only. */
  setupRepeats: number;
  /** Loop sizes: calls per loop and timed repeats per trial (one more is discarded first). */
  loopCalls: number;
  loopRepeats: number;
  /** Payload sweep: `limit` values and timed calls per value. */
  payloadLimits: number[];
  payloadCalls: number;
  timeoutMs: number;
  /** Declared assumptions, carried into the results unchanged. */
  assumptions: { agentTurnSeconds: number; turnShareRows: TurnShareRow[]; note: string };
  paths: PercallPath[];
  targets: Record<string, PercallTarget>;
}

type Obj = Record<string, unknown>;

/** True when the YAML document at `file` has a top-level `percall:` block. */
export function isPercallMatrix(file: string): boolean {
  try {
    const doc = parse(readFileSync(file, "utf8")) as unknown;
    return typeof doc === "object" && doc !== null && "percall" in doc;
  } catch {
    return false;
  }
}

/**
 * Read and validate a per-call matrix.
 * @throws UserError naming the file and key for a missing or mistyped field, an unknown target,
 *   or a path without target/transport/revision
 */
export function loadPercallMatrix(file: string): PercallMatrix {
  const doc = parse(readFileSync(file, "utf8")) as Obj;
  const fail = (key: string, problem: string, fix: string): never => {
    throw new UserError(`${file}: ${key}: ${problem} — ${fix}`);
  };
  const obj = (v: unknown, key: string): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : fail(key, "is not a mapping", "write it as `key: value` lines"));
  const int = (o: Obj, k: string, where: string, min = 1): number => {
    const v = o[k];
    return Number.isInteger(v) && (v as number) >= min ? (v as number) : fail(`${where}.${k}`, `is ${JSON.stringify(v)}, not a whole number >= ${min}`, `set ${k}: to a whole number >= ${min}`);
  };
  const str = (o: Obj, k: string, where: string): string => (typeof o[k] === "string" && o[k] !== "" ? (o[k] as string) : fail(`${where}.${k}`, "is missing or not a string", `set ${k}: to a string`));
  const pc = obj(doc.percall, "percall");
  const loop = obj(pc.loop, "percall.loop");
  const payload = obj(pc.payload, "percall.payload");
  const call = obj(pc.call, "percall.call");
  const asm = obj(pc.assumptions, "percall.assumptions");
  const limits = Array.isArray(payload.limits) ? payload.limits : fail("percall.payload.limits", "is not a list", "write e.g. limits: [2, 10, 40]");
  const rows = Array.isArray(asm.turnShareRows) ? asm.turnShareRows : fail("percall.assumptions.turnShareRows", "is not a list", "write a list of {label, calls, turns}");
  const turn = asm.agentTurnSeconds;
  if (typeof turn !== "number" || !(turn > 0)) fail("percall.assumptions.agentTurnSeconds", `is ${JSON.stringify(turn)}`, "set it to a number of seconds > 0");
  const targetsObj = obj(doc.targets, "targets");
  const targets: Record<string, PercallTarget> = {};
  for (const [name, v] of Object.entries(targetsObj)) {
    const t = obj(v, `targets.${name}`);
    const argv = Array.isArray(t.argv) && t.argv.every((a) => typeof a === "string") && t.argv.length > 0 ? (t.argv as string[]) : fail(`targets.${name}.argv`, "is not a list of strings", "write e.g. argv: [node, dist/targets/mcp-ts-v2/server.js]");
    targets[name] = { label: str(t, "label", `targets.${name}`), argv, package: str(t, "package", `targets.${name}`), version: str(t, "version", `targets.${name}`) };
  }
  const pathList = Array.isArray(doc.paths) ? doc.paths : fail("paths", "is not a list", "list the paths: {id: direct, kind: direct} and {id, kind: mcp, target, transport, revision}");
  const paths = pathList.map((v, i): PercallPath => {
    const p = obj(v, `paths[${i}]`);
    const id = str(p, "id", `paths[${i}]`);
    const label = str(p, "label", `paths[${i}]`);
    if (p.kind === "direct") return { id, kind: "direct", label };
    if (p.kind !== "mcp") return fail(`paths[${i}].kind`, `is ${JSON.stringify(p.kind)}`, "set kind: direct or kind: mcp");
    const target = str(p, "target", `paths[${i}]`);
    if (!(target in targets)) fail(`paths[${i}].target`, `names ${target}, which targets: does not define`, `add targets.${target} or use one of ${Object.keys(targets).join(", ")}`);
    const transport = p.transport === "stdio" || p.transport === "http" ? p.transport : fail(`paths[${i}].transport`, `is ${JSON.stringify(p.transport)}`, "set transport: stdio or http");
    return { id, kind: "mcp", label, target, transport, revision: str(p, "revision", `paths[${i}]`) };
  });
  if (new Set(paths.map((p) => p.id)).size !== paths.length) fail("paths", "two paths share an id", "give every path its own id");
  return {
    file,
    title: str(doc, "title", "(top)"),
    trials: int(pc, "trials", "percall"),
    calls: int(pc, "calls", "percall"),
    warmupCalls: int(pc, "warmupCalls", "percall", 0),
    query: str(call, "query", "percall.call"),
    limit: int(call, "limit", "percall.call"),
    setupRepeats: int(pc, "setupRepeats", "percall", 0),
    loopCalls: int(loop, "calls", "percall.loop"),
    loopRepeats: int(loop, "repeats", "percall.loop"),
    payloadLimits: limits.map((l, i) => (Number.isInteger(l) && (l as number) >= 1 && (l as number) <= 1000 ? (l as number) : fail(`percall.payload.limits[${i}]`, `is ${JSON.stringify(l)}`, "use whole numbers from 1 to 1000"))),
    payloadCalls: int(payload, "calls", "percall.payload"),
    timeoutMs: int(pc, "timeoutSeconds", "percall") * 1000,
    assumptions: {
      agentTurnSeconds: turn as number,
      note: str(asm, "note", "percall.assumptions"),
      turnShareRows: rows.map((r, i) => {
        const o = obj(r, `percall.assumptions.turnShareRows[${i}]`);
        return { label: str(o, "label", `turnShareRows[${i}]`), calls: int(o, "calls", `turnShareRows[${i}]`), turns: int(o, "turns", `turnShareRows[${i}]`, 0) };
      }),
    },
    paths,
    targets,
  };
}
