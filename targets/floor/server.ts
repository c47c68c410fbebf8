/**
 * The floor target: a node:http server that answers every request with one pre-baked constant
 * response (an A2A-shaped JSON-RPC result carrying `Echo: hello`, so the same response check as the
 * A2A echo workload passes) and does no protocol work, so
 * that client, loopback and kernel cost can be separated from an SDK's. The request body is read
 * and discarded. `GET /.well-known/agent-card.json` is answered with a pre-baked agent card
 * (FLOOR_CARD), so the wire flow that fetches the card before `SendMessage` runs against it too.
 *
 * Usage: `node dist/targets/floor/server.js --port N [--burn-us U]` — listens on 127.0.0.1:N.
 * `--burn-us U` spends U microseconds of process CPU (measured with process.cpuUsage) on each
 * request before answering: a target with a known CPU cost per request, for testing the cpu measure.
 */
import { createServer } from "node:http";
import { installProfileWindow } from "../common/profile-window.js";

/** The constant response body, bytes. */
export const FLOOR_BODY = Buffer.from(
  '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"floor","contextId":"floor","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"echo-1","name":"echo","parts":[{"text":"Echo: hello","mediaType":"text/plain"}]}]}}}',
);

/**
 * The agent card, bytes: an A2A 1.0 card with the members the other targets' cards carry and one
 * `echo` skill. A constant like the answer, so its interface URL names no port (`http://127.0.0.1/`).
 */
export const FLOOR_CARD = Buffer.from(
  '{"name":"floor","description":"A pre-baked constant response, no A2A work.","supportedInterfaces":[{"url":"http://127.0.0.1/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"version":"1.0.0","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"echo","name":"echo","description":"Replies Echo: hello.","tags":["echo"]}]}',
);

/** The path of the agent card (A2A 1.0, "Agent Discovery": the well-known URI). */
export const CARD_PATH = "/.well-known/agent-card.json";

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
 * Spend `us` microseconds of this process's CPU, measured, not estimated: spin until the process
 * CPU clock (`process.cpuUsage()`, i.e. getrusage(RUSAGE_SELF) — user + system, whose sum is the
 * kernel's nanosecond run time of the thread group, pending time of the running thread included)
 * has advanced by `us`. It overshoots by the last spin chunk and getrusage call (and an occasional
 * young-generation GC): 40–90 µs per 5 ms burn measured on the shared 2-core machine.
 *
 * Why not fixed work calibrated at start: on a shared machine the CPU time a fixed amount of work
 * takes varies with the host (frequency, cache and SMT contention from neighbours): calibrated
 * work measured 1.6–2.1 ms standalone and ~3.8 ms inside the server under load, so its cost was
 * not "known" and the cpu measure could not be tested against it.
 * @param us CPU microseconds to spend (≤ 0: none)
 * @returns the CPU microseconds actually spent (≥ us)
 */
export function burnCpu(us: number): number {
  if (us <= 0) return 0;
  const start = process.cpuUsage();
  let x = 0;
  let used = 0;
  while (used < us) {
    for (let i = 0; i < 256; i++) x += Math.sqrt(i);
    const d = process.cpuUsage(start);
    used = d.user + d.system;
  }
  if (Number.isNaN(x)) throw new Error("burn loop produced NaN"); // keeps the loop's work observable
  return used;
}

installProfileWindow(); // only with WIRECOST_PROFILE_OUT set (the profiled window of a cpu run)
const port = numberArg(process.argv, "--port");
const burnUs = numberArg(process.argv, "--burn-us", 0);
const headers = { "content-type": "application/json", "content-length": String(FLOOR_BODY.length) };
const cardHeaders = { "content-type": "application/json", "content-length": String(FLOOR_CARD.length) };
const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    if (req.method === "GET" && req.url === CARD_PATH) {
      res.writeHead(200, cardHeaders);
      res.end(FLOOR_CARD);
      return;
    }
    burnCpu(burnUs);
    res.writeHead(200, headers);
    res.end(FLOOR_BODY);
  });
});
server.listen(port, "127.0.0.1");
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => server.close(() => process.exit(0)));
