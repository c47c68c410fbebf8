/**
 * The stage vocabulary of a per-call stage table (the seed write-up's "where the milliseconds go"
 * table, `../shared/seeds/mcp-per-call-overhead.txt`): stage ids, their labels, the kind each one
 * adds to (the seed's subtotals), and the process it usually runs in. Stage rules
 * (runner/attribution/rules.ts) may name every {@link RULE_STAGES} id; the measured rows (`monitor`,
 * `kernel`, `hand-off`), `unclassified` and `not-attributed` are made by the attribution itself.
 */
import { STAGE_KIND_ORDER, type StageKind } from "../../format/attribution.js";

/** What a stage adds up to in the subtotals (format/attribution.ts owns the kinds, as the stage files record them). */
export type { StageKind };

/** Where a row's time is spent: in the client process, the server process, or between them (neither on a CPU). */
export type StageProcess = "client" | "server" | "between";

/** One stage of the vocabulary. */
export interface StageDef {
  id: string;
  /** Words for the page. */
  label: string;
  kind: StageKind;
  /** Where it usually runs; a row's process is where its samples were taken. */
  usually: StageProcess | "either";
}

/** The stage vocabulary, in the seed table's order (a stage table lists rows in this order). */
export const STAGES: readonly StageDef[] = [
  { id: "serialise", label: "serialise the arguments", kind: "serialisation", usually: "client" },
  { id: "build-validate", label: "build and validate the request", kind: "validation", usually: "client" },
  { id: "transport", label: "transport (user-side pipe and socket I/O)", kind: "transport", usually: "either" },
  { id: "parse-validate", label: "parse and validate the request", kind: "validation", usually: "server" },
  { id: "dispatch", label: "dispatch and coerce the arguments", kind: "dispatch", usually: "server" },
  { id: "work", label: "the work (the tool's own query)", kind: "work", usually: "server" },
  { id: "build-result", label: "build and serialise the result", kind: "serialisation", usually: "server" },
  { id: "parse-result", label: "parse and validate the result", kind: "validation", usually: "client" },
  { id: "schedule", label: "schedule (event loop, async runtime)", kind: "scheduling", usually: "either" },
  { id: "monitor", label: "runtime monitor thread (Go sysmon, measured, never sampled)", kind: "scheduling", usually: "either" },
  { id: "gc", label: "garbage collector", kind: "runtime", usually: "either" },
  { id: "measure", label: "the stopwatch's own loop (timing code)", kind: "measurement", usually: "client" },
  { id: "kernel", label: "kernel (system CPU time, measured)", kind: "kernel", usually: "either" },
  { id: "hand-off", label: "hand-off (neither process on a CPU: transfer, wake-ups)", kind: "transport", usually: "between" },
  { id: "unclassified", label: "unclassified (no stage rule matched)", kind: "unclassified", usually: "either" },
  { id: "not-attributed", label: "not attributed (no profile of this process)", kind: "not attributed", usually: "either" },
];

/** Stages made by the attribution, not by rules. */
export const MEASURED_STAGES: readonly string[] = ["monitor", "kernel", "hand-off", "unclassified", "not-attributed"];

/**
 * The rule stage of samples that are not on a CPU although the sampler took them (a sampler
 * that cannot tell an idle thread, e.g. py-spy on a thread blocked in a C call): they are left out
 * of the shares (the process's measured CPU is split over its other samples) and form no row.
 */
export const IDLE_STAGE = "idle";

/** Stage ids a stage rule may name. */
export const RULE_STAGES: readonly string[] = [...STAGES.map((s) => s.id).filter((id) => !MEASURED_STAGES.includes(id)), IDLE_STAGE];

/** The kinds in the order the page lists subtotals. */
export const KIND_ORDER: readonly StageKind[] = STAGE_KIND_ORDER;

/**
 * The definition of a stage id.
 * @throws Error on an id outside {@link STAGES} (rules are checked at load, so this is a bug)
 */
export function stageDef(id: string): StageDef {
  const s = STAGES.find((x) => x.id === id);
  if (!s) throw new Error(`unknown stage id ${id}`);
  return s;
}
