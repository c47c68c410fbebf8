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
  const runFile = resultsFile(dir, "percallRun");
  const run = readRunFile(runFile, PERCALL_READABLE_VERSIONS, FIX) as unknown as Omit<PercallResults, "rows"> & { schemaVersion: number };

  const trialP50 = new Map<string, number[]>();
  const trialP95 = new Map<string, number[]>();
  const trialMean = new Map<string, number[]>();
  const callSamples = new Map<string, number[]>();
  const trialLoad1: number[] = [];
  const add = (m: Map<string, number[]>, config: string, v: number): void => void m.set(config, [...(m.get(config) ?? []), v]);
  for (const r of readPercallSamples(resultsFile(dir, "percallSamples"), FIX)) {
    if (r.kind === "call" && r.metric === "latency_us") {
      const list = callSamples.get(r.config) ?? [];
      list.push(r.value);
      callSamples.set(r.config, list);
    }
    if (r.kind !== "trial") continue;
    if (r.metric === "load1") trialLoad1.push(r.value);
    else if (r.metric === "p50_us") add(trialP50, r.config, r.value);
    else if (r.metric === "p95_us") add(trialP95, r.config, r.value);
    else if (r.metric === "mean_us") add(trialMean, r.config, r.value);
  }

  const payload = readTsv(resultsFile(dir, "percallPayload"), FIX);
  const pc = columnIndex(payload, PAYLOAD_COLUMNS);
  const points = new Map<string, PayloadPoint[]>();
  for (const r of payload.rows) {
    const c = field(r, pc("config"));
    points.set(c, [
      ...(points.get(c) ?? []),
      {
        limit: required(payload, r, pc, "limit"),
        resultBytes: required(payload, r, pc, "result_bytes"),
        p50Us: required(payload, r, pc, "p50_us"),
        p95Us: required(payload, r, pc, "p95_us"),
      },
    ]);
  }

  const table = readTsv(resultsFile(dir, "percall"), FIX);
  const v3 = run.schemaVersion >= 3;
  const v4 = run.schemaVersion >= 4;
  const v5 = run.schemaVersion >= 5;
  const col = columnIndex(table, [
    ...PERCALL_V2_COLUMNS,
    ...(v3 ? PERCALL_V3_COLUMNS : []),
    ...(v4 ? PERCALL_V4_COLUMNS : []),
    ...(v5 ? PERCALL_V5_COLUMNS : []),
  ]);
  /** A schema-3 text column ("" in schema 2 and in rows merged from it). */
  const text = (r: TsvRow, name: string): string => (v3 ? field(r, col(name)) : "");
  const rows: PercallRow[] = [];
  const failed: FailedPath[] = [];
  for (const r of table.rows) {
    const config = field(r, col("config"));
    const n = (name: string): number => required(table, r, col, name);
    const measuredByText = text(r, "measured_by");
    if (!["", "wirecost", "harness"].includes(measuredByText))
      throw new UserError({ file: table.file, line: r.line, key: "measured_by", problem: `is \`${measuredByText}\`, not wirecost or harness`, fix: FIX });
    const measuredBy = measuredByText === "harness" ? "harness" : "wirecost";
    const status = text(r, "status") || "ok";
    const transport = field(r, col("transport"));
    const server = v5 ? field(r, col("server")) : transport === "in-process" ? "" : field(r, col("target"));
    if (status === "failed") {
      failed.push({
        config,
        label: field(r, col("label")),
        server,
        transport,
        revision: field(r, col("revision")),
        client: text(r, "client"),
        measuredBy,
        reason: text(r, "reason") || "no reason recorded",
      });
      continue;
    }
    if (status !== "ok") throw new UserError({ file: table.file, line: r.line, key: "status", problem: `is \`${status}\`, not ok or failed`, fix: FIX });
    const samplesN = n("setup_samples");
    const loopCells = ["loop_sequential_ms", "loop_concurrent_ms", "loop_batch_ms"].map((c) => numberAt(table, r, col, c));
    if (loopCells.some((x) => x === undefined) && loopCells.some((x) => x !== undefined))
      throw new UserError({ file: table.file, line: r.line, key: "loop_sequential_ms", problem: "some loop cells are empty and some are not", fix: FIX });
    rows.push({
      config,
      target: field(r, col("target")),
      server,
      transport: field(r, col("transport")),
      revision: field(r, col("revision")),
      label: field(r, col("label")),
      kind: field(r, col("transport")) === "in-process" ? "direct" : "mcp",
      measuredBy,
      runtime: text(r, "runtime"),
      client: text(r, "client"),
      packageVersion: field(r, col("package_version")),
      p50Us: n("p50_us"),
      p95Us: n("p95_us"),
      spreadUs: n("spread_us"),
      clientCpuPerCallUs: v4 ? (numberAt(table, r, col, "client_cpu_per_call_us") ?? null) : null,
      trialP50Us: trialP50.get(config) ?? [],
      trialP95Us: trialP95.get(config) ?? [],
      trialMeanUs: trialMean.get(config) ?? [],
      setup:
        samplesN > 0
          ? {
              samples: samplesN,
              readyMs: n("setup_ready_ms"),
              openMs: n("setup_open_ms"),
              listedMs: n("setup_listed_ms"),
              firstCallMs: n("setup_first_call_ms"),
            }
          : null,
      loops: loopCells[0] === undefined ? null : { sequentialMs: loopCells[0], concurrentMs: loopCells[1]!, batchMs: loopCells[2]! },
      payload: points.get(config) ?? [],
    });
  }
  if (!rows.some((r) => r.kind === "direct" && r.measuredBy === "wirecost"))
    throw new UserError({
      file: table.file,
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
    callSamplesUs: callSamples,
    trialLoad1,
  };
}
