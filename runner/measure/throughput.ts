/**
 * Closed-loop load: C keep-alive connections each sending the next request as soon as the last
 * answer arrives, for a fixed duration. Counts requests and failed responses; records latency.
 */
import { KeepAliveClient } from "./client.js";
import { newHistogram, type LatencyHistogram } from "./histogram.js";
import type { TimedRequest } from "./request.js";

/** Result of one throughput window. */
export interface ThroughputWindow {
  connections: number;
  /** Completed, valid responses. */
  requests: number;
  /** Failed exchanges (invalid responses, connection errors); the first one's message is kept. */
  errors: number;
  firstError?: string;
  /** Measured wall time, nanoseconds. */
  wallNs: number;
  /** requests / wall seconds. */
  requestsPerSecond: number;
  hist: LatencyHistogram;
  /** This process's CPU over the window, microseconds. */
  clientCpuUs: number;
}

/**
 * Drive `connections` connections to 127.0.0.1:`port` for `durationMs`.
 * `around.before/after` run right before load starts and right after the last response.
 * @throws Error when a connection cannot be opened
 */
export async function runThroughput(
  port: number,
  req: TimedRequest,
  connections: number,
  durationMs: number,
  around: { before(): void; after(): void } = { before() {}, after() {} },
): Promise<ThroughputWindow> {
  const clients = await Promise.all(Array.from({ length: connections }, () => KeepAliveClient.connect(port)));
  const hist = newHistogram();
  let requests = 0;
  let errors = 0;
  let firstError: string | undefined;
  let stop = false;
  around.before();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const timer = setTimeout(() => (stop = true), durationMs);
  await Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          let ts = 0n;
          const next = (): void => {
            if (stop) return resolve();
            ts = process.hrtime.bigint();
            client.exchange(req, (err) => {
              if (err) {
                errors++;
                firstError ??= err.message;
                return resolve(); // a failed connection stops; the others go on
              }
              requests++;
              hist.recordValue(Number(process.hrtime.bigint() - ts));
              next();
            });
          };
          next();
        }),
    ),
  );
  const wallNs = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  around.after();
  clearTimeout(timer);
  for (const c of clients) c.close();
  return { connections, requests, errors, firstError, wallNs, requestsPerSecond: requests / (wallNs / 1e9), hist, clientCpuUs: c.user + c.system };
}
