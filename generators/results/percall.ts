/**
 * Per-call results, read from files only (written by `wirecost run` of a `measures: [percall]`
 * matrix, see runner/percall/files.ts):
 * - `percall.tsv`: one row per configuration (path) with its p50/p95/spread µs, setup and loop
 *   medians ms (its `reproduce` column, written by the runner, is not read: the page builds each
 *   row's command from the row's id and the matrix recorded in `percall-run.json`);
 * - `percall-payload.tsv`: per (configuration, limit): result bytes, p50/p95 µs;
 * - `percall-samples.tsv`: every sample (`config kind n metric value`), of which the page reads
 *   the per-trial p50s;
 * - `percall-run.json`: title, matrix, parameters, declared assumptions, the runs that wrote rows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { columnIndex, field, readTsv, type TsvRow, type TsvTable } from "../tsv.js";

/** The file whose presence marks a per-call results folder. */
export const PERCALL_FILE = "percall.tsv";

/** Schema version of the per-call files this reader understands. */
export const PERCALL_SCHEMA_VERSION = 2;

const FIX = "run `npx wirecost run matrices/mcp-per-call-overhead.yaml --results DIR` first";

/** One turn-share row as declared in the matrix (an assumption). */
export interface TurnShareInput {
  label: string;
  /** Tool calls in the row. */
  calls: number;
  /** Agent turns around them; 0 = a loop in the caller's own code, no model call. */
  turns: number;
}

/** One payload-sweep point of a configuration: result text bytes and p50/p95 µs (median over trials). */
export interface PayloadPoint {
  limit: number;
  resultBytes: number;
  p50Us: number;
  p95Us: number;
}

/** One row of `percall.tsv`, typed. Times: µs for latency, ms for setup and loops. */
export interface PercallRow {
  config: string;
  target: string;
  transport: string;
  revision: string;
  label: string;
  /** `direct` for the in-process path (transport `in-process`), else `mcp`. */
  kind: "direct" | "mcp";
  /** Installed SDK version ("" for direct). */
  packageVersion: string;
  p50Us: number;
  p95Us: number;
  spreadUs: number;
  /** p50 of each trial, µs, in trial order (from `percall-samples.tsv`). */
  trialP50Us: number[];
  /** Setup medians over `samples` start-ups; null for direct. */
  setup: { samples: number; readyMs: number; openMs: number; listedMs: number; firstCallMs: number } | null;
  loops: { sequentialMs: number; concurrentMs: number; batchMs: number };
  payload: PayloadPoint[];
}

/** One run that wrote rows into the folder (see runner/percall/files.ts). */
export interface PercallRun {
  command: string;
  configurations: string[];
  startedAt: string;
  endedAt: string;
  node: string;
  os: string;
  kernel: string;
  cpuModel: string;
  cores: number;
  loadavgStart: number[];
  loadavgEnd: number[];
  git: { commit: string; dirty: boolean };
}

/** Everything the per-call page reads. */
export interface PercallResults {
  title: string;
  /** Matrix file as given to `wirecost run`. */
  matrix: string;
  settings: { trials: number; calls: number; warmupCalls: number; query: string; limit: number; resultBytes: number; setupRepeats: number; loopCalls: number; loopRepeats: number; payloadLimits: number[]; payloadCalls: number; percentileMethod: string };
  assumptions: { agentTurnSeconds: number; note: string; turnShareRows: TurnShareInput[] };
  runs: PercallRun[];
  /** Rows in matrix order. */
  rows: PercallRow[];
}

/** A numeric cell; "" gives undefined. @throws UserError naming file:line (column) for anything else that is not a number */
function numberAt(table: TsvTable, row: TsvRow, col: (n: string) => number, name: string): number | undefined {
  const text = field(row, col(name));
  if (text === "") return undefined;
  const v = Number(text);
  if (!Number.isFinite(v)) throw new UserError({ file: table.file, line: row.line, key: name, problem: `not a number: \`${text}\``, fix: FIX });
  return v;
}

function required(table: TsvTable, row: TsvRow, col: (n: string) => number, name: string): number {
  const v = numberAt(table, row, col, name);
  if (v === undefined) throw new UserError({ file: table.file, line: row.line, key: name, problem: "empty", fix: FIX });
  return v;
}

/**
 * Read a per-call results folder.
 * @throws UserError naming the file (and line, column or key) when a file is missing or malformed,
 *   of another schema version, or has no direct (in-process) row
 */
export function loadPercall(dir: string): PercallResults {
  const runFile = join(dir, "percall-run.json");
  let run: Omit<PercallResults, "rows"> & { schemaVersion: number };
  try {
    run = JSON.parse(readFileSync(runFile, "utf8")) as typeof run;
  } catch (e) {
    throw new UserError({ file: runFile, problem: (e as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : `not JSON (${(e as Error).message})`, fix: FIX });
  }
  if (run.schemaVersion !== PERCALL_SCHEMA_VERSION) throw new UserError({ file: runFile, key: "schemaVersion", problem: `is ${String(run.schemaVersion)}, this page reads ${PERCALL_SCHEMA_VERSION}`, fix: "re-run the matrix with this version of wirecost" });

  const samples = readTsv(join(dir, "percall-samples.tsv"), FIX);
  const sc = columnIndex(samples, ["config", "kind", "n", "metric", "value"]);
  const trialP50 = new Map<string, number[]>();
  for (const r of samples.rows) {
    if (field(r, sc("kind")) !== "trial" || field(r, sc("metric")) !== "p50_us") continue;
    const c = field(r, sc("config"));
    trialP50.set(c, [...(trialP50.get(c) ?? []), required(samples, r, sc, "value")]);
  }

  const payload = readTsv(join(dir, "percall-payload.tsv"), FIX);
  const pc = columnIndex(payload, ["config", "limit", "result_bytes", "p50_us", "p95_us"]);
  const points = new Map<string, PayloadPoint[]>();
  for (const r of payload.rows) {
    const c = field(r, pc("config"));
    points.set(c, [...(points.get(c) ?? []), { limit: required(payload, r, pc, "limit"), resultBytes: required(payload, r, pc, "result_bytes"), p50Us: required(payload, r, pc, "p50_us"), p95Us: required(payload, r, pc, "p95_us") }]);
  }

  const table = readTsv(join(dir, PERCALL_FILE), FIX);
  const names = ["config", "target", "transport", "revision", "label", "package_version", "p50_us", "p95_us", "spread_us", "setup_samples", "setup_ready_ms", "setup_open_ms", "setup_listed_ms", "setup_first_call_ms", "loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"];
  const col = columnIndex(table, names);
  const rows = table.rows.map((r): PercallRow => {
    const config = field(r, col("config"));
    const n = (name: string): number => required(table, r, col, name);
    const samplesN = n("setup_samples");
    return {
      config,
      target: field(r, col("target")),
      transport: field(r, col("transport")),
      revision: field(r, col("revision")),
      label: field(r, col("label")),
      kind: field(r, col("transport")) === "in-process" ? "direct" : "mcp",
      packageVersion: field(r, col("package_version")),
      p50Us: n("p50_us"),
      p95Us: n("p95_us"),
      spreadUs: n("spread_us"),
      trialP50Us: trialP50.get(config) ?? [],
      setup: samplesN > 0 ? { samples: samplesN, readyMs: n("setup_ready_ms"), openMs: n("setup_open_ms"), listedMs: n("setup_listed_ms"), firstCallMs: n("setup_first_call_ms") } : null,
      loops: { sequentialMs: n("loop_sequential_ms"), concurrentMs: n("loop_concurrent_ms"), batchMs: n("loop_batch_ms") },
      payload: points.get(config) ?? [],
    };
  });
  if (!rows.some((r) => r.kind === "direct")) throw new UserError({ file: table.file, key: "transport", problem: "has no in-process (direct) row", fix: "keep the direct target in the matrix and re-run it (or add --only direct-in-process)" });
  return { title: run.title, matrix: run.matrix, settings: run.settings, assumptions: run.assumptions, runs: run.runs, rows };
}
