/**
 * Sequential timed calls on one warm keep-alive connection: warm-up calls (discarded), then N
 * timed calls whose round-trip times (nanoseconds, process.hrtime.bigint) go into a histogram.
 */
import type { KeepAliveClient } from "./client.js";
import { newHistogram, type LatencyHistogram } from "./histogram.js";
import type { TimedRequest } from "./request.js";

/**
 * Run `calls` exchanges back to back on `client`, recording each round trip into `hist` (ns) when given.
 * @throws the first failed exchange's error (a failed response fails the run)
 */
export function runCalls(client: KeepAliveClient, req: TimedRequest, calls: number, hist?: LatencyHistogram): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = calls;
    let t0 = 0n;
    const next = (): void => {
      if (left-- <= 0) return resolve();
      t0 = process.hrtime.bigint();
      client.exchange(req, onDone);
    };
    const onDone = (err: Error | undefined): void => {
      if (err) return reject(err);
      hist?.recordValue(Number(process.hrtime.bigint() - t0));
      next();
    };
    next();
  });
}

/** Result of one latency window. */
export interface LatencyWindow {
  hist: LatencyHistogram;
  /** Wall time of the timed calls, nanoseconds. */
  wallNs: number;
  /** This process's CPU over the timed calls (process.cpuUsage), microseconds. */
  clientCpuUs: number;
}

/**
 * Time `calls` sequential exchanges (after the caller has warmed up). `around.before` / `around.after`
 * run immediately before the first and after the last call (e.g. to sample server CPU).
 * @throws the first failed exchange's error
 */
export async function timeCalls(client: KeepAliveClient, req: TimedRequest, calls: number, around: { before(): void; after(): void }): Promise<LatencyWindow> {
  const hist = newHistogram();
  around.before();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await runCalls(client, req, calls, hist);
  const wallNs = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  around.after();
  return { hist, wallNs, clientCpuUs: c.user + c.system };
}
