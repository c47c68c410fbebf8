/**
 * The per-call engine: for every path (one expanded configuration of a `measures: [percall]`
 * matrix: the direct in-process call, or an MCP target over stdio or HTTP at one revision) it measures
 * - latency: per trial a fresh warm session, `warmupCalls` discarded, `calls` timed one at a time
 *   into an HdrHistogram (ns); p50/p95/p99 per trial, median over trials, tail spread p95 − p50;
 * - setup: spawn → open → tools/list → first tools/call answer, milliseconds, timed apart;
 * - loops: `loopCalls` single-id `get_tickets` calls sequential, the same concurrent over one
 *   session, and one `get_tickets` with all the ids; elapsed milliseconds;
 * - payload sweep: p50/p95 of `search_tickets` per `limit`, with the result text's bytes.
 * An MCP path's calls go through the client its `client` axis value names: wirecost's thin client
 * (runner/percall/client.ts) or the target's own SDK client (runner/percall/sdk-client.ts), both in
 * this process; for every path timed here the process's CPU time per timed call is recorded
 * (`process.cpuUsage()` around the timed calls ÷ calls: the client's own share on an MCP path).
 * A harness path (runner/percall/harness.ts) times its calls itself: per trial its command runs
 * once and prints `calls` samples, summarised here into the same histogram; its setup is what the
 * harness reports, and so are its loops and payload sweep when it reports them in every trial (asked
 * through WIRECOST_LOOP_IDS and WIRECOST_PAYLOAD_LIMITS; not measured otherwise). A harness run that fails
 * marks its path failed with the reason (its later trials are not run) and the other paths go on.
 * Trials run interleaved over paths (trial 1 of every path, then trial 2, …) so load drift on a
 * shared machine spreads over all paths. It returns the figures; runner/percall/files.ts writes them.
 */
import { median as ssMedian } from "simple-statistics";
import { installedPackageVersion } from "../matrix/preflight.js";
import { loadavg } from "node:os";
import { dirname } from "node:path";
import { newHistogram, summarize } from "../measure/histogram.js";
import { openTickets, ticketsDbPath, ticketsText, type Ticket, type TicketStore } from "../../targets/workload/tickets.js";
import { readBuildRecord } from "../build/build.js";
import { resolvedVersion } from "../build/resolved.js";
import type { Matrix, TargetCommand } from "../matrix/types.js";
import { McpCallClient, spawnTarget, stopTarget, type CallClient, type SetupTiming } from "./client.js";
import { freePort } from "../targets/process.js";
import { SDK_CLIENT_PACKAGES, SdkCallClient } from "./sdk-client.js";
import { literal, runHarness } from "./harness.js";
import type { PercallOptions, PercallPath } from "./options.js";
import type { SdkClientName } from "../drivers/declarations.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { targetOf } from "../matrix/target-of.js";
import type { StageRules } from "../attribution/rules.js";
import {
  failedProfiled,
  harnessProfiled,
  readAdjacentReference,
  harnessWindow,
  harnessWindowEnv,
  harnessSamplersOf,
  selfWindowEnv,
  loadPathRules,
  profileInProcessClient,
  rulesFilesOf,
  type ProfiledResult,
} from "./profiled.js";
import { ProtocolError } from "../drivers/types.js";
import { ResponseTimeout } from "../errors.js";

/** One trial's latency percentiles, microseconds, and the 1-minute load average when it started. */
export interface TrialLatency {
  p50Us: number;
  p95Us: number;
  p99Us: number;
  meanUs: number;
  count: number;
  loadavg1: number;
  /**
   * CPU time (user + system) of the measuring process per timed call, microseconds: the
   * `process.cpuUsage()` delta around the timed calls divided by their count. For an MCP path it
   * is the client's own share (the server is another process); for the direct path, the call
   * itself. A harness path: what the harness reported of its own process (`cpuPerCallUs`), or null.
   */
  clientCpuPerCallUs: number | null;
}

/** Loop elapsed times of one repeat, milliseconds. */
export interface LoopSample {
  sequentialMs: number;
  concurrentMs: number;
  batchMs: number;
}

/** One payload-sweep point of one trial. */
export interface PayloadSample {
  limit: number;
  /** Bytes of the result text (the JSON of the rows; the direct path's rows serialised the same way). */
  resultBytes: number;
  p50Us: number;
  p95Us: number;
}

/**
 * Everything measured for one path. Medians are over trials (latency) or over all samples (setup,
 * loops). A failed path (a harness run that gave no valid samples) has `status` failed, the
 * `reason`, and null figures; the trials it measured before failing are kept.
 */
export interface PathResults {
  /** Configuration id, e.g. `mcp-ts-v2-http-2026-07-28`. */
  id: string;
  label: string;
  kind: "direct" | "mcp" | "harness";
  target: string;
  transport: string;
  revision: string;
  status: "ok" | "failed";
  /** Why the path failed (one line, the trial named); "" when ok. */
  reason: string;
  /**
   * The target whose MCP server answered the calls: the configuration's target for a path timed by
   * wirecost or by a client declared under `clients:`, a harness target's `harness.server`; "" in-process
   * or when a harness names none.
   */
  server: string;
  /** Who timed the calls: wirecost in this process, or the path's harness. */
  measuredBy: "wirecost" | "harness";
  /** The runtime the calls were timed in: `node v20.11.1`, or the harness's (`python 3.11.7`); "" when it never reported. */
  runtime: string;
  /** The client the calls went through: `wirecost` (its own JSON-RPC client), the harness's SDK (`mcp 2.2.0`), or "" (in-process). */
  client: string;
  /** Version of the target's SDK package: installed (npm) or resolved by its build ("" when it names none). */
  packageVersion: string;
  trials: TrialLatency[];
  p50Us: number | null;
  p95Us: number | null;
  /** p95Us − p50Us. */
  spreadUs: number | null;
  /** Median over trials of {@link TrialLatency.clientCpuPerCallUs}, µs; null when not measured (a harness that does not report it) or failed. */
  clientCpuPerCallUs: number | null;
  /** Setup samples (none for direct: nothing to start; a harness's: one per trial, when it reports them). */
  setup: SetupTiming[];
  /** Median of each setup phase over the samples, milliseconds; null without samples. */
  setupMedians: SetupTiming | null;
  loops: LoopSample[];
  /** Null when not measured (harness paths) or failed. */
  loopMedians: LoopSample | null;
  /** Payload sweep: per limit, median over trials of p50/p95; empty when not measured (harness paths). */
  payload: PayloadSample[];
  /** Every timed call of each trial, microseconds, in call order (harness paths; empty otherwise). */
  calls: number[][];
  /** The profiled trial beside the stopwatch trials (runner/percall/profiled.ts): its stage table and profiles. */
  profiled: ProfiledResult;
}

/** Median of numbers (simple-statistics: mean of the middle two for an even count). @throws Error on an empty list */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error("median of nothing");
  return ssMedian([...xs]);
}

const round = (x: number, digits = 3): number => Number(x.toFixed(digits));

/**
 * What a path's calls go through: the same operations either in-process or over a session.
 * `search` returns the call's natural result (rows for the direct path, the result text over MCP);
 * `bytesOf` sizes it outside the timed region (the rows serialised as the tools serialise them).
 */
interface Caller {
  search(query: string, limit: number): Promise<unknown>;
  get(ids: number[]): Promise<unknown>;
  bytesOf(result: unknown): number;
  close(): Promise<void>;
}

function directCaller(store: TicketStore): Caller {
  return {
    search: async (q, l) => store.searchTickets(q, l),
    get: async (ids) => store.getTickets(ids),
    bytesOf: (rows) => Buffer.byteLength(ticketsText(rows as Ticket[])),
    close: async () => {},
  };
}

function resultText(result: Record<string, unknown>): string {
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  return content?.[0]?.text ?? "";
}

async function mcpCaller(
  m: PercallOptions,
  path: Extract<PercallPath, { kind: "mcp" }>,
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ caller: Caller & { serverPid: number | undefined }; setup: SetupTiming }> {
  const spec = { command: path.command, values: path.values, transport: path.transport, revision: path.revision, cwd, timeoutMs: m.timeoutMs, env };
  const first = { name: "search_tickets", arguments: { query: m.query, limit: m.limit } };
  const { client, setup }: { client: CallClient; setup: SetupTiming } =
    path.client === "sdk" ? await SdkCallClient.start(spec, path.sdkClient!, first) : await McpCallClient.start(spec, first);
  return {
    setup,
    caller: {
      search: async (query, limit) => resultText(await client.callTool("search_tickets", { query, limit })),
      get: async (ids) => resultText(await client.callTool("get_tickets", { ids })),
      bytesOf: (text) => Buffer.byteLength(text as string),
      close: () => client.close(),
      serverPid: client.serverPid,
    },
  };
}

/** The trial summary of samples in microseconds, through the same histogram as timed calls. */
function summarizeUs(samplesUs: readonly number[]): { p50Us: number; p95Us: number; p99Us: number; meanUs: number; count: number } {
  const h = newHistogram();
  for (const us of samplesUs) h.recordValue(Math.max(1, Math.round(us * 1000)));
  const s = summarize(h);
  return { p50Us: round(s.p50Us), p95Us: round(s.p95Us), p99Us: round(s.p99Us), meanUs: round(s.meanUs), count: s.count };
}

/**
 * Time `n` sequential calls of `fn` into a histogram; returns the trial summary, this process's
 * CPU time (user + system, `process.cpuUsage()` before and after the calls) per call, µs, and each
 * call's time in call order (`samplesUs`, µs, 3 decimals: what `percall-samples.tsv` keeps as kind
 * `call`, like a harness's samples).
 */
async function timeCalls(
  n: number,
  fn: () => Promise<unknown>,
): Promise<{ p50Us: number; p95Us: number; p99Us: number; meanUs: number; count: number; clientCpuPerCallUs: number; samplesUs: number[] }> {
  const h = newHistogram();
  const samplesNs: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samplesNs.push(Math.max(1, Number(process.hrtime.bigint() - t0)));
  }
  const cpu = process.cpuUsage(cpu0);
  for (const ns of samplesNs) h.recordValue(ns);
  const s = summarize(h);
  return {
    p50Us: round(s.p50Us),
    p95Us: round(s.p95Us),
    p99Us: round(s.p99Us),
    meanUs: round(s.meanUs),
    count: s.count,
    clientCpuPerCallUs: round((cpu.user + cpu.system) / Math.max(1, n)),
    samplesUs: samplesNs.map((ns) => Math.round(ns) / 1000),
  };
}

const elapsedMs = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = process.hrtime.bigint();
  await fn();
  return round(Number(process.hrtime.bigint() - t0) / 1e6);
};

/** Progress lines go to stderr. */
export type Log = (line: string) => void;

/** What a trial needs besides the options: the matrix folder, the ticket database and the loop ids. */
interface TrialContext {
  cwd: string;
  store: TicketStore;
  /** Absolute path of the ticket database (given to harnesses). */
  dbFile: string;
  ids: number[];
  /** Bytes of the measured call's result text (a harness's must match). */
  resultBytes: number;
}

/**
 * The harness command of a path that drives another server (`drives`, a client declared under
 * `clients:`), and how to end what wirecost started for it: over stdio `{stdio}` becomes `env
 * VAR=VALUE… SERVER ARGV` (the server's `env:`, its axes as `WIRECOST_<AXIS>` and
 * WIRECOST_TICKETS_DB; its axis placeholders substituted with the harness's), which the harness
 * starts as its child in its own working folder; over HTTP wirecost starts the server on a free
 * port of 127.0.0.1 (its binds checked, as for every target) and `{url}` is its endpoint. A path
 * that drives nothing is returned as it is.
 * @throws ProtocolError when the HTTP server does not start (the path fails with the reason)
 */
async function harnessCommand(
  m: PercallOptions,
  path: Extract<PercallPath, { kind: "harness" }>,
  ctx: TrialContext,
  serverEnv: Record<string, string> = {},
): Promise<{ command: TargetCommand; values: Record<string, string>; stop: () => Promise<void>; serverPid?: number }> {
  const none = { command: path.command, values: path.values, stop: async () => {} };
  const server = path.drives;
  if (!server) return none;
  if (path.transport === "stdio") {
    const env = {
      ...Object.fromEntries(Object.entries(path.values).map(([k, v]) => [`WIRECOST_${k.toUpperCase()}`, literal(v)])),
      ...server.env,
      WIRECOST_TICKETS_DB: literal(ctx.dbFile),
      ...Object.fromEntries(Object.entries(serverEnv).map(([k, v]) => [k, literal(v)])),
    };
    const items = ["env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...server.argv];
    return { ...none, command: { ...path.command, argv: path.command.argv.flatMap((a) => (a === "{stdio}" ? items : [a])) } };
  }
  const spec = {
    command: server,
    values: path.values,
    transport: "http" as const,
    revision: path.revision,
    cwd: ctx.cwd,
    timeoutMs: m.timeoutMs,
    env: { WIRECOST_TICKETS_DB: ctx.dbFile, ...serverEnv },
  };
  const port = await freePort();
  const { proc } = await spawnTarget(spec, port);
  return { ...none, values: { ...path.values, url: `http://127.0.0.1:${port}/mcp` }, stop: () => stopTarget(proc, "http"), serverPid: proc.pid };
}

/** One trial of a harness path: one run of its command; a failure is recorded in `acc.failure`. */
async function runHarnessTrial(m: PercallOptions, path: Extract<PercallPath, { kind: "harness" }>, ctx: TrialContext, trial: number, acc: Acc): Promise<void> {
  const load1 = round(loadavg()[0]!, 2);
  // A client driving another server times its calls only: its loops and payload sweep are its
  // harness rows' (against its own server), and the grid of every client against every server reads p50s.
  const loopIds = path.drives ? [] : ctx.ids;
  const payloadLimits = path.drives ? [] : m.payloadLimits;
  const payloadBytes = payloadLimits.map((limit) => ({ limit, resultBytes: Buffer.byteLength(ticketsText(ctx.store.searchTickets(m.query, limit))) }));
  const run = await harnessCommand(m, path, ctx);
  const r = await runHarness({
    command: run.command,
    values: run.values,
    cwd: ctx.cwd,
    timeoutMs: m.timeoutMs,
    call: {
      ticketsDb: ctx.dbFile,
      query: m.query,
      limit: m.limit,
      calls: m.calls,
      warmupCalls: m.warmupCalls,
      loops: { ids: loopIds, repeats: m.loopRepeats },
      payload: { limits: payloadLimits, calls: m.payloadCalls },
    },
    expect: {
      calls: m.calls,
      resultBytes: ctx.resultBytes,
      revision: path.revision,
      ...(loopIds.length > 0 ? { loopRepeats: m.loopRepeats } : {}),
      ...(payloadLimits.length > 0 ? { payload: { calls: m.payloadCalls, bytes: payloadBytes } } : {}),
    },
  }).finally(run.stop);
  if ("reason" in r) {
    acc.failure = `trial ${trial}: harness ${r.reason}`;
    return;
  }
  const o = r.output;
  acc.runtime = `${o.runtime.name} ${o.runtime.version}`;
  acc.client = o.sdk ? `${o.sdk.name} ${o.sdk.version}` : "";
  acc.calls.push(o.samplesUs);
  acc.trials.push({ ...summarizeUs(o.samplesUs), loadavg1: load1, clientCpuPerCallUs: o.cpuPerCallUs ?? null });
  if (o.setup) acc.setup.push(o.setup);
  if (o.loops) acc.loops.push(...o.loops);
  else acc.unreported.add("loops");
  for (const p of o.payload ?? []) {
    const s = summarizeUs(p.samplesUs);
    acc.payload.push({ limit: p.limit, resultBytes: p.resultBytes, p50Us: s.p50Us, p95Us: s.p95Us });
  }
  if (!o.payload) acc.unreported.add("payload");
}

/** One trial of one path: fresh session, latency, loops, payload sweep. */
async function runTrial(m: PercallOptions, path: PercallPath, ctx: TrialContext, trial: number, acc: Acc): Promise<void> {
  if (path.kind === "harness") return runHarnessTrial(m, path, ctx, trial, acc);
  const { cwd, store, ids } = ctx;
  const load1 = round(loadavg()[0]!, 2);
  let caller: Caller;
  if (path.kind === "direct") {
    caller = directCaller(store);
    await caller.search(m.query, m.limit); // the first call, discarded like the sessions' first call
  } else {
    const started = await mcpCaller(m, path, cwd);
    caller = started.caller;
    acc.setup.push(started.setup);
  }
  try {
    for (let i = 0; i < m.warmupCalls; i++) await caller.search(m.query, m.limit);
    const { samplesUs, ...trial } = await timeCalls(m.calls, () => caller.search(m.query, m.limit));
    acc.calls.push(samplesUs);
    acc.trials.push({ ...trial, loadavg1: load1 });
    for (let r = 0; r <= m.loopRepeats; r++) {
      const sample: LoopSample = {
        sequentialMs: await elapsedMs(async () => {
          for (const id of ids) await caller.get([id]);
        }),
        concurrentMs: await elapsedMs(() => Promise.all(ids.map((id) => caller.get([id])))),
        batchMs: await elapsedMs(() => caller.get(ids)),
      };
      if (r > 0) acc.loops.push(sample); // the first repeat is discarded
    }
    for (const limit of m.payloadLimits) {
      const bytes = caller.bytesOf(await caller.search(m.query, limit));
      const s = await timeCalls(m.payloadCalls, () => caller.search(m.query, limit));
      acc.payload.push({ limit, resultBytes: bytes, p50Us: s.p50Us, p95Us: s.p95Us });
    }
  } finally {
    await caller.close();
  }
}

/** The target whose path is the direct call of `path` in check (b): its `profile.direct`, else the matrix's in-process target ("" when none). */
function directTargetOf(matrix: Matrix, path: PercallPath): string {
  return targetOf(matrix, path.values)?.profile?.direct ?? Object.values(matrix.targets).find((t) => t.inProcess)?.name ?? "";
}

/**
 * The profiled trial of one path (runner/percall/profiled.ts); a target that fails in it (it does
 * not start, answers an error) makes the trial failed with the reason, not the run.
 */
async function runProfiledTrial(
  m: PercallOptions,
  matrix: Matrix,
  path: PercallPath,
  ctx: TrialContext,
  rules: Map<string, StageRules>,
): Promise<ProfiledResult> {
  const direct = directTargetOf(matrix, path);
  try {
    if (path.kind === "direct")
      return await profileInProcessClient(
        m,
        matrix,
        path,
        rules,
        async () => ({ search: async () => ctx.store.searchTickets(m.query, m.limit), serverPid: undefined, close: async () => {} }),
        direct,
      );
    if (path.kind === "mcp")
      return await profileInProcessClient(
        m,
        matrix,
        path,
        rules,
        async (env) => {
          const { caller } = await mcpCaller(m, path, ctx.cwd, env);
          return { search: () => caller.search(m.query, m.limit), serverPid: caller.serverPid, close: () => caller.close() };
        },
        direct,
      );
    if (path.drives && !path.clientProfile) return failedProfiled(m.calls, NOT_PROFILED_CELL, direct);
    const dir = mkdtempSync(join(tmpdir(), "wirecost-window-"));
    try {
      const done = { value: false };
      const samplers = harnessSamplersOf(matrix, path);
      const launch = await harnessCommand(
        m,
        path,
        ctx,
        path.drives && samplers.server?.sampler === "self" ? selfWindowEnv(join(dir, "server.folded"), m.profileHz) : {},
      );
      const run = runHarness({
        command: launch.command,
        values: launch.values,
        cwd: ctx.cwd,
        timeoutMs: m.timeoutMs,
        call: { ticketsDb: ctx.dbFile, query: m.query, limit: m.limit, calls: m.calls, warmupCalls: m.warmupCalls },
        expect: { calls: m.calls, resultBytes: ctx.resultBytes, revision: path.revision },
        env: harnessWindowEnv(dir, samplers, path.drives !== undefined, m.profileHz),
      })
        .finally(() => (done.value = true))
        .finally(launch.stop);
      const w = await harnessWindow(dir, samplers, rulesFilesOf(matrix, path), rules, done, m.timeoutMs, launch.serverPid);
      const r = await run;
      if ("reason" in r) return failedProfiled(m.calls, `harness ${r.reason}`, direct);
      return harnessProfiled(m.calls, r.output.samplesUs, w, direct, readAdjacentReference(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } catch (e) {
    if (e instanceof ProtocolError) return failedProfiled(m.calls, e.message.replace(/\s+/g, " "), direct);
    throw e;
  }
}

/** The profiled trial's reason for a path of a client declared under `clients:` with no `profile:` driving another server. */
const NOT_PROFILED_CELL =
  "not profiled: the client declares no profile: (clients: NAME: profile: { sampler, clientStages } in the matrix), so its cells are timed only";

interface Acc {
  trials: TrialLatency[];
  setup: SetupTiming[];
  loops: LoopSample[];
  payload: PayloadSample[];
  /** What a harness left out of at least one trial (`loops`, `payload`): not measured for the path. */
  unreported: Set<"loops" | "payload">;
  calls: number[][];
  /** Set when a harness run failed: the reason. */
  failure?: string;
  runtime: string;
  client: string;
  profiled?: ProfiledResult;
}

/** The SDK client a path's calls go through, as recorded: `@modelcontextprotocol/client 2.4.0` (installed version). */
function sdkClientText(generation: SdkClientName): string {
  const pkg = SDK_CLIENT_PACKAGES[generation];
  return `${pkg} ${installedPackageVersion(pkg) ?? "not installed"}`;
}

/** Version of `t`'s package: resolved by its build (built targets), else installed in node_modules. */
function packageVersion(matrix: Matrix, target: string, pkg: string): string {
  const t = matrix.targets[target];
  if (t?.build) {
    const set = readBuildRecord(t)?.resolved;
    return (set && resolvedVersion(set, pkg)) ?? "not resolved";
  }
  return installedPackageVersion(pkg) ?? "not installed";
}

/**
 * Measure every path of `paths` with the parameters `m` (trials interleaved over paths).
 * @param matrix the matrix the paths come from (its folder is where target commands run; its targets give package versions)
 * @param log progress lines (one per trial and per path's setup samples)
 * @returns one result per path, in the order of `paths`; a harness path that failed has status failed
 * @throws ProtocolError (runner/drivers/types.ts) when a target driven by wirecost fails to start or answers an error (a bug or a broken target)
 */
export async function runPercall(m: PercallOptions, paths: readonly PercallPath[], matrix: Matrix, log: Log): Promise<PathResults[]> {
  const cwd = dirname(matrix.file);
  const rules = loadPathRules(matrix, paths);
  const dbFile = ticketsDbPath();
  const store = openTickets(dbFile);
  const ctx: TrialContext = {
    cwd,
    store,
    dbFile,
    ids: store.searchTickets(m.query, m.loopCalls).map((t) => t.id),
    resultBytes: Buffer.byteLength(ticketsText(store.searchTickets(m.query, m.limit))),
  };
  const accs = new Map<string, Acc>(
    paths.map((p) => [
      p.id,
      {
        trials: [],
        setup: [],
        loops: [],
        payload: [],
        unreported: new Set(),
        calls: [],
        runtime: p.kind === "harness" ? "" : `node ${process.version}`,
        client: p.kind !== "mcp" ? "" : p.client === "sdk" ? sdkClientText(p.sdkClient!) : "wirecost",
      },
    ]),
  );
  try {
    for (let trial = 1; trial <= m.trials; trial++) {
      for (const path of paths) {
        const acc = accs.get(path.id)!;
        if (acc.failure) continue; // a failed harness path runs no more trials
        const t0 = Date.now();
        try {
          await runTrial(m, path, ctx, trial, acc);
        } catch (e) {
          // A server that stops answering (ResponseTimeout) or answers garbage (ProtocolError) fails its path, not the run.
          if (!(e instanceof ProtocolError || e instanceof ResponseTimeout)) throw e;
          acc.failure = `trial ${trial}: ${e.message.replace(/\s+/g, " ")}`;
        }
        if (acc.failure) {
          log(`trial ${trial}/${m.trials} ${path.id}: FAILED: ${acc.failure}`);
          continue;
        }
        const last = acc.trials.at(-1)!;
        log(
          `trial ${trial}/${m.trials} ${path.id}: p50 ${last.p50Us} µs p95 ${last.p95Us} µs (load ${last.loadavg1}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
    }
    for (const path of paths) {
      if (path.kind !== "mcp" || accs.get(path.id)!.failure) continue;
      for (let r = 0; r < m.setupRepeats; r++) {
        const { caller, setup } = await mcpCaller(m, path, cwd);
        accs.get(path.id)!.setup.push(setup);
        await caller.close();
      }
      log(`setup ${path.id}: ${accs.get(path.id)!.setup.length} samples`);
    }
    for (const path of paths) {
      const acc = accs.get(path.id)!;
      acc.profiled = acc.failure
        ? failedProfiled(m.calls, "its stopwatch trials failed", directTargetOf(matrix, path))
        : await runProfiledTrial(m, matrix, path, ctx, rules);
      const p = acc.profiled;
      log(
        p.status === "ok"
          ? `profiled ${path.id}: ${p.windowUsPerCall!.toFixed(1)} µs per call in the window (samplers: client ${p.samplers.client}${p.samplers.server ? `, server ${p.samplers.server}` : ""})`
          : `profiled ${path.id}: ${p.reason === NOT_PROFILED_CELL ? "" : "FAILED: "}${p.reason}`,
      );
    }
  } finally {
    store.close();
  }
  return paths.map((path) => pathResults(m, matrix, path, accs.get(path.id)!));
}

/** One path's results from what its trials gathered: medians of its stopwatch trials, set-up, loops, payload and its profiled trial. */
function pathResults(m: PercallOptions, matrix: Matrix, path: PercallPath, a: Acc): PathResults {
  const ok = !a.failure;
  const p50Us = ok ? round(median(a.trials.map((t) => t.p50Us))) : null;
  const p95Us = ok ? round(median(a.trials.map((t) => t.p95Us))) : null;
  const cpus = a.trials.flatMap((t) => (t.clientCpuPerCallUs === null ? [] : [t.clientCpuPerCallUs]));
  const clientCpuPerCallUs = ok && cpus.length > 0 ? round(median(cpus)) : null;
  const served = path.kind === "direct" ? undefined : path;
  const setup = a.setup.map((s) => ({ readyMs: round(s.readyMs), openMs: round(s.openMs), listedMs: round(s.listedMs), firstCallMs: round(s.firstCallMs) }));
  const med = (k: keyof SetupTiming): number => round(median(setup.map((s) => s[k])));
  const loopsMeasured = ok && !a.unreported.has("loops") && a.loops.length > 0;
  const payloadMeasured = ok && !a.unreported.has("payload") && a.payload.length > 0;
  return {
    id: path.id,
    label: path.label,
    kind: path.kind,
    target: path.target,
    transport: served?.transport ?? "in-process",
    revision: served && served.revision !== "none" ? served.revision : "",
    status: ok ? "ok" : "failed",
    reason: a.failure ?? "",
    server: serverOf(matrix, path),
    measuredBy: path.kind === "harness" ? "harness" : "wirecost",
    runtime: a.runtime,
    client: a.client,
    packageVersion: served?.package ? packageVersion(matrix, path.target, served.package) : "",
    trials: a.trials,
    p50Us,
    p95Us,
    spreadUs: p50Us !== null && p95Us !== null ? round(p95Us - p50Us) : null,
    clientCpuPerCallUs,
    setup,
    setupMedians: ok && setup.length ? { readyMs: med("readyMs"), openMs: med("openMs"), listedMs: med("listedMs"), firstCallMs: med("firstCallMs") } : null,
    loops: a.loops,
    loopMedians: loopsMeasured
      ? {
          sequentialMs: round(median(a.loops.map((l) => l.sequentialMs))),
          concurrentMs: round(median(a.loops.map((l) => l.concurrentMs))),
          batchMs: round(median(a.loops.map((l) => l.batchMs))),
        }
      : null,
    payload: payloadMeasured
      ? m.payloadLimits.map((limit) => {
          const xs = a.payload.filter((p) => p.limit === limit);
          return { limit, resultBytes: xs[0]!.resultBytes, p50Us: round(median(xs.map((x) => x.p50Us))), p95Us: round(median(xs.map((x) => x.p95Us))) };
        })
      : [],
    calls: a.calls,
    profiled: a.profiled ?? failedProfiled(m.calls, "not run", directTargetOf(matrix, path)),
  };
}

/** The target whose server answers `path`'s calls (see {@link PathResults.server}). */
function serverOf(matrix: Matrix, path: PercallPath): string {
  if (path.kind === "mcp" || (path.kind === "harness" && path.drives)) return path.target;
  return path.kind === "harness" ? (targetOf(matrix, path.values)?.harness?.server ?? "") : "";
}

/** Bytes of the measured call's result text (the rows serialised as the tools serialise them). */
export function callResultBytes(m: PercallOptions): number {
  const store = openTickets();
  try {
    return Buffer.byteLength(ticketsText(store.searchTickets(m.query, m.limit)));
  } finally {
    store.close();
  }
}
