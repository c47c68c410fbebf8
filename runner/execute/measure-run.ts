/**
 * Timing runs of a matrix (`measures:` naming latency, cpu or throughput). Reads the matrix file's
 * `measures` and `timing` keys, expands the configurations, resolves each `pinning` layout (refusing
 * one the machine cannot give before anything runs), then runs T trials per configuration strictly
 * one at a time in interleaved order, each on a fresh target process, and writes the timing files
 * (see runner/measure/timings.ts). Timing runs never overlap each other.
 */
import { relative } from "node:path";
import { shellQuote } from "../../format/shell.js";
import { checkRulesRole, loadStageRules, type StageRules } from "../attribution/rules.js";
import { dirname } from "node:path";
import { UserError } from "../../format/errors.js";
import { recordedPath } from "../../format/files.js";
import { expand, glob } from "../matrix/expand.js";
import { buildsProvenance, gitState } from "../results/provenance.js";
import { toolInfo } from "../paths.js";
import { ensureBuilt } from "../build/build.js";
import { preflight } from "../matrix/preflight.js";
import type { Configuration, Matrix } from "../matrix/types.js";
import { machineInfo } from "../measure/machine.js";
import { trialOrder } from "../measure/order.js";
import { allowedCores, resolveLayout, type Layout } from "../measure/pinning.js";
import { runTrial, type TrialResult } from "../measure/trial.js";
import { timingOptions } from "../measure/options.js";
import { writeTimings } from "../measure/timings.js";
import { targetKey, targetOf } from "../matrix/target-of.js";

/** Options of a timing run. */
export interface MeasureRunOptions {
  results: string;
  /** Glob patterns on configuration ids; empty = all. */
  only?: string[];
  /** Override the trial count. */
  trials?: number;
  command?: string;
  /** Called after each trial (progress). */
  onTrial?(r: TrialResult, done: number, total: number): void;
}

/** A target's stage rules for a timing run, which profiles the server alone. @throws UserError on a bad file or one of `process: client` */
function serverRules(file: string): StageRules {
  const rules = loadStageRules(file);
  checkRulesRole(rules, "server");
  return rules;
}

/**
 * The configurations a timing run measures: every one the matrix expands to, or those whose id
 * matches an `--only` glob.
 * @throws UserError when the globs match none (with the command that lists the ids)
 */
function selectedConfigurations(matrix: Matrix, only: readonly string[] | undefined): Configuration[] {
  const configs = expand(matrix).configurations;
  if (!only?.length) return configs;
  const res = only.map(glob);
  const chosen = configs.filter((c) => res.some((r) => r.test(c.id)));
  if (!chosen.length)
    throw new UserError(
      `--only ${only.join(" ")}: matches no configuration — list ids with: npx wirecost expand ${shellQuote(relative(process.cwd(), matrix.file))}`,
    );
  return chosen;
}

/** The failed trial of a configuration whose target has no HTTP command (timing drives HTTP targets). */
function noHttpCommand(c: Configuration, slot: { trial: number; seq: number }, target: string): TrialResult {
  return {
    config: c.id,
    trial: slot.trial,
    seq: slot.seq,
    layout: c.values.pinning ?? "default",
    layoutDescription: "",
    workload: "",
    status: "failed",
    error: `target ${target} has no http command (timing drives HTTP targets)`,
    load1: 0,
    busy: false,
    targetAffinity: [],
    startedAt: new Date().toISOString(),
  };
}

/**
 * The targets' stage rules, each file loaded once; a cpu run loads every file its configurations
 * name before the first trial, so a bad one stops the run with its file:line before anything runs.
 * @throws UserError (a stage-rules file that is missing or malformed)
 */
function stageRulesLoader(matrix: Matrix, configs: readonly Configuration[], measures: readonly string[]): (file: string) => StageRules {
  const rules = new Map<string, StageRules>();
  const rulesOf = (file: string): StageRules => {
    if (!rules.has(file)) rules.set(file, serverRules(file));
    return rules.get(file)!;
  };
  for (const c of configs) {
    const st = targetOf(matrix, c.values)?.profile?.stages;
    if (st && measures.includes("cpu")) rulesOf(st);
  }
  return rulesOf;
}

/**
 * Run the timing trials of `matrix` and write the timing files into `opts.results`.
 * @returns every trial result (failed ones included)
 * @throws UserError when no timing measure is selected, --only matches nothing, or a layout cannot be given
 */
export async function runTimingMatrix(matrix: Matrix, opts: MeasureRunOptions): Promise<TrialResult[]> {
  const timing = timingOptions(matrix);
  if (!timing) throw new UserError(`${matrix.file}: measures: names no timing measure — add latency, cpu or throughput`);
  const configs = selectedConfigurations(matrix, opts.only);
  const builds = await ensureBuilt(
    matrix,
    configs.map((c) => targetKey(matrix, c.values)),
  );
  preflight(matrix, configs);
  const all = allowedCores();
  const layouts = new Map<string, Layout>();
  for (const c of configs) layouts.set(c.id, resolveLayout(c.values.pinning ?? "default", all, `${matrix.file}: pinning`));
  const trials = opts.trials ?? timing.trials;
  const slots = trialOrder(
    configs.map((c) => c.id),
    trials,
    timing.order,
  );
  const byId = new Map(configs.map((c) => [c.id, c]));
  const started = new Date().toISOString();
  const git = await gitState([opts.results, "site"]); // the code that runs: the checkout as it is now
  const results: TrialResult[] = [];
  const rulesOf = stageRulesLoader(matrix, configs, timing.measures);
  for (const s of slots) {
    const c = byId.get(s.config)!;
    const target = targetOf(matrix, c.values)!;
    const cmd = target.commands.http;
    const r = cmd
      ? await runTrial({
          config: c.id,
          trial: s.trial,
          seq: s.seq,
          command: cmd,
          values: c.values,
          cwd: dirname(matrix.file),
          workload: timing.workloads[target.name] ?? "a2a-send-message",
          layout: layouts.get(c.id)!,
          allCores: all,
          measures: timing.measures,
          warmupCalls: timing.warmupCalls,
          calls: timing.calls,
          connections: timing.connections,
          throughputMs: timing.throughputSeconds * 1000,
          startTimeoutMs: matrix.timeoutMs,
          // The first trial of a cpu run also profiles its server (README "How to read a stage table").
          ...(s.trial === 1 && timing.measures.includes("cpu") && target.profile
            ? { profile: { ...target.profile, rules: target.profile.stages ? rulesOf(target.profile.stages) : null } }
            : {}),
        })
      : noHttpCommand(c, s, target.name);
    results.push(r);
    opts.onTrial?.(r, results.length, slots.length);
  }
  writeTimings(opts.results, results, {
    matrix: recordedPath(matrix.file),
    matrixSha256: matrix.sha256,
    command: opts.command ?? "wirecost run",
    startedAt: started,
    endedAt: new Date().toISOString(),
    machine: machineInfo(),
    node: process.version,
    timing: { ...timing, trials },
    tool: toolInfo(),
    git,
    layouts: Object.fromEntries([...layouts.entries()].map(([k, l]) => [k, l.description])),
    configurations: configs.map((c) => ({ id: c.id, values: c.values })),
    targets: Object.fromEntries(Object.values(matrix.targets).map((t) => [t.name, t.label])),
    ...(builds.records.size ? { builds: buildsProvenance(builds.records) } : {}),
    order: slots.map((s) => `${s.config}#${s.trial}`),
    percentileMethod: "hdrhistogram-js 3 getValueAtPercentile (bucket highest-equivalent value, 3 significant digits)",
    cpuMethod:
      "server: sum of /proc/<pid>/task/*/schedstat run time (ns) over the timed window / requests; cross-check utime+stime ticks from /proc/<pid>/stat, quantisation error = 1 tick / ticks counted; client: process.cpuUsage",
  });
  return results;
}
