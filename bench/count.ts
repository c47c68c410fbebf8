/**
 * Benchmark: counter throughput on a large capture log, beside the physical floor measured on the
 * same file in the same run. Goal: countLog ≥ 200 MB/s of capture log.
 *
 * 1. Builds two files of at least 100 MB each (override: env WIRECOST_BENCH_MB), logs repeated
 *    with renumbered `conn` and `seq`:
 *    worst case: one real HTTP configuration run here (`raw-mcp-ts-v2-http-2025-11-25-ten` of
 *      matrix.yaml, one repeat; or the log given as the first argument): small messages only,
 *      the most HTTP heads and JSON-RPC messages per MB;
 *    published corpus: every committed HTTP capture log under results/logs (the published
 *      matrix's logs, sweeps with large bodies included), each once per round.
 * 2. Times, each best of 3 (the counter's first run is printed too), on each file:
 *    floor: read it in 1 MiB pieces into one reused buffer, find each line's base64 payload and
 *      decode it into one reused buffer (the physical floor: reading and base64-decoding);
 *    floor (JSON.parse): the whole file as one string, JSON.parse of each line, Buffer.from(b64);
 *    countLogFile: the counter end to end (read + decode + count, per-message rows included),
 *      with how many connections its fast path read (the rest went to the general parser);
 *    countLog(readCaptureLog): the same counts through the record API.
 * Prints MB/s (file bytes / 1e6 per second) of each, the counter's share of the floor, and the
 * split of the counter's time between reading the file into streams and counting them.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/count.js [LOG]`.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { formatRecord, parseCaptureLog, readCaptureLog, readCaptureStreams, type CaptureRecord, type Stream } from "../runner/capture/log.js";
import { connectionsCounted, countLog, countLogFile, countStreams } from "../runner/count/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const config = "raw-mcp-ts-v2-http-2025-11-25-ten";
const targetMB = Number(process.env.WIRECOST_BENCH_MB ?? 100);
const dir = mkdtempSync(join(tmpdir(), "bench-count-"));

let source = process.argv[2];
if (!source) {
  execFileSync(
    process.execPath,
    [join(root, "dist/bin/wirecost.js"), "run", join(root, "matrix.yaml"), "--only", config, "--repeats", "1", "--results", join(dir, "results")],
    { stdio: "ignore" },
  );
  source = join(dir, "results", "logs", config, "1.jsonl");
}
/**
 * Write `logs` (each a capture log's records), repeated in turn with renumbered conn and seq,
 * into `path` until it holds at least targetMB; @returns its size in MB and record count.
 */
function buildLog(path: string, logs: CaptureRecord[][]): { mb: number; records: number } {
  const fd = openSync(path, "w");
  let size = 0;
  let seq = 0;
  let connBase = 0;
  while (size < targetMB * 1e6) {
    for (const base of logs) {
      let text = "";
      for (const r of base) text += formatRecord({ ...r, conn: (r.conn ?? 0) + connBase, seq: ++seq });
      connBase += Math.max(1, ...base.map((r) => r.conn ?? 0));
      writeSync(fd, text);
      size += Buffer.byteLength(text);
    }
  }
  closeSync(fd);
  return { mb: statSync(path).size / 1e6, records: seq };
}

const logsDir = join(root, "results", "logs");
const corpus = readdirSync(logsDir)
  .filter((c) => /-http-/.test(c))
  .sort()
  .flatMap((c) =>
    readdirSync(join(logsDir, c))
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => join(logsDir, c, f)),
  );
const files = [
  {
    name: "worst case",
    path: join(dir, "worst.jsonl"),
    from: source,
    ...buildLog(join(dir, "worst.jsonl"), [parseCaptureLog(readFileSync(source, "utf8"), source)]),
  },
  {
    name: "published corpus",
    path: join(dir, "corpus.jsonl"),
    from: `${corpus.length} HTTP logs under results/logs`,
    ...buildLog(
      join(dir, "corpus.jsonl"),
      corpus.map((p) => parseCaptureLog(readFileSync(p, "utf8"), p)),
    ),
  },
];

/** Wall time of the first of 3 runs of the last {@link best} call (cold: before the JIT has warmed to it), seconds. */
let firstRun = 0;

/** Best of 3 wall times of `f`, seconds. */
function best(f: () => void): number {
  let t = Infinity;
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    f();
    const took = (performance.now() - s) / 1000;
    if (i === 0) firstRun = took;
    t = Math.min(t, took);
  }
  return t;
}

let sink = 0;
const piece = 1 << 20;
const readBuf = Buffer.allocUnsafe(2 * piece);
let decodeBuf = Buffer.allocUnsafe(1 << 20);

/** The physical floor on `path`: read in 1 MiB pieces, find each payload, base64-decode it into one reused buffer. */
function readAndDecode(path: string): void {
  const fd = openSync(path, "r");
  let have = 0;
  for (;;) {
    const n = readSync(fd, readBuf, have, piece, null);
    if (n === 0) break;
    have += n;
    let p = 0;
    for (;;) {
      const nl = readBuf.indexOf(0x0a, p);
      if (nl < 0 || nl >= have) break;
      const k = readBuf.indexOf('"b64":', p, "latin1");
      if (k >= 0 && k < nl) {
        const q = readBuf.indexOf(0x22, k + 6);
        const e = readBuf.lastIndexOf(0x22, nl);
        const text = readBuf.toString("latin1", q + 1, e);
        if (decodeBuf.length < text.length) decodeBuf = Buffer.allocUnsafe(text.length);
        sink += decodeBuf.write(text, 0, "base64");
      }
      p = nl + 1;
    }
    readBuf.copy(readBuf, 0, p, have);
    have -= p;
  }
  closeSync(fd);
}

/** The JSON.parse floor on `path`: the whole file as one string, JSON.parse of each line, Buffer.from(b64). */
function parseAndDecode(path: string): void {
  const text = readFileSync(path, "utf8");
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
}

let met = true;
for (const f of files) {
  const floor = best(() => readAndDecode(f.path));
  const floorJson = best(() => parseAndDecode(f.path));
  let total = 0;
  let messages = 0;
  let paths = "";
  const count = best(() => {
    connectionsCounted.fast = connectionsCounted.general = 0;
    const r = countLogFile(f.path, { transport: "http" });
    total = r.row.total_bytes;
    messages = r.messages.length;
    paths = `${connectionsCounted.fast} connections by the fast path, ${connectionsCounted.general} by the general parser`;
  });
  const cold = firstRun;
  let total2 = 0;
  const countRecords = best(() => {
    total2 = countLog(readCaptureLog(f.path), { transport: "http" }).row.total_bytes;
  });
  if (sink === 0 || total === 0 || total !== total2) throw new Error(`nothing was counted, or the two counts differ (${total}, ${total2})`);
  const rate = (s: number) => `${(f.mb / s).toFixed(0).padStart(5)} MB/s (${s.toFixed(2)} s)`;
  console.log(`\n${f.name}: ${f.path} (${f.mb.toFixed(1)} MB, ${f.records} records, ${messages} message rows, built from ${f.from})`);
  console.log(`  floor: read in 1 MiB pieces + base64 decode                ${rate(floor)}`);
  console.log(`  floor (JSON.parse): whole-file string + JSON.parse + decode ${rate(floorJson)}`);
  console.log(`  countLogFile: read + decode + count, end to end             ${rate(count)}   = ${(floor / count).toFixed(2)} of the floor (${paths})`);
  console.log(`    its first run (cold, the process's first count of this file) ${rate(cold)}`);
  console.log(`  countLog(readCaptureLog): the record API                    ${rate(countRecords)}   = ${(floor / countRecords).toFixed(2)} of the floor`);
  // Where the time goes: reading the file into streams, then counting them (rows included).
  let streams: Stream[] = [];
  const read = best(() => {
    streams = readCaptureStreams(f.path);
  });
  const counting = best(() => {
    countStreams(streams, { transport: "http" });
  });
  console.log(
    `  split: readCaptureStreams ${read.toFixed(2)} s, countStreams ${counting.toFixed(2)} s (${messages} message rows, ${((counting / messages) * 1e6).toFixed(2)} µs a row)`,
  );
  const ok = f.mb / count >= 200;
  met &&= ok;
  console.log(`  goal: countLogFile ≥ 200 MB/s — ${ok ? "met" : "NOT met"}`);
}
console.log(`\ngoal on both files: ${met ? "met" : "NOT met"}`);
