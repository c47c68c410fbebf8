/**
 * The floor target: a node:http server that answers every request with one pre-baked constant
 * response (an A2A-shaped JSON-RPC result carrying `Echo: hello`, so the same response check as the
 * A2A echo workload passes) and does no protocol work, so
 * that client, loopback and kernel cost can be separated from an SDK's. The request body is read
 * and discarded.
 *
 * Usage: `node dist/targets/floor/server.js --port N [--burn-us U]` — listens on 127.0.0.1:N.
 * `--burn-us U` spends about U microseconds of CPU (fixed work calibrated at start) on each
 * request before answering: a target with a known CPU cost per request, for testing the cpu measure.
 */
import { createServer } from "node:http";

/** The constant response body, bytes. */
export const FLOOR_BODY = Buffer.from(
  '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"floor","contextId":"floor","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"echo-1","name":"echo","parts":[{"text":"Echo: hello","mediaType":"text/plain"}]}]}}}',
);

/** Read `--name V` from argv as a number, or `fallback` when absent. @throws Error when not a number ≥ 0 */
export function numberArg(argv: readonly string[], name: string, fallback?: number): number {
  const i = argv.indexOf(name);
  if (i < 0) {
    if (fallback === undefined) throw new Error(`usage: server.js --port N [--burn-us U]: ${name} is required`);
    return fallback;
  }
  const v = Number(argv[i + 1]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} needs a number ≥ 0, got ${String(argv[i + 1])}`);
  return v;
}

/**
 * Spin units (1,000 Math.sqrt calls each) per microsecond of CPU, calibrated once over ≥ 300 ms
 * of process CPU (process.cpuUsage; short cpuUsage deltas are unreliable as the kernel rescales
 * utime/stime, so the per-request burn does fixed work instead of polling the clock).
 */
export function calibrateUnitsPerUs(): number {
  let units = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < 300_000) {
    for (let k = 0; k < 200; k++) spin();
    units += 200;
    const d = process.cpuUsage(start);
    used = d.user + d.system;
  }
  return units / used;
}

let sink = 0;
function spin(): void {
  for (let i = 0; i < 1000; i++) sink += Math.sqrt(i);
}

/** Spend about `us` microseconds of CPU: `us × unitsPerUs` spin units. */
export function burnCpu(us: number, unitsPerUs: number): void {
  const n = Math.round(us * unitsPerUs);
  for (let k = 0; k < n; k++) spin();
}

const port = numberArg(process.argv, "--port");
const burnUs = numberArg(process.argv, "--burn-us", 0);
const unitsPerUs = burnUs > 0 ? calibrateUnitsPerUs() : 0;
const headers = { "content-type": "application/json", "content-length": String(FLOOR_BODY.length) };
const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    burnCpu(burnUs, unitsPerUs);
    res.writeHead(200, headers);
    res.end(FLOOR_BODY);
  });
});
server.listen(port, "127.0.0.1");
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => server.close(() => process.exit(0)));
