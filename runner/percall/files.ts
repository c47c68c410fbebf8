/**
 * The per-call results files, one row per configuration, readable by the page from files alone:
 * - `percall.tsv`: per configuration: axis values, label, who measured it (`wirecost`, or `harness`:
 *   a command in another language, runner/percall/harness.ts) with its runtime and client, SDK
 *   version, status (`ok` or `failed`, with the one-line reason in the last column), p50/p95/spread
 *   µs (median over trials), the measuring process's CPU per call µs (median over trials; the
 *   client's own share on an MCP path; empty for a harness row), setup medians ms, loop medians ms; a cell not measured (a failed
 *   path's figures, a harness path's loops) is empty, never 0 (the command that re-measures a row
 *   is built by the page from the row's id and the matrix in percall-run.json: results hold data only);
 * - `percall-payload.tsv`: per (configuration, limit): result bytes, p50/p95 µs (median over
 *   trials); no rows for a path whose sweep was not measured (harness paths);
 * - `percall-samples.tsv`: every sample, long format `config kind n metric value` (kind trial:
 *   p50_us p95_us p99_us mean_us calls load1 client_cpu_per_call_us; setup: ready_ms open_ms listed_ms first_call_ms;
 *   loop: sequential_ms concurrent_ms batch_ms; call (harness paths): latency_us, one row per timed
 *   call in call order, n = the trial);
 * - the profiled trial's files (format/attribution.ts: `percall-profiled.tsv`, `percall-stages.tsv`,
 *   `percall-unclassified.tsv`, and each process's folded stacks in `profiles/<config>/`);
 * - `percall-run.json`: the matrix, the per-call parameters, the declared assumptions, and each run
 *   that wrote rows here (command, configurations, machine, load, git state, times).
 * A run with `--only` replaces its own configurations' rows and keeps the others (merge by id);
 * rows are ordered as the matrix expands. Writes are atomic.
 */
import { existsSync } from "node:fs";
import { writeAtomic } from "../../format/files.js";
import { readTsvRecords, toTsv } from "../../format/tsv.js";
import type { PathResults } from "./engine.js";
import {
  PAYLOAD_COLUMNS,
  PERCALL_COLUMNS,
  readPercallSamples,
  SAMPLE_COLUMNS,
  type PercallRunFile,
  type PercallRunRecord,
  type PercallSettings,
} from "../../format/percall.js";
import { UserError } from "../../format/errors.js";
import { DEFAULT_PROFILE_HZ } from "../attribution/samplers.js";
import { PERCALL_READABLE_VERSIONS, PERCALL_SCHEMA_VERSION } from "../../format/schema.js";
import { readRunFile } from "../../format/run-files.js";
import { profileRelPath, resultsFile } from "../../format/layout.js";
import { PROFILED_COLUMNS, STAGE_COLUMNS, UNCLASSIFIED_COLUMNS } from "../../format/attribution.js";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

type Row = Record<string, string | number>;

const num = (x: number | null | undefined): string | number => (x === null || x === undefined ? "" : x);

function summaryRow(p: PathResults): Row {
  const s = p.setupMedians;
  return {
    config: p.id,
    target: p.target,
    transport: p.transport,
    revision: p.revision,
    label: p.label,
    server: p.server,
    measured_by: p.measuredBy,
    runtime: p.runtime,
    client: p.client,
    package_version: p.packageVersion,
    status: p.status,
    trials: p.trials.length,
    p50_us: num(p.p50Us),
    p95_us: num(p.p95Us),
    spread_us: num(p.spreadUs),
    client_cpu_per_call_us: num(p.clientCpuPerCallUs),
    setup_samples: p.setup.length,
    setup_ready_ms: num(s?.readyMs),
    setup_open_ms: num(s?.openMs),
    setup_listed_ms: num(s?.listedMs),
    setup_first_call_ms: num(s?.firstCallMs),
    loop_sequential_ms: num(p.loopMedians?.sequentialMs),
    loop_concurrent_ms: num(p.loopMedians?.concurrentMs),
    loop_batch_ms: num(p.loopMedians?.batchMs),
    reason: p.reason.replace(/\s+/g, " "),
  };
}

function sampleRows(p: PathResults): Row[] {
  const rows: Row[] = [];
  const add = (kind: string, n: number, metrics: [string, number][]): void => {
    for (const [metric, value] of metrics) rows.push({ config: p.id, kind, n, metric, value });
  };
  p.trials.forEach((t, i) =>
    add("trial", i + 1, [
      ["p50_us", t.p50Us],
      ["p95_us", t.p95Us],
      ["p99_us", t.p99Us],
      ["mean_us", t.meanUs],
      ["calls", t.count],
      ["load1", t.loadavg1],
      ...(t.clientCpuPerCallUs === null ? [] : [["client_cpu_per_call_us", t.clientCpuPerCallUs] as [string, number]]),
    ]),
  );
  p.setup.forEach((s, i) =>
    add("setup", i + 1, [
      ["ready_ms", s.readyMs],
      ["open_ms", s.openMs],
      ["listed_ms", s.listedMs],
      ["first_call_ms", s.firstCallMs],
    ]),
  );
  p.loops.forEach((l, i) =>
    add("loop", i + 1, [
      ["sequential_ms", l.sequentialMs],
      ["concurrent_ms", l.concurrentMs],
      ["batch_ms", l.batchMs],
    ]),
  );
  p.calls.forEach((samples, i) =>
    add(
      "call",
      i + 1,
      samples.map((us): [string, number] => ["latency_us", us]),
    ),
  );
  return rows;
}

/** Round µs for the files (3 decimals). */
const us3 = (x: number | null | undefined): string | number => (x === null || x === undefined ? "" : Number(x.toFixed(3)));

/** The `percall-profiled.tsv` row of a path. */
function profiledRow(p: PathResults): Row {
  const f = p.profiled;
  return {
    config: p.id,
    status: f.status,
    calls: f.calls,
    window_us_per_call: us3(f.windowUsPerCall),
    profiled_p50_us: us3(f.p50Us),
    profiled_mean_us: us3(f.meanUs),
    paused_us_per_call: us3(f.pausedUsPerCall),
    stages_sum_us: us3(f.table?.sumUsPerCall),
    adjacent_us_per_call: us3(f.adjacentUsPerCall),
    client_sampler: f.samplers.client,
    server_sampler: f.samplers.server,
    client_profile: f.profiles.client !== undefined ? profileRelPath(p.id, "client") : "",
    server_profile: f.profiles.server !== undefined ? profileRelPath(p.id, "server") : "",
    direct_target: f.directTarget,
    reason: f.reason.replace(/\s+/g, " "),
  };
}

/** The `percall-stages.tsv` rows of a path. */
function stageRows(p: PathResults): Row[] {
  return (p.profiled.table?.rows ?? []).map((r) => ({
    config: p.id,
    process: r.process,
    stage: r.stage,
    label: r.label,
    kind: r.kind,
    samples: num(r.samples),
    us_per_call: us3(r.usPerCall),
    note: r.note.replace(/\s+/g, " "),
  }));
}

/** The `percall-unclassified.tsv` rows of a path. */
function unclassifiedRows(p: PathResults): Row[] {
  return (p.profiled.table?.unclassifiedTop ?? []).map((u) => ({
    config: p.id,
    process: u.process,
    frame: u.frame.replace(/[\t\r\n]/g, " "),
    samples: u.samples,
    us_per_call: us3(u.usPerCall),
  }));
}

/** Write each process's folded stacks of the paths to `profiles/<config>/`, removing a stale one of a re-measured path. */
function writeProfiles(dir: string, results: readonly PathResults[]): void {
  for (const p of results)
    for (const proc of ["client", "server"] as const) {
      const file = join(dir, profileRelPath(p.id, proc));
      const text = p.profiled.profiles[proc];
      if (text === undefined) {
        rmSync(file, { force: true });
        continue;
      }
      mkdirSync(dirname(file), { recursive: true });
      writeAtomic(file, text);
    }
}

/**
 * Rows of `file` to keep beside this run's: those of a configuration the matrix still has
 * (`order`) and this run did not measure (`replaced`); none when the file does not exist. Rows of
 * a configuration the matrix no longer has (an id renamed or left out) are dropped: nothing would
 * ever replace them, and the page would show a path the matrix does not measure.
 */
function keptRows(file: string, replaced: ReadonlySet<string>, order: readonly string[]): Row[] {
  if (!existsSync(file)) return [];
  const inMatrix = new Set(order);
  return readTsvRecords(file, "remove the file to start the per-call results afresh, or re-run with `--results` naming a new folder").filter(
    (r) => r.config !== undefined && !replaced.has(r.config) && inMatrix.has(r.config),
  );
}

/** The fix of a per-call folder `wirecost run` cannot extend. */
const EXTEND_FIX = "give --results a new folder, or move the folder's per-call files (percall*.tsv, percall-run.json, profiles/) away to start afresh";

/**
 * The run records of the per-call folder `dir` before this run (`percall-run.json`'s `runs`; none
 * when the folder has no such file).
 * @throws UserError naming the file when it is not JSON or of a schema version this wirecost does not read
 */
export function previousRuns(dir: string): PercallRunRecord[] {
  const file = resultsFile(dir, "percallRun");
  if (!existsSync(file)) return [];
  return (readRunFile(file, PERCALL_READABLE_VERSIONS, EXTEND_FIX) as Partial<PercallRunFile>).runs ?? [];
}

/** The settings a run is compared on: all but the two the run derives (the result's bytes, the percentile method), with the rate of folders written before it was named. */
function comparable(s: Partial<PercallSettings>): Record<string, unknown> {
  const { resultBytes: _b, percentileMethod: _p, ...rest } = s;
  return { ...rest, profileHz: rest.profileHz ?? DEFAULT_PROFILE_HZ };
}

/**
 * Refuse, before any build or call, a per-call folder this run would extend wrongly: one of another
 * schema version or with a malformed samples file, and one whose kept paths (those this run does
 * not measure again) were measured from another matrix file or with other settings: one page
 * would print one matrix's settings over paths measured with another's.
 * @param matrixArg the matrix file as given; `settings` this run's (without `resultBytes` and `percentileMethod`)
 * @param measuring the ids this run measures; `inMatrix` every id of the matrix (rows of other ids are dropped, not kept)
 * @throws UserError, one line naming the folder, what differs and the way on
 */
export function refuseFolderToExtend(
  dir: string,
  matrixArg: string,
  settings: Omit<PercallSettings, "resultBytes" | "percentileMethod">,
  measuring: ReadonlySet<string>,
  inMatrix: readonly string[],
): void {
  const file = resultsFile(dir, "percallRun");
  if (!existsSync(file)) return;
  const record = readRunFile(file, PERCALL_READABLE_VERSIONS, EXTEND_FIX) as Partial<PercallRunFile>;
  if (existsSync(resultsFile(dir, "percallSamples"))) readPercallSamples(resultsFile(dir, "percallSamples"), EXTEND_FIX);
  const ids = new Set(inMatrix);
  const kept = [...new Set((record.runs ?? []).flatMap((r) => r.configurations))].filter((c) => ids.has(c) && !measuring.has(c));
  if (kept.length === 0) return;
  const before = comparable(record.settings ?? {});
  const now = comparable(settings);
  const differ = [
    ...(record.matrix === undefined || resolve(record.matrix) !== resolve(matrixArg) ? [`matrix ${record.matrix ?? "not recorded"}, here ${matrixArg}`] : []),
    ...Object.keys(now)
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]))
      .map((k) => `${k} ${JSON.stringify(before[k])}, here ${JSON.stringify(now[k])}`),
  ];
  if (differ.length === 0) return;
  throw new UserError(
    `--results ${dir}: its ${kept.length} other path(s) were measured with ${differ.join("; ")}, and one page would show them as one run — run every path of the matrix into it, or ${EXTEND_FIX}`,
  );
}

/** Sort rows by `order` of their config (unknown configs last, by id), keeping each config's rows in order. */
function ordered(rows: Row[], order: readonly string[]): Row[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  const key = (r: Row): number => rank.get(String(r.config)) ?? order.length;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => key(a.r) - key(b.r) || (key(a.r) === order.length ? String(a.r.config).localeCompare(String(b.r.config)) : 0) || a.i - b.i)
    .map((x) => x.r);
}

const tsv = (cols: readonly string[], rows: Row[]): string =>
  toTsv(
    cols,
    rows.map((r) => cols.map((c) => r[c] ?? "")),
  );

/**
 * Write (merge) the per-call results of one run into `dir`.
 * @param matrix the matrix file as given on the command line (printed in reproduce commands)
 * @param order every configuration id of the matrix in expansion order (row order)
 * @param run the run-level facts; `configurations` are the ids measured now
 * @param head title, parameters and assumptions of the matrix (they replace those on file)
 */
export function writePercall(
  dir: string,
  matrix: string,
  order: readonly string[],
  results: readonly PathResults[],
  head: Omit<PercallRunFile, "schemaVersion" | "runs" | "matrix">,
  run: PercallRunRecord,
): void {
  const now = new Set(results.map((r) => r.id));
  const summary = ordered([...keptRows(resultsFile(dir, "percall"), now, order), ...results.map((p) => summaryRow(p))], order);
  const payload = ordered(
    [
      ...keptRows(resultsFile(dir, "percallPayload"), now, order),
      ...results.flatMap((p) => p.payload.map((x): Row => ({ config: p.id, limit: x.limit, result_bytes: x.resultBytes, p50_us: x.p50Us, p95_us: x.p95Us }))),
    ],
    order,
  );
  const samples = ordered([...keptRows(resultsFile(dir, "percallSamples"), now, order), ...results.flatMap(sampleRows)], order);
  const runFile = resultsFile(dir, "percallRun");
  const kept = new Set(summary.map((r) => String(r.config)));
  const oldRuns = previousRuns(dir);
  const runs = [
    ...oldRuns.map((r) => ({ ...r, configurations: r.configurations.filter((c) => kept.has(c) && !now.has(c)) })).filter((r) => r.configurations.length > 0),
    run,
  ];
  writeAtomic(resultsFile(dir, "percall"), tsv(PERCALL_COLUMNS, summary));
  writeAtomic(resultsFile(dir, "percallPayload"), tsv(PAYLOAD_COLUMNS, payload));
  writeAtomic(resultsFile(dir, "percallSamples"), tsv(SAMPLE_COLUMNS, samples));
  writeProfiles(dir, results);
  const merged = (name: "percallProfiled" | "percallStages" | "percallUnclassified", rows: (p: PathResults) => Row[]): Row[] =>
    ordered([...keptRows(resultsFile(dir, name), now, order), ...results.flatMap(rows)], order);
  writeAtomic(
    resultsFile(dir, "percallProfiled"),
    tsv(
      PROFILED_COLUMNS,
      merged("percallProfiled", (p) => [profiledRow(p)]),
    ),
  );
  writeAtomic(resultsFile(dir, "percallStages"), tsv(STAGE_COLUMNS, merged("percallStages", stageRows)));
  writeAtomic(resultsFile(dir, "percallUnclassified"), tsv(UNCLASSIFIED_COLUMNS, merged("percallUnclassified", unclassifiedRows)));
  const file: PercallRunFile = {
    schemaVersion: PERCALL_SCHEMA_VERSION,
    title: head.title,
    matrix,
    settings: head.settings,
    assumptions: head.assumptions,
    runs,
  };
  writeAtomic(runFile, JSON.stringify(file, null, 2) + "\n");
}
