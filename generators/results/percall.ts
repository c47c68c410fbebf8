/**
 * Per-call results, read from files only (written by `wirecost run` of a `measures: [percall]`
 * matrix, see runner/percall/files.ts):
 * - `percall.tsv`: one row per configuration (path) with who measured it (wirecost, or a harness
 *   in another language with its runtime and client), its status (a failed path carries its
 *   reason and no figures), its p50/p95/spread µs, setup and loop medians ms (empty loop cells:
 *   not measured), the measuring process's CPU per call µs (schema 4; empty: not measured) (its `reproduce` column, written by the runner, is not read: the page builds each
 *   row's command from the row's id and the matrix recorded in `percall-run.json`);
 * - `percall-payload.tsv`: per (configuration, limit): result bytes, p50/p95 µs (no rows: not measured);
 * - `percall-samples.tsv`: every sample (`config kind n metric value`), of which the page reads
 *   the per-trial p50s;
 * Schema 2 (before harnesses) is read too: its rows are all measured by wirecost and ok; schema 2
 * and 3 rows have no CPU per call.
 * - `percall-run.json`: title, matrix, parameters, declared assumptions, the runs that wrote rows.
 */
import { UserError } from "../../format/errors.js";
import { parseOptionalNumber } from "../../format/values.js";
import { columnIndex, field, readTsv, type TsvRow, type TsvTable } from "../../format/tsv.js";

import {
  PAYLOAD_COLUMNS,
  PERCALL_V2_COLUMNS,
  PERCALL_V3_COLUMNS,
  PERCALL_V4_COLUMNS,
  PERCALL_V5_COLUMNS,
  readPercallSamples,
  type PercallAssumptions,
  type PercallRunRecord,
  type PercallSettings,
  type TurnShareRow,
} from "../../format/percall.js";
import { RESULTS_FILES, resultsFile } from "../../format/layout.js";
import { PERCALL_READABLE_VERSIONS } from "../../format/schema.js";
import { readRunFile } from "../../format/run-files.js";
import { readBuilds, type TargetBuildInfo } from "../../format/builds.js";

const FIX = "run `npx wirecost run matrices/mcp-per-call-overhead.yaml --results DIR` first";

/** One turn-share row as declared in the matrix (an assumption). */
export type TurnShareInput = TurnShareRow;

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
  /**
   * The target whose MCP server answered the calls ("" in-process, or a harness naming none); a
   * schema-4 or older file's rows: their target.
   */
  server: string;
  transport: string;
  revision: string;
  label: string;
  /** `direct` for an in-process path (transport `in-process`), else `mcp`. */
  kind: "direct" | "mcp";
  /** Who timed the calls: wirecost itself (Node, its own client), or a harness in another language. */
  measuredBy: "wirecost" | "harness";
  /** Runtime the calls were timed in, e.g. `node v20.11.1`, `python 3.11.7` ("" when not recorded). */
  runtime: string;
  /**
   * Client the calls went through: `wirecost` (its thin JSON-RPC client), the target's own SDK
   * client in wirecost's process (`@modelcontextprotocol/client 2.4.0`), a harness's SDK
   * (`mcp 2.2.0`), or "" (in-process or not recorded).
   */
  client: string;
  /**
   * CPU time of the measuring process per timed call, µs (median over trials): on an MCP path the
   * client's own share, on the direct path the call itself; null when not recorded (harness rows,
   * schema 2 and 3 files).
   */
  clientCpuPerCallUs: number | null;
  /** Installed SDK version ("" for direct). */
  packageVersion: string;
  p50Us: number;
  p95Us: number;
  spreadUs: number;
  /** p50 of each trial, µs, in trial order (from `percall-samples.tsv`). */
  trialP50Us: number[];
  /** p95 of each trial, µs, in trial order (from `percall-samples.tsv`). */
  trialP95Us: number[];
  /** Mean of each trial's calls, µs, in trial order (from `percall-samples.tsv`; [] when not recorded). */
  trialMeanUs: number[];
  /** Setup medians over `samples` start-ups; null for direct. */
  setup: { samples: number; readyMs: number; openMs: number; listedMs: number; firstCallMs: number } | null;
  /** Null when not measured (harness paths). */
  loops: { sequentialMs: number; concurrentMs: number; batchMs: number } | null;
  /** Empty when not measured (harness paths). */
  payload: PayloadPoint[];
}

/** A path that failed (a harness run that gave no valid samples): no figures, the reason. */
export interface FailedPath {
  config: string;
  label: string;
  /** As {@link PercallRow}'s: where the failed path sits in the client × server grid. */
  server: string;
  transport: string;
  revision: string;
  client: string;
  measuredBy: "wirecost" | "harness";
  /** One line, e.g. `trial 1: harness exited 3: cannot open the database`. */
  reason: string;
}

/** One run that wrote rows into the folder (its `builds` are read with readBuilds). */
export type PercallRun = PercallRunRecord;

/** The file whose presence marks a per-call results folder. */
export const PERCALL_FILE = RESULTS_FILES.percall;

/** Everything the per-call page reads. */
export interface PercallResults {
  title: string;
  /** Matrix file as given to `wirecost run`. */
  matrix: string;
  settings: PercallSettings;
  assumptions: PercallAssumptions;
  runs: PercallRun[];
  /** Targets built before the runs (the latest run's record of each), with toolchain and resolved set. */
  builds: readonly TargetBuildInfo[];
  /** Measured rows in matrix order. */
  rows: PercallRow[];
  /** Failed paths in matrix order. */
  failed: FailedPath[];
  /** Every timed call's latency in µs by configuration, where the samples were kept (harness paths: `kind` `call`, metric `latency_us`). */
  callSamplesUs: ReadonlyMap<string, readonly number[]>;
  /** 1-minute load average recorded before each trial of every path (`kind` `trial`, metric `load1`), in file order. */
  trialLoad1: readonly number[];
}

/** A numeric cell; "" gives undefined. @throws UserError naming file:line (column) for anything else that is not a number */
function numberAt(table: TsvTable, row: TsvRow, col: (n: string) => number, name: string): number | undefined {
  return parseOptionalNumber(field(row, col(name)), table.file, row.line, name, FIX);
}

function required(table: TsvTable, row: TsvRow, col: (n: string) => number, name: string): number {
  const v = numberAt(table, row, col, name);
  if (v === undefined) throw new UserError({ file: table.file, line: row.line, key: name, problem: "empty", fix: FIX });
  return v;
}

/** The per-trial figures and kept calls of every path, from `percall-samples.tsv`. */
interface SampleSeries {
  trialP50: Map<string, number[]>;
  trialP95: Map<string, number[]>;
  trialMean: Map<string, number[]>;
  callSamples: Map<string, number[]>;
  trialLoad1: number[];
}

function sampleSeries(dir: string): SampleSeries {
  const s: SampleSeries = { trialP50: new Map(), trialP95: new Map(), trialMean: new Map(), callSamples: new Map(), trialLoad1: [] };
  const add = (m: Map<string, number[]>, config: string, v: number): void => void m.set(config, [...(m.get(config) ?? []), v]);
  for (const r of readPercallSamples(resultsFile(dir, "percallSamples"), FIX)) {
    if (r.kind === "call" && r.metric === "latency_us") {
      const list = s.callSamples.get(r.config) ?? [];
      list.push(r.value);
      s.callSamples.set(r.config, list);
    }
    if (r.kind !== "trial") continue;
    if (r.metric === "load1") s.trialLoad1.push(r.value);
    else if (r.metric === "p50_us") add(s.trialP50, r.config, r.value);
    else if (r.metric === "p95_us") add(s.trialP95, r.config, r.value);
    else if (r.metric === "mean_us") add(s.trialMean, r.config, r.value);
  }
  return s;
}

/** Each path's payload sweep, from `percall-payload.tsv`. */
function payloadPoints(dir: string): Map<string, PayloadPoint[]> {
  const payload = readTsv(resultsFile(dir, "percallPayload"), FIX);
  const pc = columnIndex(payload, PAYLOAD_COLUMNS);
  const points = new Map<string, PayloadPoint[]>();
  for (const r of payload.rows) {
    const c = field(r, pc("config"));
    const point = {
      limit: required(payload, r, pc, "limit"),
      resultBytes: required(payload, r, pc, "result_bytes"),
      p50Us: required(payload, r, pc, "p50_us"),
      p95Us: required(payload, r, pc, "p95_us"),
    };
    points.set(c, [...(points.get(c) ?? []), point]);
  }
  return points;
}

/** How a `percall.tsv` row is read at the folder's schema version: its columns, and the schema-3 text columns ("" before). */
interface PathTable {
  table: TsvTable;
  col: (name: string) => number;
  text: (r: TsvRow, name: string) => string;
  v4: boolean;
  v5: boolean;
}

function pathTable(dir: string, schemaVersion: number): PathTable {
  const table = readTsv(resultsFile(dir, "percall"), FIX);
  const v3 = schemaVersion >= 3;
  const v4 = schemaVersion >= 4;
  const v5 = schemaVersion >= 5;
  const col = columnIndex(table, [
    ...PERCALL_V2_COLUMNS,
    ...(v3 ? PERCALL_V3_COLUMNS : []),
    ...(v4 ? PERCALL_V4_COLUMNS : []),
    ...(v5 ? PERCALL_V5_COLUMNS : []),
  ]);
  return { table, col, text: (r, name) => (v3 ? field(r, col(name)) : ""), v4, v5 };
}

/** The loops of a row: all three cells, or none. @throws UserError when some are empty and some not */
function loopsOf(t: PathTable, r: TsvRow): PercallRow["loops"] {
  const cells = ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"].map((c) => numberAt(t.table, r, t.col, c));
  if (cells.some((x) => x === undefined) && cells.some((x) => x !== undefined))
    throw new UserError({ file: t.table.file, line: r.line, key: "loop_sequential_ms", problem: "some loop cells are empty and some are not", fix: FIX });
  return cells[0] === undefined ? null : { sequentialMs: cells[0], concurrentMs: cells[1]!, batchMs: cells[2]! };
}

/** The setup figures of a row, null when it recorded no setup sample. */
function setupOf(t: PathTable, r: TsvRow): PercallRow["setup"] {
  const n = (name: string): number => required(t.table, r, t.col, name);
  const samples = n("setup_samples");
  if (samples === 0) return null;
  return { samples, readyMs: n("setup_ready_ms"), openMs: n("setup_open_ms"), listedMs: n("setup_listed_ms"), firstCallMs: n("setup_first_call_ms") };
}

/**
 * One row of `percall.tsv`: a measured path, or a failed one with its reason.
 * @throws UserError naming the file, line and key of a bad `measured_by` or `status`, or an empty figure
 */
function pathRow(t: PathTable, r: TsvRow, series: SampleSeries, points: ReadonlyMap<string, PayloadPoint[]>): { row: PercallRow } | { failed: FailedPath } {
  const { table, col, text } = t;
  const config = field(r, col("config"));
  const measuredByText = text(r, "measured_by");
  if (!["", "wirecost", "harness"].includes(measuredByText))
    throw new UserError({ file: table.file, line: r.line, key: "measured_by", problem: `is \`${measuredByText}\`, not wirecost or harness`, fix: FIX });
  const measuredBy = measuredByText === "harness" ? "harness" : "wirecost";
  const status = text(r, "status") || "ok";
  const transport = field(r, col("transport"));
  const server = t.v5 ? field(r, col("server")) : transport === "in-process" ? "" : field(r, col("target"));
  const common = {
    config,
    label: field(r, col("label")),
    server,
    transport,
    revision: field(r, col("revision")),
    client: text(r, "client"),
    measuredBy,
  } as const;
  if (status === "failed") return { failed: { ...common, reason: text(r, "reason") || "no reason recorded" } };
  if (status !== "ok") throw new UserError({ file: table.file, line: r.line, key: "status", problem: `is \`${status}\`, not ok or failed`, fix: FIX });
  const n = (name: string): number => required(table, r, col, name);
  return {
    row: {
      ...common,
      target: field(r, col("target")),
      kind: transport === "in-process" ? "direct" : "mcp",
      runtime: text(r, "runtime"),
      packageVersion: field(r, col("package_version")),
      p50Us: n("p50_us"),
      p95Us: n("p95_us"),
      spreadUs: n("spread_us"),
      clientCpuPerCallUs: t.v4 ? (numberAt(table, r, col, "client_cpu_per_call_us") ?? null) : null,
      trialP50Us: series.trialP50.get(config) ?? [],
      trialP95Us: series.trialP95.get(config) ?? [],
      trialMeanUs: series.trialMean.get(config) ?? [],
      setup: setupOf(t, r),
      loops: loopsOf(t, r),
      payload: points.get(config) ?? [],
    },
  };
}

/**
 * Read a per-call results folder.
 * @throws UserError naming the file (and line, column or key) when a file is missing or malformed,
 *   of another schema version, or has no direct (in-process) row
 */
export function loadPercall(dir: string): PercallResults {
  const runFile = resultsFile(dir, "percallRun");
  const run = readRunFile(runFile, PERCALL_READABLE_VERSIONS, FIX) as unknown as Omit<PercallResults, "rows"> & { schemaVersion: number };
  const series = sampleSeries(dir);
  const points = payloadPoints(dir);
  const t = pathTable(dir, run.schemaVersion);
  const rows: PercallRow[] = [];
  const failed: FailedPath[] = [];
  for (const r of t.table.rows) {
    const got = pathRow(t, r, series, points);
    if ("row" in got) rows.push(got.row);
    else failed.push(got.failed);
  }
  if (!rows.some((r) => r.kind === "direct" && r.measuredBy === "wirecost"))
    throw new UserError({
      file: t.table.file,
      key: "transport",
      problem: "has no measured in-process (direct) row of wirecost's own",
      fix: "keep the direct target in the matrix and re-run it (or add --only direct-in-process)",
    });
  const builds = new Map<string, TargetBuildInfo>();
  for (const r of run.runs) for (const b of readBuilds(r.builds, runFile)) builds.set(b.target, b);
  return {
    title: run.title,
    matrix: run.matrix,
    settings: run.settings,
    assumptions: run.assumptions,
    runs: run.runs,
    builds: [...builds.values()].sort((a, b) => (a.target < b.target ? -1 : 1)),
    rows,
    failed,
    callSamplesUs: series.callSamples,
    trialLoad1: series.trialLoad1,
  };
}
