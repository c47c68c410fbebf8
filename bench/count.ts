/**
 * Benchmark: counter throughput on a large capture log, beside the physical floor measured on the
 * same file in the same run. Goal: countLog ≥ 200 MB/s of capture log.
 *
 * 1. Runs one real HTTP configuration (`raw-mcp-ts-v2-http-2025-11-25-ten` of matrix.yaml, one
 *    repeat; or the log given as the first argument) and repeats its log, with renumbered `conn`
 *    and `seq`, into a file of at least 100 MB (override: env WIRECOST_BENCH_MB).
 * 2. (a) floor: read the file, split lines, JSON.parse each, base64-decode each chunk;
 *    (b) readCaptureLog + countLog end to end. Each is timed 3 times; the best is printed.
 * Prints MB/s (file bytes / 1e6 per second) of both and their ratio.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/count.js [LOG]`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, statSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { formatRecord, parseCaptureLog, readCaptureLog } from "../runner/capture/log.js";
import { countLog } from "../runner/count/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const config = "raw-mcp-ts-v2-http-2025-11-25-ten";
const targetMB = Number(process.env.WIRECOST_BENCH_MB ?? 100);
const dir = mkdtempSync(join(tmpdir(), "bench-count-"));

let source = process.argv[2];
if (!source) {
  execFileSync(process.execPath, [join(root, "dist/bin/wirecost.js"), "run", join(root, "matrix.yaml"), "--only", config, "--repeats", "1", "--results", join(dir, "results")], { stdio: "ignore" });
  source = join(dir, "results", "logs", config, "1.jsonl");
}
const base = parseCaptureLog(readFileSync(source, "utf8"), source);
const conns = Math.max(1, ...base.map((r) => r.conn ?? 0));
const big = join(dir, "big.jsonl");
const fd = openSync(big, "w");
let size = 0;
let seq = 0;
for (let copy = 0; size < targetMB * 1e6; copy++) {
  let text = "";
  for (const r of base) text += formatRecord({ ...r, conn: (r.conn ?? 0) + copy * conns, seq: ++seq });
  writeSync(fd, text);
  size += Buffer.byteLength(text);
}
closeSync(fd);
const mb = statSync(big).size / 1e6;

/** Best of 3 wall times of `f`, seconds. */
function best(f: () => void): number {
  let t = Infinity;
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    f();
    t = Math.min(t, (performance.now() - s) / 1000);
  }
  return t;
}

let sink = 0;
const floor = best(() => {
  const text = readFileSync(big, "utf8");
  let p = 0;
  while (p < text.length) {
    let nl = text.indexOf("\n", p);
    if (nl < 0) nl = text.length;
    if (nl > p) {
      const r = JSON.parse(text.slice(p, nl)) as { b64?: string };
      if (r.b64) sink += Buffer.from(r.b64, "base64").length;
    }
    p = nl + 1;
  }
});
let total = 0;
const count = best(() => {
  total = countLog(readCaptureLog(big), { transport: "http" }).row.total_bytes;
});
if (sink === 0 || total === 0) throw new Error("nothing was counted");
console.log(`log: ${big} (${mb.toFixed(1)} MB, ${seq} records, built from ${source})`);
console.log(`floor (read + JSON.parse + base64 decode): ${(mb / floor).toFixed(0)} MB/s (${floor.toFixed(2)} s)`);
console.log(`countLog end to end (read + parse + count): ${(mb / count).toFixed(0)} MB/s (${count.toFixed(2)} s)`);
console.log(`ratio count / floor: ${(floor / count).toFixed(2)}   goal: ≥ 200 MB/s — ${mb / count >= 200 ? "met" : "NOT met"}`);
