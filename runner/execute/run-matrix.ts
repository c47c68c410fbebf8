/**
 * Run an expanded matrix: every configuration × repeat of the selection (`--only`, `--shard`),
 * `jobs` at a time (bytes only are measured, so runs may overlap). Each finished run is one
 * atomic journal file; the derived results files are rebuilt at the end, also after an abort
 * (^C), so `--resume` can continue from any instant.
 */
import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { UserError } from "../../format/errors.js";
import { shellQuote } from "../../format/shell.js";
import { recordedPath } from "../../format/files.js";
import { expand, glob } from "../matrix/expand.js";
import { flowsOf, stepsText } from "../matrix/flows.js";
import type { Configuration, Matrix } from "../matrix/types.js";
import { checkProvenanceVersion, readPlan, readRuns } from "../results/journal.js";
import { discardStaging, swapIn, writeTarget } from "../results/swap.js";
import { stagingDir } from "../../format/layout.js";
import { collectProvenance, gitState } from "../results/provenance.js";
import { toolInfo } from "../paths.js";
import type { Provenance } from "../../format/schema.js";
import { slugOf } from "../matrix/parse.js";
import { preflight } from "../matrix/preflight.js";
import { startBuilds, type StartedBuilds } from "../build/build.js";
import { BuildGate } from "./build-gate.js";
import { DRIVERS, loadDrivers } from "../drivers/index.js";
import { SCHEMA_VERSION } from "../../format/schema.js";
import type { ResultsPlan, RunRecord } from "../results/schema.js";
import { ResultsStore } from "../results/store.js";
import { progress, type Progress } from "./progress.js";
import { RunInterrupted, runOne, type RunOneOptions } from "./run-one.js";
import { freePort } from "../targets/process.js";
import { ForkServers } from "../targets/forkserver.js";
import { parseShard, shardOf, type Shard } from "./shard.js";
import { Interrupted } from "../errors.js";
import { checkJobs, defaultJobs } from "./jobs.js";
import { ownAndChildrenCpuSeconds } from "../measure/cpu.js";
import { loadTokenizers } from "../count/tokens.js";
import { VERSION_AXIS, targetKey, targetOf } from "../matrix/target-of.js";

export { checkJobs, maxJobs } from "./jobs.js";

/** One run, as {@link runOne}; replaceable for benchmarks of the runner itself. */
export type RunOneFn = (
  matrix: Matrix,
  config: Configuration,
  repeat: number,
  logPath: string,
  signal?: AbortSignal,
  opts?: RunOneOptions,
) => Promise<RunRecord>;

/** Options of a matrix run. */
export interface RunOptions {
  /** Results folder. */
  results: string;
  /** Glob patterns (`*`, `?`) on configuration ids; empty = all. */
  only?: string[];
  /** Override every configuration's repeat count. */
  repeats?: number;
  /** Concurrent runs (default: {@link defaultJobs}, two per core). */
  jobs?: number;
  /** Run only shard `K/N` of the configurations (see shard.ts); text is parsed with parseShard. */
  shard?: Shard | string;
  /**
   * Continue the folder's journal (or, when an interrupted re-run left one, the journal in
   * `<results>/.wirecost-next/`): runs already ok are kept, the others run (again).
   */
  resume?: boolean;
  /** Start the folder afresh even when that drops results of configurations this run does not select. */
  fresh?: boolean;
  /**
   * The option that named `results`, for the fixes printed: `--results` (wirecost run, the
   * default) or `--scratch` (wirecost verify's re-run, which has no --resume or --fresh).
   */
  folderOption?: "--results" | "--scratch";
  /** Aborts the run (^C): no new run starts, running targets are stopped, finished runs are written. */
  signal?: AbortSignal;
  /** Command line recorded in provenance. */
  command?: string;
  /** Where progress goes (default stderr). */
  progressStream?: NodeJS.WriteStream;
  /** Replace the real run (benchmarks of the runner); default {@link runOne}. */
  runOne?: RunOneFn;
  /** Check target packages and commands before running (default true). */
  preflight?: boolean;
  /**
   * A target whose build toolchain is missing has its runs recorded as skipped, with the reason,
   * instead of refusing the run (`--skip-missing-toolchains`; what `npm start` passes).
   */
  skipMissingToolchains?: boolean;
  /** Count strictly (`--strict`): a run whose log has an anomaly fails, naming it, instead of being counted with it. */
  strict?: boolean;
  /**
   * Into a folder that holds results: move the new ones in only when every run is ok (none failed
   * or timed out); otherwise they stay in `<results>/.wirecost-next/` (RunSummary.staging) and the
   * folder keeps the results it held (`wirecost measure`).
   */
  replaceOnlyIfOk?: boolean;
}

/** What a matrix run did. */
export interface RunSummary {
  /** Every recorded run of the folder's selected configurations (resumed ones included). */
  runs: RunRecord[];
  /** The runs whose status is neither ok nor skipped. */
  failed: RunRecord[];
  /** Targets skipped for a missing build toolchain → the reason (see RunOptions.skipMissingToolchains). */
  skippedTargets: Map<string, string>;
  /** True when the signal aborted the run before every run finished. */
  interrupted: boolean;
  /** Runs of the selection not done (interrupted). */
  left: number;
  /** Runs kept from an earlier, interrupted run of the folder (`resume`). */
  resumed: number;
  /** The plan written to the folder (when `written`). */
  plan: ResultsPlan;
  /** Where the wall time went: see {@link TimeSplit}. */
  time: TimeSplit;
  /**
   * Where the runs were written when they are not in the results folder yet: an interrupted run
   * into a folder that held results writes beside them (`<results>/.wirecost-next/`, swapped in
   * when a `--resume` completes it), so the folder still holds its earlier results; so does a
   * run with `replaceOnlyIfOk` of which a run failed.
   */
  staging?: string;
  /**
   * False when the signal aborted the run before it touched the results folder (while target
   * builds were probed or ran): the folder is as it was, so `--resume` has nothing to continue.
   */
  written: boolean;
}

/**
 * Where a matrix run's time went, for its last lines (runner/modes/bytes.ts): the target builds,
 * which the runs overlap (a configuration's runs start as soon as its own target is built), then
 * the runs themselves, with the targets' start-up inside them. Seconds are wall-clock from the
 * start of the builds.
 */
export interface TimeSplit {
  /** Wall seconds from the start until the last target build ended (the toolchain probes only when none ran). */
  buildSeconds: number;
  /** How many target builds ran (0: every build was fresh, and `buildSeconds` is the probes only). */
  builds: number;
  /** CPU seconds of the builds that ran, their whole process trees (runner/build/build.ts `times`); 0 when none ran. */
  buildCpuSeconds: number;
  /** Wall seconds from the start to the first run's start; undefined when no run started. */
  firstRunSeconds?: number;
  /** Wall seconds from the start to the results files written (provenance, identity of repeats): the whole run. */
  runSeconds: number;
  /** Concurrent runs (`--jobs`, or the cores). */
  jobs: number;
  /** Runs whose target got ready (listening, or its first answer on stdout). */
  readyRuns: number;
  /** Their start-up times summed, seconds (spawn to ready; {@link RunOneOptions.onReady}); divide by `jobs` for its share of the wall time. */
  startupSeconds: number;
  /** This process's and its reaped children's CPU seconds at the start (subtract it from the end's to get the run's CPU, builds included). */
  cpuAtStart?: { own: number; children: number };
}

/** Values of the matrix's `client` axis (`raw`, the default driver, when it has none). */
function clientNames(matrix: Matrix): string[] {
  return matrix.axes.find((a) => a.name === "client")?.values ?? ["raw"];
}

/** npm packages of the drivers named by the matrix's `client` axis. */
function clientPackages(matrix: Matrix): string[] {
  return clientNames(matrix).flatMap((c) => DRIVERS[c]?.packages ?? []);
}

/** Client name → the protocol its driver speaks, for provenance (`clients`), sorted by name. */
function clientProtocols(matrix: Matrix): NonNullable<Provenance["clients"]> {
  const out: NonNullable<Provenance["clients"]> = {};
  for (const c of [...clientNames(matrix)].sort()) {
    const declared = matrix.clients?.[c];
    if (declared) out[c] = { protocol: declared.protocol, declared: true, label: declared.label };
    else if (DRIVERS[c]) out[c] = { protocol: DRIVERS[c].protocol };
  }
  return out;
}

/** The flows the plan's configurations run, with their description and steps in words (provenance `flows`). */
function flowsProvenance(matrix: Matrix, plan: ResultsPlan): NonNullable<Provenance["flows"]> {
  const declared = flowsOf(matrix);
  const out: NonNullable<Provenance["flows"]> = {};
  for (const name of [...new Set(plan.configurations.map((c) => c.values.flow).filter((f): f is string => f !== undefined))].sort()) {
    const flow = declared[name];
    if (flow) out[name] = { ...(flow.description ? { description: flow.description } : {}), steps: stepsText(flow.steps) };
  }
  return out;
}

/**
 * The plan of a run: configurations after `--only` and `--repeats`, and this shard's share.
 * @throws UserError when `--only` matches nothing or `--shard` is malformed
 */
export function planRun(matrix: Matrix, opts: Pick<RunOptions, "only" | "repeats" | "shard">): ResultsPlan {
  const expansion = expand(matrix);
  let configurations = expansion.configurations;
  if (opts.only?.length) {
    const res = opts.only.map(glob);
    configurations = configurations.filter((c) => res.some((r) => r.test(c.id)));
    if (configurations.length === 0) {
      // Only excluded cells match (a version the target does not list, a revision it does not speak): say why.
      const cell = expansion.excluded.find((x) => res.some((r) => r.test(x.id)));
      const m = shellQuote(relative(process.cwd(), matrix.file));
      throw new UserError(
        cell
          ? `--only ${opts.only.join(" ")}: matches only excluded cells, e.g. ${cell.id}: ${cell.reason} — list them with: npx wirecost expand ${m} --all`
          : `--only ${opts.only.join(" ")}: matches no configuration — list ids with: npx wirecost expand ${m}`,
      );
    }
  }
  if (opts.repeats !== undefined) configurations = configurations.map((c) => ({ ...c, repeats: opts.repeats! }));
  if (configurations.every((c) => c.repeats === 0))
    throw new UserError(`--repeats ${opts.repeats ?? 0}: leaves nothing to run (0 runs) — pass --repeats 1 or more`);
  configurations = [...configurations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const shard = typeof opts.shard === "string" ? parseShard(opts.shard) : opts.shard;
  const selected = (shard ? shardOf(configurations, shard) : configurations).map((c) => c.id);
  const versionAxis = matrix.axes.find((a) => a.name === VERSION_AXIS);
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: toolInfo(),
    matrix: { file: recordedPath(matrix.file), sha256: matrix.sha256, ...(matrix.definitionSha256 ? { definition: matrix.definitionSha256 } : {}) },
    axisNames: matrix.axes.map((a) => a.name),
    ...(versionAxis ? { versions: versionAxis.values } : {}),
    configurations,
    excluded: expansion.excluded,
    selected,
    ...(shard ? { shard: `${shard.k}/${shard.n}` } : {}),
  };
}

/**
 * Join the plan of an interrupted folder with this invocation's: same matrix required (the same
 * bytes, or the same definition: an edit of comments or layout only); the configurations and
 * selections are united (this invocation's repeats win).
 * @throws UserError when the folder has no plan or was written for another matrix or tool version
 */
function resumePlan(dir: string, plan: ResultsPlan): ResultsPlan {
  const old = readPlan(dir);
  if (!old) throw new UserError(`${dir}: nothing to resume (no runs/plan.json) — run without --resume`);
  checkProvenanceVersion(dir);
  const sameMatrix = old.matrix.sha256 === plan.matrix.sha256 || (old.matrix.definition !== undefined && old.matrix.definition === plan.matrix.definition);
  if (!sameMatrix)
    throw new UserError(
      `${dir}/runs/plan.json: written for another matrix definition (${old.matrix.file}, sha256 ${old.matrix.sha256.slice(0, 12)}…; this one ${plan.matrix.sha256.slice(0, 12)}…): its runs would not be comparable — run into a new folder (--results NEW_FOLDER), or pass --fresh instead of --resume to drop them`,
    );
  if (old.tool.version !== plan.tool.version)
    throw new UserError(
      `${dir}/runs/plan.json: written by wirecost ${old.tool.version}, this is ${plan.tool.version} — run without --resume to start the folder afresh`,
    );
  if ((old.shard ?? "") !== (plan.shard ?? ""))
    throw new UserError(
      `${dir}/runs/plan.json: holds shard ${old.shard ?? "(whole run)"}, resumed as ${plan.shard ?? "(whole run)"} — resume with the same --shard`,
    );
  const byId = new Map(old.configurations.map((c) => [c.id, c]));
  for (const c of plan.configurations) byId.set(c.id, c);
  const configurations = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const selected = [...new Set([...old.selected, ...plan.selected])].sort();
  return { ...plan, configurations, selected };
}

/**
 * A run without `--resume` starts its folder afresh: refuse it when that would drop the results of
 * a configuration it does not run (a partial run, or a folder of another matrix), unless `--fresh`.
 * @throws UserError naming the folder, how many configurations it would lose, and the ways out
 */
function refuseToDropOthers(opts: RunOptions, plan: ResultsPlan): void {
  if (opts.fresh) return;
  const old = readPlan(opts.results);
  if (!old) return;
  const keep = new Set(plan.selected);
  const lost = old.selected.filter((id) => !keep.has(id));
  if (lost.length === 0) return;
  if (opts.folderOption === "--scratch")
    throw new UserError(
      `--scratch ${opts.results}: holds results of ${lost.length} configuration(s) the re-run does not select (e.g. ${lost[0]}, from ${old.matrix.file}) and would drop them — pass --scratch a new or empty folder, or leave --scratch out (a new temp folder)`,
    );
  throw new UserError(
    `${opts.results}: holds results of ${lost.length} configuration(s) this run does not select (e.g. ${lost[0]}, from ${old.matrix.file}) and would drop them — pass --resume to add these runs to the folder (same matrix), --results NEW_FOLDER, or --fresh to drop them`,
  );
}

/** A run's time split at its start: nothing measured yet but the CPU spent so far. */
function newTimeSplit(): TimeSplit {
  return { buildSeconds: 0, builds: 0, buildCpuSeconds: 0, runSeconds: 0, jobs: 0, readyRuns: 0, startupSeconds: 0, cpuAtStart: ownAndChildrenCpuSeconds() };
}

/**
 * The folder a run writes and its plan. A folder that holds results gets the new ones beside it
 * (.wirecost-next/), swapped in when complete; `--resume` continues in the staging folder when one
 * was left, else in the folder itself, with the plan it recorded.
 * @throws UserError when a fresh run would drop results of configurations it does not select (without --fresh)
 */
function openResults(opts: RunOptions, fresh: ResultsPlan): { target: string; plan: ResultsPlan } {
  if (opts.resume) {
    const target = readPlan(stagingDir(opts.results)) ? stagingDir(opts.results) : opts.results;
    return { target, plan: resumePlan(target, fresh) };
  }
  refuseToDropOthers(opts, fresh);
  discardStaging(opts.results);
  return { target: writeTarget(opts.results), plan: fresh };
}

/**
 * The runs left to do, each configuration's repeats in order; with `resumeFrom` (the folder a
 * `--resume` continues) the repeats already ok there are counted in `resumed` instead.
 */
function runsToDo(selection: readonly Configuration[], resumeFrom: string | undefined): { queue: { c: Configuration; repeat: number }[]; resumed: number } {
  const queue: { c: Configuration; repeat: number }[] = [];
  let resumed = 0;
  for (const c of selection) {
    const ok = resumeFrom === undefined ? [] : readRuns(resumeFrom, c.id, c.repeats).filter((r) => r.status === "ok");
    const done = new Set(ok.map((r) => r.repeat));
    for (let repeat = 1; repeat <= c.repeats; repeat++) {
      if (done.has(repeat)) resumed++;
      else queue.push({ c, repeat });
    }
  }
  return { queue, resumed };
}

/**
 * The runs grouped by configuration: a configuration's repeats run one after another on one
 * worker, through a relay on one port, so the Host header (which carries the relay's port) is the
 * same in every repeat.
 */
function groupByConfiguration(queue: readonly { c: Configuration; repeat: number }[]): { c: Configuration; repeats: number[]; taken?: boolean }[] {
  const groups: { c: Configuration; repeats: number[]; taken?: boolean }[] = [];
  for (const { c, repeat } of queue) {
    const last = groups[groups.length - 1];
    if (last?.c.id === c.id) last.repeats.push(repeat);
    else groups.push({ c, repeats: [repeat] });
  }
  return groups;
}

/** The provenance of a bytes run that ends now (runner/results/provenance.ts). */
function runProvenance(
  matrix: Matrix,
  plan: ResultsPlan,
  builds: Parameters<typeof collectProvenance>[0]["builds"],
  run: { startedAt: Date; command: string | undefined; git: Parameters<typeof collectProvenance>[0]["git"] },
): ReturnType<typeof collectProvenance> {
  return collectProvenance({
    matrixFile: plan.matrix.file,
    matrixSha256: matrix.sha256,
    report: { title: matrix.title, slug: matrix.slug ?? slugOf(matrix.title) },
    clients: clientProtocols(matrix),
    flows: flowsProvenance(matrix, plan),
    targets: Object.values(matrix.targets),
    clientPackages: clientPackages(matrix),
    builds,
    startedAt: run.startedAt,
    endedAt: new Date(),
    command: run.command ?? "wirecost run",
    git: run.git,
  });
}

/** What running a configuration's group of repeats needs of the run (runMatrix). */
interface GroupEnv {
  matrix: Matrix;
  store: ResultsStore;
  bar: Progress;
  signal: AbortSignal | undefined;
  run: RunOneFn;
  strict: boolean | undefined;
  forkServers: ForkServers | undefined;
  /** The folder warm-up runs' logs go to (made when first asked). */
  warmupDir: () => string;
  /** A run's target got ready after `ms` (spawn to ready). */
  onReady: (ms: number) => void;
  /** A run finished and was recorded. */
  finished: () => void;
}

/** Record the runs of a configuration whose build (or the check of what it built) failed after other runs had started: each fails with that line. */
function failGroup(c: Configuration, repeats: readonly number[], failure: unknown, env: GroupEnv): void {
  const error = failure instanceof Error ? failure.message : String(failure);
  for (const repeat of repeats) {
    env.store.record({ config: c.id, repeat, status: "failed", exit: "", error });
    env.finished();
    env.bar.done(c.id, repeat, "failed", error);
  }
}

/**
 * Run a configuration's warm-up runs (the same run, its record and log discarded), then its
 * repeats, all through one relay port, recording each; a run ^C interrupted is left out, and none
 * starts after ^C.
 */
async function runGroup(c: Configuration, repeats: readonly number[], env: GroupEnv): Promise<void> {
  const { matrix, signal, run, strict, forkServers } = env;
  const relayPort = await freePort();
  for (let w = 1; w <= (c.warmup ?? 0) && !signal?.aborted; w++) {
    try {
      await run(matrix, c, w, join(env.warmupDir(), `${c.id}-${w}.jsonl`), signal, { relayPort, strict, forkServers });
    } catch (e) {
      if (!(e instanceof RunInterrupted)) throw e;
    }
  }
  for (const repeat of repeats) {
    if (signal?.aborted) break;
    try {
      const rec = await run(matrix, c, repeat, env.store.logPath(c.id, repeat), signal, { relayPort, strict, onReady: env.onReady, forkServers });
      env.store.record(rec);
      env.finished();
      env.bar.done(c.id, repeat, rec.status, rec.error);
    } catch (e) {
      if (!(e instanceof RunInterrupted)) throw e;
    }
  }
}

/**
 * Wait until a configuration can run (its builds ended well), or none is left waiting on a build.
 * @throws Interrupted on ^C; the first configuration's build failure when none can run
 */
async function untilOneRunnable(
  matrix: Matrix,
  selection: readonly Configuration[],
  needs: (c: Configuration) => string[],
  gate: BuildGate,
  signal: AbortSignal | undefined,
  aborted: Promise<void>,
): Promise<void> {
  const state = (c: Configuration) => gate.state(needs(c), targetKey(matrix, c.values));
  while (!selection.some((c) => state(c) === "ready") && selection.some((c) => state(c) === "waiting") && !signal?.aborted)
    await Promise.race([gate.changed(), aborted]);
  if (signal?.aborted) throw new Interrupted("interrupted while building targets");
  if (selection.some((c) => state(c) === "ready")) return;
  const why = selection.map((c) => gate.failure(needs(c), targetKey(matrix, c.values))).find((e) => e !== undefined);
  if (why) throw why;
}

/**
 * Run the matrix. Into a folder that holds no results yet, the runs are written in place; into one
 * that does, they are written beside (`<results>/.wirecost-next/`) and swapped in once every run
 * has finished (runner/results/swap.ts), so the old results stay whole until then; only files a
 * journal names are replaced or removed.
 * @throws UserError for bad options (`--jobs` above maxJobs too, runner/execute/jobs.ts), unmet target
 *   requirements or a target command that cannot start (before any run); run failures are data
 *   (status in the records). A ^C while targets are built returns `interrupted` and `written: false`.
 */
export async function runMatrix(matrix: Matrix, opts: RunOptions): Promise<RunSummary> {
  const startedAt = new Date();
  const git = await gitState([opts.results, "site"]); // the code that runs is the checkout as it is now
  const fresh = planRun(matrix, opts);
  const wanted = new Set(fresh.selected);
  const selected = fresh.configurations.filter((c) => wanted.has(c.id));
  if (opts.jobs !== undefined) checkJobs(opts.jobs);
  const t0 = performance.now();
  const clock: RunClock = { time: newTimeSplit(), seconds: () => (performance.now() - t0) / 1000 };
  const ui: { bar?: Progress } = {};
  const b = startRunBuilds(matrix, opts, selected, clock, (line) => (ui.bar ? ui.bar.note(line) : process.stderr.write(`${line}\n`)));
  // Nothing is written until a first configuration can run: while every one waits on a build, a
  // ^C or a failed build leaves the folder as it was (and a failure is one line, as before).
  try {
    preflight(
      matrix,
      b.selection.filter((c) => b.needs(c).every((n) => !b.builds.pending.has(n))),
    );
    await untilOneRunnable(matrix, b.selection, b.needs, b.gate, opts.signal, b.aborted);
  } catch (e) {
    b.stopBuilds.abort();
    await b.allBuilt;
    opts.signal?.removeEventListener("abort", b.onAbortBuilds);
    if (!(e instanceof Interrupted)) throw e;
    const total = selected.reduce((n, c) => n + c.repeats, 0);
    clock.time.runSeconds = clock.seconds();
    return { runs: [], failed: [], skippedTargets: new Map(), interrupted: true, left: total, resumed: 0, plan: fresh, written: false, time: clock.time };
  }
  const { target, plan } = openResults(opts, fresh);
  const store = new ResultsStore(target);
  store.plan(plan);
  for (const c of selected) {
    const why = b.skippedWhy(c);
    for (let repeat = 1; why && repeat <= c.repeats; repeat++) store.record({ config: c.id, repeat, status: "skipped", exit: "", error: why });
  }
  const { queue, resumed } = runsToDo(b.selection, opts.resume ? target : undefined);
  const finished = await runQueue(matrix, opts, b, { queue, resumed, store, clock, ui });
  const prov = await runProvenance(matrix, plan, b.builds.records, { startedAt, command: opts.command, git });
  const left = queue.length - finished;
  const interrupted = left > 0 && !!opts.signal?.aborted;
  // After ^C the user is waiting: the identity of repeats (which reads every capture log) is left
  // to the run that resumes the folder.
  store.finish(plan, prov, interrupted ? { skipIdentity: "run interrupted; --resume works it out" } : {});
  const runs = store.all(plan);
  const staged = target !== opts.results;
  const failed = runs.filter((r) => r.status !== "ok" && r.status !== "skipped");
  const kept = staged && (interrupted || (opts.replaceOnlyIfOk === true && failed.length > 0));
  if (staged && !kept) swapIn(opts.results, plan);
  clock.time.runSeconds = clock.seconds();
  return {
    runs,
    failed,
    skippedTargets: b.builds.skipped,
    interrupted,
    left,
    resumed,
    plan,
    written: true,
    ...(kept ? { staging: target } : {}),
    time: clock.time,
  };
}

/** A run's time split and its clock (wall seconds since it started). */
interface RunClock {
  time: TimeSplit;
  seconds: () => number;
}

/** The builds of a run as they go on, and what the run asks of them. */
interface RunBuilds {
  builds: StartedBuilds;
  gate: BuildGate;
  /** Stops the builds (on ^C, and when the run is refused before its first run). */
  stopBuilds: AbortController;
  /** The listener that stops the builds on the run's abort signal (removed when the builds have ended). */
  onAbortBuilds: () => void;
  /** Resolves when every build has ended (its CPU noted). */
  allBuilt: Promise<void>;
  /** Resolves on ^C. */
  aborted: Promise<void>;
  /** What a configuration needs built: its target's entry and its declared client. */
  needs: (c: Configuration) => string[];
  /** Why a configuration's target or declared client was skipped (its build's toolchain is missing), or undefined. */
  skippedWhy: (c: Configuration) => string | undefined;
  /** The selected configurations whose builds are not skipped. */
  selection: Configuration[];
}

/**
 * Start the builds the selected configurations need, each configuration's preflight checked as
 * its target's build ends (BuildGate); build times go into `clock.time`.
 */
function startRunBuilds(matrix: Matrix, opts: RunOptions, selected: readonly Configuration[], clock: RunClock, log: (line: string) => void): RunBuilds {
  const { time, seconds } = clock;
  const signal = opts.signal;
  const stopBuilds = new AbortController();
  const onAbortBuilds = () => stopBuilds.abort();
  signal?.addEventListener("abort", onAbortBuilds, { once: true });
  const needs = (c: Configuration) => [
    targetKey(matrix, c.values),
    ...(c.values.client !== undefined && matrix.clients?.[c.values.client] ? [c.values.client] : []),
  ];
  const builds = startBuilds(matrix, selected.flatMap(needs), { skipMissingToolchains: opts.skipMissingToolchains, signal: stopBuilds.signal, log });
  time.builds = builds.built;
  // Each build's end is noted before the gate hears of it (handlers run in the order they were added).
  for (const p of builds.pending.values())
    p.then(
      () => (time.buildSeconds = seconds()),
      () => (time.buildSeconds = seconds()),
    );
  const skippedWhy = (c: Configuration) =>
    needs(c)
      .map((n) => builds.skipped.get(n))
      .find((w) => w !== undefined);
  const selection = selected.filter((c) => !skippedWhy(c));
  const gate = new BuildGate(builds, (key) =>
    preflight(
      matrix,
      selection.filter((c) => targetKey(matrix, c.values) === key),
    ),
  );
  const allBuilt = gate.allSettled().then(() => {
    time.buildCpuSeconds = builds.cpu.seconds;
  });
  const aborted = new Promise<void>((r) => (signal?.aborted ? r() : signal?.addEventListener("abort", () => r(), { once: true })));
  return { builds, gate, stopBuilds, onAbortBuilds, allBuilt, aborted, needs, skippedWhy, selection };
}

/**
 * Run the queued runs on `--jobs` workers, each configuration's group as soon as its builds have
 * ended, with the progress line; then stop what is left (builds no run waits for, fork servers,
 * warm-up logs).
 * @returns how many runs finished and were recorded
 */
async function runQueue(
  matrix: Matrix,
  opts: RunOptions,
  b: RunBuilds,
  q: { queue: { c: Configuration; repeat: number }[]; resumed: number; store: ResultsStore; clock: RunClock; ui: { bar?: Progress } },
): Promise<number> {
  const { gate } = b;
  const { time } = q.clock;
  const signal = opts.signal;
  // Each run's count takes tokens: the tokenizers are built here, before any target starts, not by
  // the first count while other runs' connections wait on this process (runner/count/tokens.ts).
  // Likewise the client drivers' modules (runner/drivers/index.ts).
  if (q.queue.length > 0) {
    loadTokenizers();
    await loadDrivers(clientNames(matrix));
  }
  const jobs = Math.max(1, opts.jobs ?? defaultJobs());
  time.jobs = jobs;
  /** Targets with runs going on now → how many. */
  const running = new Map<string, number>();
  const bar = progress(q.queue.length + q.resumed, opts.progressStream, q.resumed, () => statusLine(running, gate));
  q.ui.bar = bar;
  // Each running run listens for the abort (plus this function and the caller): no MaxListeners warning.
  if (signal) setMaxListeners(jobs + 8, signal);
  const onAbort = () => bar.note("stopping: no new runs; stopping running targets and builds, writing finished runs…");
  signal?.addEventListener("abort", onAbort, { once: true });
  const groups = groupByConfiguration(q.queue);
  // Targets with `forkserver:` (Python) fork each run's server from one process that imported the SDK once.
  const forkServers = b.selection.some((c) => targetOf(matrix, c.values)?.forkserver) ? new ForkServers() : undefined;
  let finished = 0;
  let warmups: string | undefined;
  const onReady = (ms: number) => {
    time.readyRuns++;
    time.startupSeconds += ms / 1000;
  };
  const env: GroupEnv = {
    matrix,
    store: q.store,
    bar,
    signal,
    run: opts.runOne ?? runOne,
    strict: opts.strict,
    forkServers,
    warmupDir: () => (warmups ??= mkdtempSync(join(tmpdir(), "wirecost-warmup-"))),
    onReady,
    finished: () => finished++,
  };
  const worker = groupWorker(matrix, groups, b, env, running, q.clock);
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, groups.length) }, worker));
  } finally {
    // A build no run waits for any more (^C, or a worker's error) is stopped; every build has ended before the provenance is read.
    if (signal?.aborted || groups.some((g) => !g.taken)) b.stopBuilds.abort();
    await b.allBuilt;
    signal?.removeEventListener("abort", b.onAbortBuilds);
    // Stopped before the CPU is read: a fork server's children count once it is reaped.
    await forkServers?.close();
    if (warmups) rmSync(warmups, { recursive: true, force: true });
    signal?.removeEventListener("abort", onAbort);
    bar.stop();
  }
  return finished;
}

/**
 * A worker of a run: until every group is taken or ^C, it takes the first group whose builds have
 * ended (waiting for the gate when none has) and runs it, or fails its runs when its build failed;
 * `running` counts its target's runs while it runs.
 */
function groupWorker(
  matrix: Matrix,
  groups: { c: Configuration; repeats: number[]; taken?: boolean }[],
  b: RunBuilds,
  env: GroupEnv,
  running: Map<string, number>,
  clock: RunClock,
): () => Promise<void> {
  const { gate, needs, aborted } = b;
  const nextGroup = () => groups.find((g) => !g.taken && gate.state(needs(g.c), targetKey(matrix, g.c.values)) !== "waiting");
  return async () => {
    while (groups.some((g) => !g.taken) && !env.signal?.aborted) {
      const group = nextGroup();
      if (!group) {
        await Promise.race([gate.changed(), aborted]);
        continue;
      }
      group.taken = true;
      const { c, repeats } = group;
      const key = targetKey(matrix, c.values);
      const failure = gate.failure(needs(c), key);
      if (failure) {
        failGroup(c, repeats, failure, env);
        continue;
      }
      clock.time.firstRunSeconds ??= clock.seconds();
      running.set(key, (running.get(key) ?? 0) + 1);
      try {
        await runGroup(c, repeats, env);
      } finally {
        const n = (running.get(key) ?? 1) - 1;
        if (n > 0) running.set(key, n);
        else running.delete(key);
      }
    }
  };
}

/** The progress line's status: the targets with runs going on and the builds going on. */
function statusLine(running: ReadonlyMap<string, number>, gate: BuildGate): string {
  const parts: string[] = [];
  if (running.size) parts.push(`running ${[...running.keys()].sort().join(", ")}`);
  const building = gate.building();
  if (building.length) parts.push(`building ${building.join(", ")}`);
  return parts.join(" | ");
}
