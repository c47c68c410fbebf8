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
}

/** Start the target, pinned: `taskset -c` on the command line, then `taskset -a -p` on every thread. */
function startPinned(spec: TrialSpec, port: number): TargetProcess {
  const argv = [...spec.command.argv];
  if (argv[0] === "node") argv[0] = process.execPath;
  const cmd: TargetCommand = spec.layout.targetCores.length
    ? { argv: ["taskset", "-c", spec.layout.targetCores.join(","), ...argv], env: spec.command.env }
    : { argv, env: spec.command.env };
  return startTarget(cmd, { ...spec.values, port: String(port) }, spec.cwd);
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
  try {
    const started = await startOnFreePort(
      (port) => startPinned(spec, port),
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
    client.close();
    client = undefined;
    if (spec.measures.includes("throughput")) {
      res.throughput = [];
      for (const c of spec.connections) {
        let before: CpuSample | undefined;
        let after: CpuSample | undefined;
        const t = await runThroughput(port, req, c, spec.throughputMs, { before: () => (before = sampleCpu(p.pid)), after: () => (after = sampleCpu(p.pid)) });
        if (t.errors > 0) throw new Error(`throughput with ${c} connections: ${t.errors} failed exchange(s), first: ${t.firstError}`);
        const cpu = cpuPerRequest(before!, after!, Math.max(1, t.requests));
        res.throughput.push({
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
    res.status = "ok";
  } catch (e) {
    const tail = proc?.stderrExcerpt();
    res.error = (e as Error).message + (tail ? ` | stderr: ${tail}` : "");
  } finally {
    client?.close();
    await proc?.stop();
    try {
      pinProcess(process.pid, [], spec.allCores);
    } catch {
      /* taskset missing: nothing was pinned */
    }
  }
  return res;
}
