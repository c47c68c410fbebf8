/**
 * The per-call mode's profiled trial (README "How to read a stage table"): per path, one more
 * trial beside the stopwatch trials, with the same calls, in which both processes are sampled over
 * the same window and each one's CPU time is read at the window's ends; runner/attribution turns
 * that into the path's stage table. Just before the window and just after it, the same calls with the same phase
 * pauses run unprofiled: check (b)'s like-with-like reference (generators/sections/stage-tables.ts). Who samples what is data (the target's `profile:` in the
 * matrix): the measuring process (wirecost's thin client, an SDK client, the direct call) with V8's
 * profiler in process; a server with `sampler: self` (the signal window) or `sampler: py-spy`; a
 * harness path's processes (the harness as client, its server) with the same two kinds (each
 * process its own signal window, or py-spy on each pid), through the harness's profile window
 * (runner/percall/harness.ts, WIRECOST_PROFILE_WINDOW). A sampler that is missing
 * or refused makes its process's row `not attributed: <reason>`; the trial still runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { attribute, type ProcessWindow, type StageTable } from "../attribution/attribute.js";
import { formatFolded } from "../attribution/folded.js";
import { checkRulesRole, loadStageRules, type StageRules } from "../attribution/rules.js";
import {
  cpuBetween,
  DEFAULT_PROFILE_PERIOD_US,
  readProcessCpu,
  SELF_WINDOW_SETTLE_MS,
  startInProcessSampler,
  startDeclaredSampler,
  type SamplerSpec,
  type CpuReading,
  type ProcCpuReading,
  type SamplerResult,
} from "../attribution/samplers.js";
import { newHistogram, summarize } from "../measure/histogram.js";
import type { Matrix } from "../matrix/types.js";
import { targetOf } from "../matrix/target-of.js";
import { repoRoot } from "../paths.js";
import type { SdkClientName } from "../drivers/declarations.js";
import type { PercallOptions, PercallPath } from "./options.js";
import { phasePause, withoutPhasePause } from "./phase-pause.js";

/** Stage rules of wirecost's own thin client and direct call, in the measuring process. */
export const RAW_CLIENT_STAGES = join(repoRoot, "runner", "percall", "raw-client.stages.yaml");

/**
 * Stage rules of each MCP TypeScript SDK client generation in the measuring process: the client's
 * rules follow the client, whichever server it drives (client `sdk`, `sdk-v1`, `sdk-v2`).
 */
export const SDK_CLIENT_STAGES: Record<SdkClientName, string> = {
  v1: join(repoRoot, "targets", "mcp-ts-v1", "client.stages.yaml"),
  v2: join(repoRoot, "targets", "mcp-ts-v2", "client.stages.yaml"),
};

/** Least warm-up calls before a profiled window (so the window sees steady state). */
const PROFILED_WARMUP_CALLS = 20;

/** One path's profiled trial. */
export interface ProfiledResult {
  status: "ok" | "failed";
  /** Why the trial failed (one line); "" when ok. */
  reason: string;
  calls: number;
  /** Wall time of the window ÷ calls, µs (the phase pauses taken out); null when failed. */
  windowUsPerCall: number | null;
  /**
   * The same calls with the same phase pauses and no sampler, once just before the profiled window
   * and once just after it: their wall time ÷ their calls, µs (pauses taken out). One window on one
   * side read up to 28 % from the profiled window on HTTP paths, in both directions (drift and
   * warm-up over a trial); the mean of the two windows cancels a steady drift. Check (b)'s like-with-like reference: the profiled
   * window differs from it by the profiler alone, and it differs from the stopwatch trials by the
   * pause alone (a call after a pause starts cold). Null when failed, and for a harness path (the
   * harness times its own window, without the pause).
   */
  pausedUsPerCall: number | null;
  /**
   * A harness path's like-with-like reference: the same calls unprofiled in the same process, timed
   * by the harness just before the profiled window and just after it, without pauses (its
   * `reference.json`, harness protocol): the two windows' wall time ÷ their calls, µs. Null when
   * failed, for a path wirecost drives (it has `pausedUsPerCall`), and for a harness that writes no
   * `reference.json`.
   */
  adjacentUsPerCall: number | null;
  /** The profiled calls' own stopwatch, µs; null when failed. */
  p50Us: number | null;
  meanUs: number | null;
  table: StageTable | null;
  /** Which sampler profiled each process (`none` when none did). */
  samplers: { client: string; server: string };
  /** The folded stacks of each process (kept in the results folder). */
  profiles: { client?: string; server?: string };
  /** The target whose path is the direct call check (b) adds to the overhead ("" when the matrix has none). */
  directTarget: string;
}

/** The rules files a path's processes are attributed with (undefined: none declared). */
export function rulesFilesOf(matrix: Matrix, path: PercallPath): { client?: string; server?: string } {
  const prof = targetOf(matrix, path.values)?.profile;
  if (path.kind === "direct") return { client: RAW_CLIENT_STAGES };
  if (path.kind === "harness") return { client: path.drives ? path.clientProfile?.clientStages : prof?.clientStages, server: prof?.stages };
  return { client: path.client === "raw" ? RAW_CLIENT_STAGES : SDK_CLIENT_STAGES[path.sdkClient!], server: prof?.stages };
}

/**
 * Load every rules file the paths name (once each), so a bad file stops the run before anything is measured.
 * @throws UserError (runner/attribution/rules.ts) on a bad rules file
 */
export function loadPathRules(matrix: Matrix, paths: readonly PercallPath[]): Map<string, StageRules> {
  const rules = new Map<string, StageRules>();
  for (const p of paths)
    for (const [role, f] of Object.entries(rulesFilesOf(matrix, p)) as Array<["server" | "client", string | undefined]>) {
      if (!f) continue;
      if (!rules.has(f)) rules.set(f, loadStageRules(f));
      checkRulesRole(rules.get(f)!, role);
    }
  return rules;
}

/** The stopwatch of the profiled calls, µs (same histogram as the stopwatch trials). */
function stopwatch(samplesNs: readonly number[]): { p50Us: number; meanUs: number } {
  const h = newHistogram();
  for (const ns of samplesNs) h.recordValue(Math.max(1, Math.round(ns)));
  const s = summarize(h);
  return { p50Us: s.p50Us, meanUs: s.meanUs };
}

/** Read a process's CPU clocks, or why not. */
function tryCpu(pid: number | undefined): ProcCpuReading | { reason: string } {
  if (pid === undefined) return { reason: "pid unknown" };
  try {
    return readProcessCpu(pid);
  } catch (e) {
    return { reason: `could not read /proc/${pid}: ${(e as Error).message}` };
  }
}

/** The process window of one process from its sampler result, CPU readings and rules. */
function processWindow(
  role: "client" | "server",
  sampled: SamplerResult | { reason: string },
  cpu: CpuReading | { reason: string },
  rules: StageRules | undefined,
): ProcessWindow {
  return {
    role,
    cpu: "reason" in cpu ? null : cpu,
    ...("reason" in cpu ? { cpuReason: cpu.reason } : {}),
    profile: "reason" in sampled ? null : sampled.profile,
    ...("reason" in sampled ? { notAttributed: sampled.reason } : {}),
    rules: rules ?? null,
  };
}

/** A sampler's result without the samples that fell in the window's phase pauses (runner/percall/phase-pause.ts). */
function withoutPause(r: SamplerResult): SamplerResult {
  if ("reason" in r) return r;
  const profile = withoutPhasePause(r.profile);
  return { profile, text: formatFolded(profile) };
}

const cpuDelta = (a: ProcCpuReading | { reason: string }, b: ProcCpuReading | { reason: string }): CpuReading | { reason: string } =>
  "reason" in a ? a : "reason" in b ? b : cpuBetween(a, b);

/**
 * Time `calls` calls one at a time, each after a phase pause (runner/percall/phase-pause.ts).
 * @returns the window's wall time with the pauses taken out (µs) and each call's time (ns)
 */
async function pausedWindow(calls: number, call: () => Promise<unknown>): Promise<{ wallUs: number; samplesNs: number[] }> {
  const samplesNs: number[] = [];
  let pausedUs = 0;
  const w0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    pausedUs += phasePause(DEFAULT_PROFILE_PERIOD_US);
    const t0 = process.hrtime.bigint();
    await call();
    samplesNs.push(Number(process.hrtime.bigint() - t0));
  }
  return { wallUs: Number(process.hrtime.bigint() - w0) / 1000 - pausedUs, samplesNs };
}

/** What a path's calls go through in the profiled trial (runner/percall/engine.ts makes it). */
export interface ProfiledCaller {
  search(): Promise<unknown>;
  /** The server's pid (undefined for the direct path). */
  serverPid: number | undefined;
  close(): Promise<void>;
}

/**
 * The profiled trial of a direct or MCP path: warm up, open the window (V8 in this process, the
 * target's sampler on the server), time `m.calls` calls, close it, attribute.
 * @param start starts the path's caller with the extra server environment given (a profiled
 *   target is started with `WIRECOST_PROFILE_OUT` when its sampler is `self`)
 */
export async function profileInProcessClient(
  m: PercallOptions,
  matrix: Matrix,
  path: Exclude<PercallPath, { kind: "harness" }>,
  rules: Map<string, StageRules>,
  start: (env: Record<string, string>) => Promise<ProfiledCaller>,
  directTarget: string,
): Promise<ProfiledResult> {
  const tmp = mkdtempSync(join(tmpdir(), "wirecost-profile-"));
  const serverOut = join(tmp, "server.folded");
  const t = targetOf(matrix, path.values);
  const files = rulesFilesOf(matrix, path);
  const env: Record<string, string> = path.kind === "mcp" && t?.profile?.sampler === "self" ? selfWindowEnv(serverOut, m.profileHz) : {};
  const caller = await start(env);
  try {
    for (let i = 0; i < Math.max(m.warmupCalls, PROFILED_WARMUP_CALLS); i++) await caller.search();
    const pausedBeforeUs = (await pausedWindow(m.calls, () => caller.search())).wallUs;
    const serverSampler = path.kind === "mcp" ? await startDeclaredSampler(t?.profile, `target ${t?.name ?? "?"}`, caller.serverPid, serverOut) : undefined;
    if (t?.profile?.sampler === "self" && serverSampler && !("reason" in serverSampler)) await sleep(SELF_WINDOW_SETTLE_MS);
    const clientSampler = await startInProcessSampler(m.profileHz);
    const s0 = tryCpu(caller.serverPid);
    const c0 = process.cpuUsage();
    const { wallUs, samplesNs } = await pausedWindow(m.calls, () => caller.search());
    const c = process.cpuUsage(c0);
    const s1 = tryCpu(caller.serverPid);
    const clientRes = "reason" in clientSampler ? clientSampler : withoutPause(await clientSampler.stop());
    const serverRes = serverSampler === undefined ? undefined : "reason" in serverSampler ? serverSampler : await serverSampler.stop();
    const pausedUsPerCall = (pausedBeforeUs + (await pausedWindow(m.calls, () => caller.search())).wallUs) / (2 * m.calls);
    const processes = [processWindow("client", clientRes, { userUs: c.user, systemUs: c.system }, files.client ? rules.get(files.client) : undefined)];
    if (serverRes) processes.push(processWindow("server", serverRes, cpuDelta(s0, s1), files.server ? rules.get(files.server) : undefined));
    const sw = stopwatch(samplesNs);
    return {
      status: "ok",
      reason: "",
      calls: m.calls,
      windowUsPerCall: wallUs / m.calls,
      pausedUsPerCall,
      adjacentUsPerCall: null,
      p50Us: sw.p50Us,
      meanUs: sw.meanUs,
      table: attribute({ calls: m.calls, wallUs, processes }),
      samplers: {
        client: "reason" in clientSampler ? "none" : clientSampler.name,
        server: serverSampler === undefined ? "" : "reason" in serverSampler ? "none" : t?.profile?.sampler === "self" ? "self" : serverSampler.name,
      },
      profiles: {
        ...("text" in clientRes ? { client: clientRes.text } : {}),
        ...(serverRes && "text" in serverRes ? { server: serverRes.text } : {}),
      },
      directTarget,
    };
  } finally {
    await caller.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** What the harness's profile window gave wirecost (see {@link harnessWindow}). */
export interface HarnessWindowOutcome {
  /** Set when the window never opened or broke: why. */
  reason?: string;
  wallUs?: number;
  processes: ProcessWindow[];
  samplers: { client: string; server: string };
  profiles: { client?: string; server?: string };
}

/** Poll every 2 ms until `file` exists or `done` is set; returns whether it exists. */
async function waitFile(file: string, done: { value: boolean }, timeoutMs: number): Promise<boolean> {
  const t0 = Date.now();
  while (!existsSync(file)) {
    if (done.value || Date.now() - t0 > timeoutMs) return false;
    await sleep(2);
  }
  return true;
}

/** The samplers of a harness path's two processes, and the name each one's missing declaration is reported under. */
export interface HarnessSamplers {
  client: SamplerSpec;
  server: SamplerSpec;
  /** Who declares each (for the reason line of a missing sampler), e.g. `target mcp-go`, `client py-sdk`. */
  declaredBy: { client: string; server: string };
}

/**
 * The samplers of a harness path: the harness's target's `profile:` for both of its processes, or,
 * for a client declared under `clients:` driving another server (`drives`), the client's `profile:`
 * for the client and the driven target's for the server.
 */
export function harnessSamplersOf(matrix: Matrix, path: Extract<PercallPath, { kind: "harness" }>): HarnessSamplers {
  const t = targetOf(matrix, path.values);
  if (!path.drives) return { client: t?.profile, server: t?.profile, declaredBy: { client: `target ${t?.name ?? "?"}`, server: `target ${t?.name ?? "?"}` } };
  return { client: path.clientProfile, server: t?.profile, declaredBy: { client: `client ${path.values.client}`, server: `target ${t?.name ?? "?"}` } };
}

/** The environment that makes a process with sampler `self` write its signal window's folded stacks to `file`, sampling at `hz` samples per second. */
export function selfWindowEnv(file: string, hz: number): Record<string, string> {
  return { WIRECOST_PROFILE_OUT: file, WIRECOST_PROFILE_HZ: String(hz) };
}

/**
 * The environment of a harness's profiled trial (harness protocol, README "Per-call harnesses in
 * other languages"): `WIRECOST_PROFILE_WINDOW=dir`, and for a client whose sampler is `self` its
 * signal window's file, `WIRECOST_PROFILE_OUT=<dir>/client.folded` (with `WIRECOST_PROFILE_HZ`); for
 * a server child whose sampler is `self`, `WIRECOST_PROFILE_SERVER_OUT=<dir>/server.folded`, which
 * the harness passes to the server it starts as that child's `WIRECOST_PROFILE_OUT` (so each process
 * writes its own file). A harness driving another server passes no server file: wirecost gives the
 * server its environment itself (engine.ts `harnessCommand`).
 */
export function harnessWindowEnv(dir: string, s: HarnessSamplers, drives: boolean, hz: number): Record<string, string> {
  const env: Record<string, string> = { WIRECOST_PROFILE_WINDOW: dir };
  if (s.client?.sampler === "self") Object.assign(env, selfWindowEnv(join(dir, "client.folded"), hz));
  if (s.server?.sampler === "self" && !drives) Object.assign(env, { WIRECOST_PROFILE_SERVER_OUT: join(dir, "server.folded"), WIRECOST_PROFILE_HZ: String(hz) });
  return env;
}

/**
 * Drive a harness's profile window in `dir` (the harness runs with {@link harnessWindowEnv}):
 * wait for its `ready.json` (pids), start each process's sampler (its `profile:`: the signal
 * window of `sampler: self`, SIGUSR1 to each pid and {@link SELF_WINDOW_SETTLE_MS} for the windows
 * to open, or py-spy attached by pid), read their CPU clocks, write `go`; wait for `end.json` (the
 * window's wall time), read the clocks, stop the samplers (SIGUSR2 and the file, or py-spy's
 * SIGINT), write `release`.
 * @param done set when the harness has exited (the window then ends without profiles)
 * @param serverPid the server's pid when wirecost started it (a harness driving a server over HTTP reports none)
 */
export async function harnessWindow(
  dir: string,
  s: HarnessSamplers,
  files: { client?: string; server?: string },
  rules: Map<string, StageRules>,
  done: { value: boolean },
  timeoutMs: number,
  serverPid?: number,
): Promise<HarnessWindowOutcome> {
  const none: HarnessWindowOutcome = { processes: [], samplers: { client: "none", server: "none" }, profiles: {} };
  if (!(await waitFile(join(dir, "ready.json"), done, timeoutMs)))
    return { ...none, reason: "the harness opened no profile window (it does not write WIRECOST_PROFILE_WINDOW's ready.json: harness protocol)" };
  const ready = JSON.parse(readFileSync(join(dir, "ready.json"), "utf8")) as { clientPid: number; serverPid?: number };
  const server = ready.serverPid ?? serverPid;
  const roles: ("client" | "server")[] = server === undefined ? ["client"] : ["client", "server"];
  const pidOf = (r: "client" | "server"): number | undefined => (r === "client" ? ready.clientPid : server);
  const samplers = await Promise.all(roles.map((r) => startDeclaredSampler(s[r], s.declaredBy[r], pidOf(r), join(dir, `${r}.folded`))));
  if (roles.some((r, i) => s[r]?.sampler === "self" && !("reason" in samplers[i]!))) await sleep(SELF_WINDOW_SETTLE_MS);
  const cpu0 = roles.map((r) => tryCpu(pidOf(r)));
  writeFileSync(join(dir, "go"), "");
  const ended = await waitFile(join(dir, "end.json"), done, timeoutMs);
  const cpu1 = roles.map((r) => tryCpu(pidOf(r)));
  const results = await Promise.all(samplers.map((x) => ("reason" in x ? x : x.stop())));
  writeFileSync(join(dir, "release"), "");
  if (!ended) return { ...none, reason: "the harness never closed its profile window (no end.json)" };
  const end = JSON.parse(readFileSync(join(dir, "end.json"), "utf8")) as { windowNs: number };
  return {
    wallUs: end.windowNs / 1000,
    processes: roles.map((r, i) => processWindow(r, results[i]!, cpuDelta(cpu0[i]!, cpu1[i]!), files[r] ? rules.get(files[r]!) : undefined)),
    samplers: {
      client: "reason" in samplers[0]! ? "none" : samplers[0]!.name,
      server: roles.length < 2 ? "" : "reason" in samplers[1]! ? "none" : samplers[1]!.name,
    },
    profiles: Object.fromEntries(roles.flatMap((r, i) => ("text" in results[i]! ? [[r, (results[i] as { text: string }).text]] : []))),
  };
}

/**
 * The adjacent reference windows a harness wrote in `dir` (`reference.json` = {beforeNs, afterNs,
 * calls}, harness protocol): their wall time ÷ their calls, µs; null when the harness wrote none or
 * a malformed one (the check then falls back to the stopwatch trials' mean).
 */
export function readAdjacentReference(dir: string): number | null {
  const file = join(dir, "reference.json");
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as { beforeNs?: unknown; afterNs?: unknown; calls?: unknown };
    const ok = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x > 0;
    if (!ok(r.beforeNs) || !ok(r.afterNs) || !ok(r.calls)) return null;
    return (r.beforeNs + r.afterNs) / (2 * r.calls) / 1000;
  } catch {
    return null;
  }
}

/**
 * The profiled result of a harness trial from its samples (µs), its window and its adjacent
 * reference windows (µs per call, {@link readAdjacentReference}; null when none).
 */
export function harnessProfiled(
  calls: number,
  samplesUs: readonly number[],
  w: HarnessWindowOutcome,
  directTarget: string,
  adjacentUsPerCall: number | null = null,
): ProfiledResult {
  if (w.reason || w.wallUs === undefined)
    return {
      status: "failed",
      reason: w.reason ?? "no window",
      calls,
      windowUsPerCall: null,
      pausedUsPerCall: null,
      adjacentUsPerCall: null,
      p50Us: null,
      meanUs: null,
      table: null,
      samplers: w.samplers,
      profiles: {},
      directTarget,
    };
  const sw = stopwatch(samplesUs.map((us) => us * 1000));
  return {
    status: "ok",
    reason: "",
    calls,
    windowUsPerCall: w.wallUs / calls,
    pausedUsPerCall: null,
    adjacentUsPerCall,
    p50Us: sw.p50Us,
    meanUs: sw.meanUs,
    table: attribute({ calls, wallUs: w.wallUs, processes: w.processes }),
    samplers: w.samplers,
    profiles: w.profiles,
    directTarget,
  };
}

/** A profiled trial that could not run (the path's stopwatch trials failed, or the start failed): why. */
export function failedProfiled(calls: number, reason: string, directTarget: string): ProfiledResult {
  return {
    status: "failed",
    reason,
    calls,
    windowUsPerCall: null,
    pausedUsPerCall: null,
    adjacentUsPerCall: null,
    p50Us: null,
    meanUs: null,
    table: null,
    samplers: { client: "none", server: "none" },
    profiles: {},
    directTarget,
  };
}
