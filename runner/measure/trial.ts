/**
 * One timing trial: start a fresh target process (pinned per the layout), pin this client, warm up,
 * run the timed window (latency histogram + server CPU per request + client CPU per request), then
 * each throughput window, stop the target. Failures are data: the result says why.
 */
import { startOnFreePort, startTarget, type TargetProcess } from "../targets/process.js";
import type { TargetCommand } from "../matrix/types.js";
import { KeepAliveClient } from "./client.js";
import { cpuPerRequest, sampleCpu, type CpuPerRequest, type CpuSample } from "./cpu.js";
import { encodeHistogram, summarize, type LatencySummary } from "./histogram.js";
import { runCalls, timeCalls } from "./latency.js";
import { sampleLoad } from "./machine.js";
import { pinProcess, threadAffinities, type Layout } from "./pinning.js";
import { runThroughput } from "./throughput.js";
import { WORKLOADS } from "./workloads.js";
import type { TimedRequest } from "./request.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attribute, type StageRow } from "../attribution/attribute.js";
import type { StageRules } from "../attribution/rules.js";
import { cpuBetween, readProcessCpu, startDeclaredSampler, type ProcCpuReading } from "../attribution/samplers.js";

/** Timing measures a matrix may select (`bytes` is the counting run, handled elsewhere). */
export type TimingMeasure = "latency" | "cpu" | "throughput";

/** Everything one trial needs. */
export interface TrialSpec {
  /** Configuration id. */
  config: string;
  /** Trial number within the configuration, from 1. */
  trial: number;
  /** Position in the whole run's interleaved order, from 1. */
  seq: number;
  /** How to start the target; `{port}` and axis placeholders are substituted. */
  command: TargetCommand;
  /** Axis values (substituted into the command). */
  values: Record<string, string>;
  /** Working folder of the target command. */
  cwd: string;
  /** Workload name (see WORKLOADS). */
  workload: string;
  layout: Layout;
  /** Cores this process was allowed before any pinning (restored after the trial). */
  allCores: number[];
  measures: TimingMeasure[];
  /** Discarded warm-up calls. */
  warmupCalls: number;
  /** Timed calls of the latency/cpu window. */
  calls: number;
  /** Connection counts of the throughput windows. */
  connections: number[];
  /** Duration of each throughput window, milliseconds. */
  throughputMs: number;
  /** How long the target may take to listen, milliseconds. */
  startTimeoutMs: number;
  /**
   * Set on the trial that also runs a profiled window (the first trial of a cpu run, for a target
   * with `profile:`): the server's sampler and stage rules (runner/attribution/).
   */
  profile?: { sampler?: "self" | "py-spy"; pySpy?: string; rules: StageRules | null };
}

/** The server's CPU per request by stage from the profiled window (README "How to read a stage table"). */
export interface TrialStages {
  /** The sampler (`self`, `py-spy`) or `none`. */
  sampler: string;
  /** The window's measured server CPU per request, µs (user + system): the rows sum to it. */
  cpuPerRequestUs: number;
  /** Stage rows of the server (kernel: its system time; not-attributed when there is no profile), µs per request. */
  rows: StageRow[];
  /** The window's folded stacks (kept as `profiles/<config>/server.folded`), when there is a profile. */
  profile?: string;
}

/** One throughput window's figures. */
export interface ThroughputResult {
  connections: number;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  latency: LatencySummary;
  /** Server CPU per request over the window, microseconds (schedstat). */
  cpuPerRequestUs: number;
  /**
   * The same window's server CPU by clock ticks (utime + stime of /proc/<pid>/stat ÷ requests, µs),
   * the ticks counted and their quantisation error (one tick over the ticks; Infinity for none):
   * the time-window probe of the seed write-up (a fixed window, its request count and the tick
   * quantisation error printed with it).
   */
  ticksPerRequestUs: number;
  ticks: number;
  quantisationError: number;
  clientCpuPerRequestUs: number;
  /** HdrHistogram compressed base64 of the window's latencies (ns). */
  histogram: string;
}

/** Result of one trial (status `failed` carries the reason and no figures). */
export interface TrialResult {
  config: string;
  trial: number;
  seq: number;
  layout: string;
  layoutDescription: string;
  workload: string;
  status: "ok" | "failed";
  error?: string;
  /** 1-minute load average just before the trial. */
  load1: number;
  busy: boolean;
  /** Distinct Cpus_allowed_list values over the target's threads after pinning. */
  targetAffinity: string[];
  startedAt: string;
  /** Bytes of the body of the workload's response (after the warm-up calls; Content-Length framing's body, dechunked otherwise). */
  responseBodyBytes?: number;
  /** What the target said when it started listening (its first `listening on …` stderr line), e.g. the event loop and HTTP parser it runs on. */
  listeningLine?: string;
  latency?: LatencySummary & { histogram: string };
  cpu?: CpuPerRequest & { clientCpuPerRequestUs: number };
  throughput?: ThroughputResult[];
  /** The profiled window's stage table (the trial that ran one), or why it could not be made. */
  stages?: TrialStages | { reason: string };
}

/** Start the target, pinned: `taskset -c` on the command line, then `taskset -a -p` on every thread. */
function startPinned(spec: TrialSpec, port: number, profileOut?: string): TargetProcess {
  const argv = [...spec.command.argv];
  if (argv[0] === "node") argv[0] = process.execPath;
  // A self-sampling target of the profiled trial gets its profile window (literal path: braces doubled).
  const env = profileOut ? { ...spec.command.env, WIRECOST_PROFILE_OUT: profileOut.replaceAll("{", "{{").replaceAll("}", "}}") } : spec.command.env;
  const cmd: TargetCommand = spec.layout.targetCores.length ? { argv: ["taskset", "-c", spec.layout.targetCores.join(","), ...argv], env } : { argv, env };
  return startTarget(cmd, { ...spec.values, port: String(port) }, spec.cwd);
}

/**
 * The profiled window of a trial: `spec.calls` more requests on the same warm server, sampled by
 * its sampler, its CPU read at both ends; the stage rows (runner/attribution/attribute.ts, the
 * server's only: no hand-off) sum to the window's CPU per request. A sampler that is missing or
 * refused gives a not-attributed row with the measured CPU, never a failed trial.
 */
async function profiledWindow(
  spec: TrialSpec,
  client: KeepAliveClient,
  req: TimedRequest,
  pid: number,
  out: string,
): Promise<TrialStages | { reason: string }> {
  const prof = spec.profile!;
  const sampler = await startDeclaredSampler(prof, "the target", pid, out);
  let c0: ProcCpuReading;
  try {
    c0 = readProcessCpu(pid);
  } catch (e) {
    return { reason: `could not read the server's CPU: ${(e as Error).message}` };
  }
  const t0 = process.hrtime.bigint();
  await runCalls(client, req, spec.calls);
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  const cpu = cpuBetween(c0, readProcessCpu(pid));
  const result = "reason" in sampler ? sampler : await sampler.stop();
  const table = attribute({
    calls: spec.calls,
    wallUs,
    processes: [
      {
        role: "server",
        cpu,
        profile: "reason" in result ? null : result.profile,
        ...("reason" in result ? { notAttributed: result.reason } : {}),
        rules: prof.rules,
      },
    ],
  });
  return {
    sampler: "reason" in sampler ? "none" : prof.sampler === "self" ? "self" : sampler.name,
    cpuPerRequestUs: (cpu.userUs + cpu.systemUs) / spec.calls,
    rows: table.rows.filter((r) => r.stage !== "hand-off"),
    ...("text" in result ? { profile: result.text } : {}),
  };
}

/**
 * The throughput windows of a trial, one per connection count of `spec.connections`, into `out`
 * as each ends: requests, latency and the server's CPU per request (and its tick figures).
 * @throws Error when a window had a failed exchange (the trial fails with it; the windows before it stay in `out`)
 */
async function throughputWindows(
  spec: TrialSpec,
  port: number,
  req: Parameters<typeof runThroughput>[1],
  pid: number,
  out: NonNullable<TrialResult["throughput"]>,
): Promise<void> {
  for (const c of spec.connections) {
    let before: CpuSample | undefined;
    let after: CpuSample | undefined;
    const t = await runThroughput(port, req, c, spec.throughputMs, { before: () => (before = sampleCpu(pid)), after: () => (after = sampleCpu(pid)) });
    if (t.errors > 0) throw new Error(`throughput with ${c} connections: ${t.errors} failed exchange(s), first: ${t.firstError}`);
    const cpu = cpuPerRequest(before!, after!, Math.max(1, t.requests));
    out.push({
      connections: c,
      requests: t.requests,
      errors: t.errors,
      requestsPerSecond: t.requestsPerSecond,
      latency: summarize(t.hist),
      cpuPerRequestUs: cpu.cpuPerRequestUs,
      ticksPerRequestUs: cpu.ticksPerRequestUs,
      ticks: cpu.ticks,
      quantisationError: cpu.quantisationError,
      clientCpuPerRequestUs: t.clientCpuUs / Math.max(1, t.requests),
      histogram: encodeHistogram(t.hist),
    });
  }
}

/**
 * Run one trial. Never throws for target or response faults: they come back as status `failed`.
 */
export async function runTrial(spec: TrialSpec): Promise<TrialResult> {
  const load = sampleLoad(spec.allCores.length);
  const req0 = WORKLOADS[spec.workload];
  const res: TrialResult = {
    config: spec.config,
    trial: spec.trial,
    seq: spec.seq,
    layout: spec.layout.name,
    layoutDescription: spec.layout.description,
    workload: spec.workload,
    status: "failed",
    load1: load.load1,
    busy: load.busy,
    targetAffinity: [],
    startedAt: new Date().toISOString(),
  };
  if (!req0) return { ...res, error: `unknown workload "${spec.workload}" (workloads: ${Object.keys(WORKLOADS).join(", ")})` };
  let proc: TargetProcess | undefined;
  let client: KeepAliveClient | undefined;
  const profileDir = spec.profile ? mkdtempSync(join(tmpdir(), "wirecost-trial-profile-")) : undefined;
  const profileOut = profileDir ? join(profileDir, "server.folded") : undefined;
  try {
    const started = await startOnFreePort(
      (port) => startPinned(spec, port, spec.profile?.sampler === "self" ? profileOut : undefined),
      spec.startTimeoutMs,
      (p) => {
        proc = p;
      },
    );
    const { port } = started;
    proc = started.proc;
    const p = proc;
    pinProcess(proc.pid, spec.layout.targetCores, spec.allCores);
    pinProcess(process.pid, spec.layout.clientCores, spec.allCores);
    res.targetAffinity = threadAffinities(proc.pid);
    const req = req0(port);
    client = await KeepAliveClient.connect(port);
    await runCalls(client, req, Math.max(1, spec.warmupCalls));
    res.responseBodyBytes = client.lastBodyBytes;
    const listening = proc.listeningLine();
    if (listening) res.listeningLine = listening;
    if (spec.measures.includes("latency") || spec.measures.includes("cpu")) {
      let before: CpuSample | undefined;
      let after: CpuSample | undefined;
      const w = await timeCalls(client, req, spec.calls, { before: () => (before = sampleCpu(p.pid)), after: () => (after = sampleCpu(p.pid)) });
      if (spec.measures.includes("latency")) res.latency = { ...summarize(w.hist), histogram: encodeHistogram(w.hist) };
      if (spec.measures.includes("cpu")) res.cpu = { ...cpuPerRequest(before!, after!, spec.calls), clientCpuPerRequestUs: w.clientCpuUs / spec.calls };
    }
    if (spec.profile) res.stages = await profiledWindow(spec, client, req, p.pid, profileOut!);
    client.close();
    client = undefined;
    if (spec.measures.includes("throughput")) await throughputWindows(spec, port, req, p.pid, (res.throughput = []));
    res.status = "ok";
  } catch (e) {
    const tail = proc?.stderrExcerpt();
    res.error = (e as Error).message + (tail ? ` | stderr: ${tail}` : "");
  } finally {
    client?.close();
    await proc?.stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    try {
      pinProcess(process.pid, [], spec.allCores);
    } catch {
      /* taskset missing: nothing was pinned */
    }
  }
  return res;
}
