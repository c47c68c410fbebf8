/**
 * One run: start the target, put the relay (HTTP) or tap (stdio) in front of it, drive the
 * flow, stop the target, count the capture log. Failures are data: the record says why. A target
 * that stops answering ends as `timeout` on every transport, whichever limit fires first: the
 * run's own (RunTimeout) or a driver's per-exchange one (ResponseTimeout, its reason kept).
 * A client declared in the matrix (`clients:`, runner/drivers/declared.ts) is run as a command in
 * the driver's place: over HTTP at the relay's URL, over stdio starting the target itself through
 * the tap wrapper (so no target process of the runner's own); it fails the run when it exits
 * non-zero, hangs, or exits 0 having sent the target nothing.
 */
import type { Readable } from "node:stream";
import { existsSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { startRelay, type Relay } from "../capture/relay.js";
import { startTap, type Tap } from "../capture/tap.js";
import { readCaptureStreams } from "../capture/log.js";
import { DEFAULT_CAPTURE_LIMIT_BYTES, type CaptureLimit, type CaptureLimitExceeded } from "../capture/writer.js";
import { countStreams, streamsDigest } from "../count/index.js";
import { DRIVERS } from "../drivers/index.js";
import { clientCommand, startClient, stdioWrapper, type ClientRun } from "../drivers/declared.js";
import type { Configuration, DeclaredClient, Matrix, Target, TargetCommand } from "../matrix/types.js";
import type { DriverContext } from "../drivers/types.js";
import type { RunRecord } from "../results/schema.js";
import { writeRunBreakdown } from "../results/messages.js";
import { startOnFreePort, startTarget, type TargetProcess } from "../targets/process.js";
import { ResponseTimeout } from "../errors.js";
import type { ForkServers } from "../targets/forkserver.js";
import { targetOf } from "../matrix/target-of.js";
import { flowsOf } from "../matrix/flows.js";

/** A reason as one printable line: line breaks become " | ", other control characters (C0 except tab, DEL, C1) U+FFFD. */
function printable(text: string): string {
  return text.replace(/\r?\n/g, " | ").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "\ufffd");
}

/** Options of one run. */
export interface RunOneOptions {
  /** Port on 127.0.0.1 the relay listens on (HTTP); 0 or absent: one the OS picks. */
  relayPort?: number;
  /** Count strictly: the first anomaly fails the run (`--strict`) instead of being counted and named. */
  strict?: boolean;
  /**
   * Called once when the target is ready, with its start-up time in milliseconds: from spawn to
   * accepting a TCP connection (HTTP), or to the first JSON-RPC line it writes on stdout (stdio: its
   * first answer; {@link onFirstJsonLine}). Not called when the target never gets there.
   */
  onReady?: (startupMs: number) => void;
  /** Start targets that declare `forkserver:` through these fork servers (bytes runs; runner/targets/forkserver.ts). */
  forkServers?: ForkServers;
}

/**
 * How long a target stopped by ^C has between SIGTERM and SIGKILL, milliseconds: short, so that
 * ^C ends the whole run within a second (the run is not recorded, so nothing is lost).
 */
export const INTERRUPT_GRACE_MS = 250;

/**
 * Call `ready` once, when `stdout` first carries a line that opens a JSON object (`{` at a line's
 * start: a JSON-RPC message over stdio, MCP "Transports" → "stdio": one message per line), so a
 * log line a server prints at start is not taken for its first answer. Only reads alongside the
 * stream's other readers (a `data` listener, removed once called).
 */
export function onFirstJsonLine(stdout: Readable, ready: () => void): void {
  let lineStart = true;
  const onData = (chunk: Buffer) => {
    for (const byte of chunk) {
      if (lineStart && byte === 0x7b) {
        stdout.off("data", onData);
        ready();
        return;
      }
      lineStart = byte === 0x0a;
    }
  };
  stdout.on("data", onData);
}

/** Raised when a run passes its time limit. */
class RunTimeout extends Error {}

/** Thrown by {@link runOne} when its AbortSignal fired (^C): the run is not recorded. */
export class RunInterrupted extends Error {
  override name = "RunInterrupted";
}

/** Race `p` against the run's time limit and the abort signal. */
function bounded<T>(p: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limits = new Promise<never>((_, rej) => {
    t = setTimeout(() => rej(new RunTimeout(`no result within the run's time limit of ${ms / 1000} s (timeoutSeconds)`)), ms);
    onAbort = () => rej(new RunInterrupted("interrupted"));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([p, limits]).finally(() => {
    clearTimeout(t);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  });
}

/**
 * What a built-in driver is given to run one configuration: its axis values, revision, flow and the
 * flow's steps (the matrix's `flows:`), the run timeout, the target's SDK client generation and tool.
 * @param v the configuration's axis values (`target` must name a target of `matrix`)
 */
export function driverContext(matrix: Matrix, v: Record<string, string>): DriverContext {
  const target = matrix.targets[v.target!]!;
  return {
    values: v,
    revision: v.revision ?? "",
    flow: v.flow ?? "",
    steps: v.flow !== undefined && Object.hasOwn(flowsOf(matrix), v.flow) ? flowsOf(matrix)[v.flow]!.steps : undefined,
    timeoutMs: matrix.timeoutMs,
    sdkClient: target.sdkClient,
    tool: target.tool,
  };
}

/**
 * Run `config` once, writing its capture log to `logPath` (kept, partial, when the run fails).
 * @param signal aborts the run (^C): the target's process group is stopped and RunInterrupted thrown
 * @param opts `relayPort`: the relay's listen port (HTTP); when it is taken, the OS picks one
 * @returns the run record (status ok with counts, or failed/timeout/skipped with the reason,
 *   exit code or signal, and a one-line excerpt of the target's stderr); never throws for target faults
 * @throws RunInterrupted when `signal` fired before the run ended
 */
export async function runOne(
  matrix: Matrix,
  config: Configuration,
  repeat: number,
  logPath: string,
  signal?: AbortSignal,
  opts: RunOneOptions = {},
): Promise<RunRecord> {
  const v = config.values;
  const transport = v.transport as "stdio" | "http";
  const target = targetOf(matrix, v)!;
  const driver = DRIVERS[v.client ?? "raw"];
  /** A client declared in the matrix (`clients:`), run as a command (runner/drivers/declared.ts). */
  const declared = v.client !== undefined ? matrix.clients?.[v.client] : undefined;
  const base: RunRecord = { config: config.id, repeat, status: "failed", exit: "", error: "" };
  if (!driver && !declared) return { ...base, error: `unknown client "${v.client}" (clients: ${Object.keys(DRIVERS).join(", ")})` };
  const targetCmd = target.commands[transport];
  if (!targetCmd) return { ...base, status: "skipped", error: `target ${target.name} has no ${transport} command` };
  const ctx = driverContext(matrix, v);
  const cwd = dirname(matrix.file);
  let cmd = targetCmd;
  let client: ClientRun | undefined;
  let proc: TargetProcess | undefined;
  let close: (() => Promise<void>) | undefined;
  let status: RunRecord["status"] = "ok";
  let error = "";
  let interrupted = false;
  /** Stop here when ^C came while an earlier step was awaited: start nothing after it. */
  const live = () => {
    if (signal?.aborted) throw new RunInterrupted("interrupted");
  };
  const { limit, overLimit } = captureLimit(matrix);
  try {
    const work = (async () => {
      if (opts.forkServers && target.forkserver && !(declared && transport === "stdio")) {
        cmd = await opts.forkServers.command(target, targetCmd, cwd);
        live();
      }
      if (transport === "http") {
        const relay = await startRelayed(cmd, v, cwd, logPath, limit, matrix.timeoutMs, opts, live, (p) => void (proc = p));
        close = () => relay.close();
        if (signal?.aborted) {
          await relay.close(); // started after the run was given up: nobody else closes it
          live();
        }
        if (declared) {
          const url = `http://127.0.0.1:${relay.port}${v.path ?? "/mcp"}`;
          client = startClient(declared, clientCommand(declared, "http", ctx.flow, { tool: target.tool, steps: ctx.steps }), { ...v, url }, cwd, logPath);
          await client.done;
        } else await driver!.http(relay.port, ctx);
      } else if (declared) {
        client = startDeclaredStdio(declared, cmd, v, cwd, logPath, limit, ctx, target.tool);
        await client.done;
      } else {
        const tapped = startTapped(cmd, v, cwd, logPath, limit, opts.onReady, signal);
        proc = tapped.proc;
        close = tapped.close;
        await driver!.stdio(tapped.tap, ctx);
      }
      // Again at the end, on either transport: a listener bound later, a second one, a UDP socket.
      (proc as TargetProcess | undefined)?.checkBinds();
    })();
    await bounded(Promise.race([work, overLimit]), matrix.timeoutMs, signal);
  } catch (e) {
    interrupted = e instanceof RunInterrupted;
    status = e instanceof RunTimeout || e instanceof ResponseTimeout ? "timeout" : "failed";
    error = printable((e as Error).message);
  }
  // On ^C the target gets a short grace: the user is waiting, and nothing of this run is kept.
  await client?.proc.stop(interrupted ? INTERRUPT_GRACE_MS : undefined);
  await proc?.stop(interrupted ? INTERRUPT_GRACE_MS : undefined);
  await close?.().catch(() => undefined);
  if (interrupted) throw new RunInterrupted(`${config.id} #${repeat} interrupted`);
  const exit = proc?.exit() ?? "";
  const spawnError = proc?.spawnError();
  if (spawnError) return { ...base, status: "failed", exit, error: `cannot start target ${target.name} (${cmd.argv.join(" ")}): ${spawnError}` };
  const clientTail = client?.stderrExcerpt();
  if (status !== "ok") return failedRecord({ ...base, status, exit, error }, proc, client ? clientTail : undefined);
  return countRun({ ...base, exit }, logPath, transport, opts.strict === true, declared, clientTail);
}

/**
 * Start an HTTP target on a free port, then the relay that captures its bytes into `logPath`
 * (on `opts.relayPort` when it is free, else any port).
 * @param onProc given the target's process as soon as it is spawned (the caller stops it on any failure)
 * @throws RunInterrupted (from `live`) when ^C came while the target started
 */
async function startRelayed(
  cmd: TargetCommand,
  values: Record<string, string>,
  cwd: string,
  logPath: string,
  limit: CaptureLimit,
  timeoutMs: number,
  opts: RunOneOptions,
  live: () => void,
  onProc: (p: TargetProcess) => void,
): Promise<Relay> {
  const started = await startOnFreePort((port) => startTarget(cmd, { ...values, port: String(port) }, cwd), timeoutMs, onProc);
  const port = started.port;
  opts.onReady?.(started.readyMs);
  live();
  return startRelay(port, logPath, opts.relayPort ?? 0, undefined, limit).catch(() => startRelay(port, logPath, 0, undefined, limit));
}

/**
 * Start a declared client over stdio: it starts the target itself, through the tap wrapper, which
 * writes the log (no log of an earlier attempt may stand in for one it never wrote).
 */
function startDeclaredStdio(
  declared: DeclaredClient,
  cmd: TargetCommand,
  values: Record<string, string>,
  cwd: string,
  logPath: string,
  limit: CaptureLimit,
  ctx: DriverContext,
  tool: Target["tool"],
): ClientRun {
  rmSync(logPath, { force: true });
  const wrapper = stdioWrapper(cmd, values, logPath, limit.limitBytes);
  return startClient(declared, clientCommand(declared, "stdio", ctx.flow, { stdio: wrapper, tool, steps: ctx.steps }), values, cwd, logPath);
}

/**
 * A run that failed or timed out, its error completed with what the processes said: a declared
 * client's stderr excerpt (unless the error quotes it already), the target's exit when it exited of
 * its own accord (most exit 0 on the SIGTERM that stops them), and the target's stderr excerpt.
 */
function failedRecord(rec: RunRecord, proc: TargetProcess | undefined, clientTail: string | undefined): RunRecord {
  let error = rec.error;
  if (clientTail && !error.includes("client stderr:")) error += ` | client stderr: ${printable(clientTail)}`;
  const tail = proc?.stderrExcerpt();
  const exitNote = rec.exit && rec.status === "failed" && proc?.exitedBeforeStop() ? ` (target exited: ${rec.exit})` : "";
  return { ...rec, error: `${error}${exitNote}${tail ? ` | stderr: ${printable(tail)}` : ""}` };
}

/**
 * The capture limit of a run (the matrix's `captureLimitMiB`, else the default): a capture past it
 * (a target flooding its output) rejects `overLimit`, which fails the run at once.
 */
function captureLimit(matrix: Matrix): { limit: CaptureLimit; overLimit: Promise<never> } {
  let limitHit: (e: CaptureLimitExceeded) => void = () => undefined;
  const overLimit = new Promise<never>((_, rej) => {
    limitHit = rej;
  });
  return { limit: { limitBytes: matrix.captureLimitBytes ?? DEFAULT_CAPTURE_LIMIT_BYTES, onLimit: (e) => limitHit(e) }, overLimit };
}

/**
 * The record of a run that ended well: its capture log counted (and its per-message breakdown
 * written), or a failure when it cannot be counted or a declared client sent nothing, or no
 * JSON-RPC message, to the target.
 * @param base the run's record so far (config, repeat, exit)
 * @param clientTail a declared client's stderr excerpt, for its failures
 */
function countRun(
  base: RunRecord,
  logPath: string,
  transport: "stdio" | "http",
  strict: boolean,
  declared: DeclaredClient | undefined,
  clientTail: string | undefined,
): RunRecord {
  const clientNote = clientTail ? ` | client stderr: ${printable(clientTail)}` : "";
  const sentNothing = (): RunRecord => ({
    ...base,
    status: "failed",
    error: `client ${declared!.name} exited 0 having sent nothing to the target${clientNote}`,
  });
  if (declared && !existsSync(logPath)) return sentNothing(); // over stdio it never started the target
  try {
    const streams = readCaptureStreams(logPath);
    const result = countStreams(streams, { transport, strict });
    if (declared && result.row.c2s_bytes === 0) return sentNothing();
    // Bytes that hold no JSON-RPC message (garbage, a wrong protocol) are not a client's session:
    // a failure naming the first anomaly, never a row of zeros with unattributed bytes.
    if (declared && result.row.jsonrpc_c2s === 0) {
      const first = result.anomalies[0];
      return {
        ...base,
        status: "failed",
        error: `client ${declared.name} exited 0 having sent no JSON-RPC message to the target (${result.row.c2s_bytes} bytes${first ? `; ${first.code}` : ""})${clientNote}`,
      };
    }
    const anomalies = writeRunBreakdown(logPath, result, streams);
    return { ...base, status: "ok", counts: result.row, ...(anomalies ? { anomalies } : {}), digest: streamsDigest(streams) };
  } catch (e) {
    return { ...base, status: "failed", error: `counting ${logPath}: ${(e as Error).message}` };
  }
}

/**
 * Start a stdio target behind the tap that writes its capture log; ready at its first JSON-RPC
 * line (a log line printed at start is not an answer).
 * @returns the process, the tap, and what closes both (the target stopped with a short grace after ^C)
 */
function startTapped(
  cmd: TargetCommand,
  values: Record<string, string>,
  cwd: string,
  logPath: string,
  limit: CaptureLimit,
  onReady: ((ms: number) => void) | undefined,
  signal: AbortSignal | undefined,
): { proc: TargetProcess; tap: Tap; close: () => Promise<void> } {
  const spawned = performance.now();
  const p = startTarget(cmd, values, cwd);
  if (p.child.stdout) onFirstJsonLine(p.child.stdout, () => onReady?.(performance.now() - spawned));
  const tap = startTap(p.child.stdin!, p.child.stdout!, logPath, limit);
  p.child.stdin?.on("error", () => {
    /* EPIPE when the target is gone: the driver's read fails with the reason */
  });
  const close = async () => {
    tap.end();
    await p.stop(signal?.aborted ? INTERRUPT_GRACE_MS : undefined);
    await tap.close();
  };
  return { proc: p, tap, close };
}
