/**
 * One run: start the target, put the relay (HTTP) or tap (stdio) in front of it, drive the
 * flow, stop the target, count the capture log. Failures are data: the record says why.
 */
import { dirname } from "node:path";
import { startRelay } from "../capture/relay.js";
import { startTap } from "../capture/tap.js";
import { readCaptureLog } from "../capture/log.js";
import { countLog, streamDigest } from "../count/index.js";
import { DRIVERS } from "../drivers/index.js";
import type { Configuration, Matrix } from "../matrix/types.js";
import type { RunRecord } from "../results/schema.js";
import { writeMessages } from "../results/messages.js";
import { freePort, startTarget, waitForPort, type TargetProcess } from "./process.js";

/** Raised when a run passes its time limit. */
class RunTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new RunTimeout(`run exceeded ${ms} ms`)), ms)))]).finally(() => clearTimeout(t));
}

/**
 * Run `config` once, writing its capture log to `logPath`.
 * @returns the run record (status ok with counts, or failed/timeout with the reason); never throws for target faults
 */
export async function runOne(matrix: Matrix, config: Configuration, repeat: number, logPath: string): Promise<RunRecord> {
  const v = config.values;
  const transport = v.transport as "stdio" | "http";
  const target = matrix.targets[v.target!]!;
  const driver = DRIVERS[v.client ?? "raw"];
  const base: RunRecord = { config: config.id, repeat, status: "failed", exit: "", error: "" };
  if (!driver) return { ...base, error: `unknown client "${v.client}" (clients: ${Object.keys(DRIVERS).join(", ")})` };
  const cmd = target.commands[transport];
  if (!cmd) return { ...base, status: "skipped", error: `target ${target.name} has no ${transport} command` };
  const ctx = { values: v, revision: v.revision ?? "", flow: v.flow ?? "", timeoutMs: matrix.timeoutMs };
  const cwd = dirname(matrix.file);
  let proc: TargetProcess | undefined;
  let close: (() => Promise<void>) | undefined;
  let status: RunRecord["status"] = "ok";
  let error = "";
  try {
    await withTimeout(
      (async () => {
        if (transport === "http") {
          const port = await freePort();
          proc = startTarget(cmd, { ...v, port: String(port) }, cwd);
          const p = proc;
          await waitForPort(port, matrix.timeoutMs, () => p.exit() === undefined);
          const relay = await startRelay(port, logPath);
          close = () => relay.close();
          await driver.http(relay.port, ctx);
        } else {
          proc = startTarget(cmd, v, cwd);
          const tap = startTap(proc.child.stdin!, proc.child.stdout!, logPath);
          close = async () => {
            tap.end();
            await proc!.stop();
            await tap.close();
          };
          await driver.stdio(tap, ctx);
        }
      })(),
      matrix.timeoutMs,
    );
  } catch (e) {
    status = e instanceof RunTimeout ? "timeout" : "failed";
    error = (e as Error).message;
  }
  await proc?.stop();
  await close?.();
  const exit = proc?.exit() ?? "";
  if (status !== "ok") {
    const tail = proc?.stderrTail(3);
    return { ...base, status, exit, error: tail ? `${error} | stderr: ${tail}` : error };
  }
  try {
    const records = readCaptureLog(logPath);
    const { row, messages } = countLog(records, { transport });
    writeMessages(logPath.replace(/\.jsonl$/, ".messages.tsv"), messages);
    return { ...base, status: "ok", exit, counts: row, digest: streamDigest(records) };
  } catch (e) {
    return { ...base, status: "failed", exit, error: `counting ${logPath}: ${(e as Error).message}` };
  }
}
