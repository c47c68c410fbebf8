/**
 * Benchmark of the measuring client itself: the raw keep-alive client (runner/measure/client.ts)
 * and `wrk` (Debian's package; installed with apt-get when absent) driving the same floor target
 * instance in the same run, windows alternated (client, wrk, client, wrk …) so drift lands on both.
 * Both send the same pre-serialized A2A SendMessage POST; the target is pinned to the first allowed
 * core and both clients to the others (`pinned` layout), or nothing is pinned on a 1-core machine.
 *
 *   node dist/bench/client-vs-wrk.js [--seconds S] [--rounds R] [--connections 1,50]
 *
 * Prints per connection count the median over rounds of requests/s for each client, the ratio
 * client / wrk (goal ≥ 0.9 on 1 connection), and each client's own CPU per request (µs): the raw
 * client's from process.cpuUsage, wrk's from the cutime+cstime ticks of the shell that reaped it
 * (with the tick quantisation error). Exit status 1 when a window fails or wrk cannot be installed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "simple-statistics";
import { freePort, startTarget, waitForPort } from "../runner/targets/process.js";
import { clockTicksPerSecond } from "../runner/measure/cpu.js";
import { allowedCores, pinProcess, resolveLayout } from "../runner/measure/pinning.js";
import { runThroughput } from "../runner/measure/throughput.js";
import { WORKLOADS } from "../runner/measure/workloads.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

/** One window's figures for one client. */
interface Window {
  requestsPerSecond: number;
  requests: number;
  /** The client's own CPU per request, microseconds. */
  clientCpuPerRequestUs: number;
}

/** Path of wrk, installing Debian's package when absent. @throws Error when apt-get fails */
function ensureWrk(): string {
  const find = () => {
    try {
      return execFileSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  };
  let path = find();
  if (!path) {
    process.stderr.write("wrk not found: apt-get install -y wrk\n");
    execFileSync("apt-get", ["install", "-y", "-q", "wrk"], { stdio: ["ignore", "ignore", "inherit"] });
    path = find();
    if (!path) throw new Error("apt-get install wrk did not provide a wrk binary — install it by hand");
  }
  return path;
}

/** A wrk Lua script sending `bytes` (a full HTTP request: head, blank line, body) as its request. */
function wrkScript(bytes: Buffer, dir: string): string {
  const text = bytes.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split).split("\r\n").slice(1);
  const body = text.slice(split + 4);
  const headers = head
    .map((h) => h.split(/:\s*/, 2) as [string, string])
    .filter(([k]) => !/^(host|content-length)$/i.test(k)) // wrk writes these itself
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  const file = join(dir, "request.lua");
  writeFileSync(file, [`wrk.method = "POST"`, `wrk.body = ${JSON.stringify(body)}`, ...headers, ""].join("\n"));
  return file;
}

/**
 * One wrk window: `wrk -t1 -cC -dS` under `taskset`, run by a shell that then prints its own
 * /proc stat, whose cutime + cstime (ticks) is wrk's CPU.
 * @throws Error when wrk fails or reports errors or non-2xx responses
 */
function wrkWindow(wrk: string, script: string, port: number, connections: number, seconds: number, cores: number[]): Window & { ticks: number } {
  const pin = cores.length ? `taskset -c ${cores.join(",")} ` : "";
  const out = execFileSync(
    "sh",
    ["-c", `${pin}${wrk} -t1 -c${connections} -d${seconds}s -s ${script} http://127.0.0.1:${port}/ && echo STAT && cat /proc/$$/stat`],
    { encoding: "utf8" },
  );
  const [report, stat] = out.split("STAT\n") as [string, string];
  if (/Non-2xx|Socket errors/.test(report)) throw new Error(`wrk reported failures:\n${report}`);
  const rps = /Requests\/sec:\s*([\d.]+)/.exec(report);
  const total = /(\d+) requests in/.exec(report);
  if (!rps || !total) throw new Error(`cannot read wrk's report:\n${report}`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(f[13]) + Number(f[14]); // cutime, cstime (fields 16, 17)
  const requests = Number(total[1]);
  return { requestsPerSecond: Number(rps[1]), requests, ticks, clientCpuPerRequestUs: ((ticks / clockTicksPerSecond()) * 1e6) / requests };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { seconds: { type: "string", default: "3" }, rounds: { type: "string", default: "3" }, connections: { type: "string", default: "1,50" } },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const conns = values.connections.split(",").map(Number);
  const wrk = ensureWrk();
  const all = allowedCores();
  const layout = resolveLayout(all.length >= 2 ? "pinned" : "default", all);
  const dir = mkdtempSync(join(tmpdir(), "wirecost-wrk-"));
  const port = await freePort();
  const cmd = {
    argv: [
      ...(layout.targetCores.length ? ["taskset", "-c", layout.targetCores.join(",")] : []),
      process.execPath,
      "dist/targets/floor/server.js",
      "--port",
      "{port}",
    ],
    env: {},
  };
  const proc = startTarget(cmd, { port: String(port) }, root);
  try {
    await waitForPort(port, 20_000, () => proc.exit() === undefined);
    pinProcess(proc.pid, layout.targetCores, all);
    pinProcess(process.pid, layout.clientCores, all);
    const req = WORKLOADS["a2a-send-message"]!(port);
    const script = wrkScript(req.bytes, dir);
    await runThroughput(port, req, 1, 1000); // warm both sides
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    process.stdout.write(
      `floor target, layout ${layout.name} (${layout.description}), ${rounds} round(s) of ${seconds} s windows, load average before: ${load}\n`,
    );
    process.stdout.write(
      `connections\tclient_req_per_s\twrk_req_per_s\tratio\tclient_cpu_per_request_us\twrk_cpu_per_request_us\twrk_ticks_quantisation_pct\n`,
    );
    for (const c of conns) {
      const mine: Window[] = [];
      const theirs: (Window & { ticks: number })[] = [];
      for (let r = 0; r < rounds; r++) {
        const t = await runThroughput(port, req, c, seconds * 1000);
        if (t.errors) throw new Error(`raw client, ${c} connection(s): ${t.errors} failed exchange(s): ${t.firstError}`);
        mine.push({ requestsPerSecond: t.requestsPerSecond, requests: t.requests, clientCpuPerRequestUs: t.clientCpuUs / t.requests });
        theirs.push(wrkWindow(wrk, script, port, c, seconds, layout.clientCores));
      }
      const a = median(mine.map((w) => w.requestsPerSecond));
      const b = median(theirs.map((w) => w.requestsPerSecond));
      const ticks = median(theirs.map((w) => w.ticks));
      process.stdout.write(
        [
          c,
          a.toFixed(0),
          b.toFixed(0),
          (a / b).toFixed(3),
          median(mine.map((w) => w.clientCpuPerRequestUs)).toFixed(1),
          median(theirs.map((w) => w.clientCpuPerRequestUs)).toFixed(1),
          ticks > 0 ? (100 / ticks).toFixed(2) : "inf",
        ].join("\t") + "\n",
      );
    }
    return 0;
  } finally {
    pinProcess(process.pid, [], all);
    await proc.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`client-vs-wrk: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
