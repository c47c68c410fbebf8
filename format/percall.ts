/**
 * The per-call results files (format/layout.ts names them): their columns and the shape of
 * `percall-run.json`. The runner (runner/percall/files.ts) writes them; generators/results/percall.ts
 * reads them. Schema versions: format/schema.ts.
 */
import type { BuildProvenance } from "./schema.js";
import { columnIndex, field, readTsv } from "./tsv.js";
import { parseNumber } from "./values.js";

/** Columns of `percall.tsv`, in order (units in the names). */
export const PERCALL_COLUMNS = [
  "config",
  "target",
  "transport",
  "revision",
  "label",
  "server",
  "measured_by",
  "runtime",
  "client",
  "package_version",
  "status",
  "trials",
  "p50_us",
  "p95_us",
  "spread_us",
  "client_cpu_per_call_us",
  "setup_samples",
  "setup_ready_ms",
  "setup_open_ms",
  "setup_listed_ms",
  "setup_first_call_ms",
  "loop_sequential_ms",
  "loop_concurrent_ms",
  "loop_batch_ms",
  "reason",
] as const;

/** Columns schema 3 added to `percall.tsv` (a schema-2 file lacks them). */
export const PERCALL_V3_COLUMNS: readonly string[] = ["measured_by", "runtime", "client", "status", "reason"];

/**
 * Columns schema 4 added to `percall.tsv`: the measuring process's CPU time per timed call, µs
 * (user + system, `process.cpuUsage()` around the timed calls ÷ calls; empty for a harness row,
 * whose calls ran in another process). A schema-3 file lacks it.
 */
export const PERCALL_V4_COLUMNS: readonly string[] = ["client_cpu_per_call_us"];

/**
 * Columns schema 5 added to `percall.tsv`: the target whose MCP server answered the row's calls
 * (the configuration's target, a harness's `harness.server`, or the target a client declared under
 * `clients:` drove; empty in-process). A schema-4 file lacks it: its rows' server is their target.
 */
export const PERCALL_V5_COLUMNS: readonly string[] = ["server"];

/** The columns of `percall.tsv` a reader requires of a schema-2 file: all but schema 3's, 4's and 5's and `trials` (written, not read). */
export const PERCALL_V2_COLUMNS: readonly string[] = PERCALL_COLUMNS.filter(
  (c) => c !== "trials" && !PERCALL_V3_COLUMNS.includes(c) && !PERCALL_V4_COLUMNS.includes(c) && !PERCALL_V5_COLUMNS.includes(c),
);

/** Columns of `percall-payload.tsv`, in order. */
export const PAYLOAD_COLUMNS = ["config", "limit", "result_bytes", "p50_us", "p95_us"] as const;

/** Columns of `percall-samples.tsv`, in order (long format). */
export const SAMPLE_COLUMNS = ["config", "kind", "n", "metric", "value"] as const;

/**
 * One row of `percall-samples.tsv`: kind `trial` (a trial's `p50_us`, `p95_us`, `p99_us`,
 * `mean_us`, `calls`, `load1`; n = the trial), `call` (one timed call's `latency_us`; n = the call),
 * `setup` and the loop kinds (n = the sample); values in the metric's unit.
 */
export interface PercallSampleRow {
  config: string;
  kind: string;
  n: number;
  metric: string;
  value: number;
  /** 1-based line in the file, for messages. */
  line: number;
}

/**
 * Read `percall-samples.tsv`, rows in file order (format/layout.ts `RESULTS_FILES.percallSamples`):
 * every reader's one parse of it (the per-call page, `wirecost compare`).
 * @param fix the fix a message gives
 * @throws UserError naming the file and line when the file is missing, lacks a column, or an `n` or
 *   a value is not a number
 */
export function readPercallSamples(file: string, fix: string): PercallSampleRow[] {
  const table = readTsv(file, fix);
  const col = columnIndex(table, SAMPLE_COLUMNS);
  return table.rows.map((r) => {
    const number = (key: "n" | "value"): number => parseNumber(field(r, col(key)), file, r.line, key, fix);
    return {
      config: field(r, col("config")),
      kind: field(r, col("kind")),
      n: number("n"),
      metric: field(r, col("metric")),
      value: number("value"),
      line: r.line,
    };
  });
}

/** One turn-share row as declared in the matrix (an assumption). */
export interface TurnShareRow {
  label: string;
  /** Tool calls in the row. */
  calls: number;
  /** Agent turns around them; 0 = a loop in the caller's own code, no model call. */
  turns: number;
}

/** Assumptions declared in the matrix, not measured. */
export interface PercallAssumptions {
  /** Seconds one agent turn (a model call) is taken to cost. */
  agentTurnSeconds: number;
  note: string;
  turnShareRows: TurnShareRow[];
}

/** The per-call parameters as recorded (times ms, counts calls). */
export interface PercallSettings {
  trials: number;
  calls: number;
  warmupCalls: number;
  query: string;
  limit: number;
  resultBytes: number;
  setupRepeats: number;
  loopCalls: number;
  loopRepeats: number;
  payloadLimits: number[];
  payloadCalls: number;
  /** Samples per second asked of the profiled trial's V8 and self-sampling profilers; absent in folders written before the setting (they sampled at 997). */
  profileHz?: number;
  percentileMethod: string;
}

/** One run that wrote rows into the folder. Times ISO 8601 UTC; loads are 1/5/15-minute averages. */
export interface PercallRunRecord {
  command: string;
  /** Configuration ids this run measured. */
  configurations: string[];
  matrixSha256: string;
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
  tool: { name: string; version: string };
  /** Built targets' toolchains and resolved sets; absent when none was built. */
  builds?: Record<string, BuildProvenance>;
}

/** What `percall-run.json` holds. */
export interface PercallRunFile {
  schemaVersion: number;
  title: string;
  /** Matrix file as given on the command line (relative to where the run started). */
  matrix: string;
  settings: PercallSettings;
  /** Declared in the matrix, not measured. */
  assumptions: PercallAssumptions;
  runs: PercallRunRecord[];
}
