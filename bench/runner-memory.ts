/**
 * Runner memory over a 10,000-run synthetic matrix of fast fake runs: the real scheduler,
 * journal (one file per run), capture-log paths and results rebuild, with the target run
 * replaced by a fake that writes a one-line capture log and returns fixed counts. Prints the
 * runner's RSS every 1,000 runs and at the end, and exits 1 when the peak passes 200 MB.
 * Run: `node dist/bench/runner-memory.js [runs]` (default 10000).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { COUNT_COLUMNS, type CountRow } from "../runner/count/index.js";
import { runMatrix, type RunOneFn } from "../runner/execute/run-matrix.js";
import { parseMatrix } from "../runner/matrix/parse.js";

const runs = Number(process.argv[2] ?? 10_000);
const side = Math.ceil(Math.sqrt(runs / 2));
const values = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(", ")}]`;
const matrix = parseMatrix(
  `version: 1\nrepeats: 2\naxes:\n  - name: target\n    values: [fake]\n  - name: transport\n    values: [stdio]\n  - name: a\n    values: ${values(side)}\n    id: "a{}"\n  - name: b\n    values: ${values(side)}\n    id: "b{}"\ntargets:\n  fake:\n    stdio:\n      argv: [node, -e, ""]\n`,
  join(tmpdir(), "runner-memory.yaml"),
);
const fakeRun: RunOneFn = async (_m, config, repeat, logPath) => {
  await new Promise((r) => setImmediate(r));
  writeFileSync(logPath, `{"seq":1,"dir":"c2s","b64":"e30K"}\n`);
  const counts = Object.fromEntries(COUNT_COLUMNS.map((c, i) => [c, i + repeat])) as unknown as CountRow;
  return { config: config.id, repeat, status: "ok", exit: "0", error: "", counts, digest: "0".repeat(64) };
};
const mb = () => process.memoryUsage().rss / 1048576;
const samples: [number, number][] = [];
let done = 0;
const sink = Object.assign(
  new Writable({
    write(chunk: Buffer, _enc, cb) {
      done += (chunk.toString().match(/^\[/gm) ?? []).length;
      if (done % 1000 === 0 && samples.at(-1)?.[0] !== done) samples.push([done, mb()]);
      cb();
    },
  }),
  { isTTY: false },
) as unknown as NodeJS.WriteStream;
const dir = mkdtempSync(join(tmpdir(), "wirecost-bench-"));
const t0 = Date.now();
const before = mb();
const r = await runMatrix(matrix, { results: dir, jobs: 8, runOne: fakeRun, preflight: false, progressStream: sink, command: "bench/runner-memory" });
const end = mb();
const seconds = (Date.now() - t0) / 1000;
process.stdout.write(`runs\trss_mb\n0\t${before.toFixed(1)}\n`);
for (const [n, m] of samples) process.stdout.write(`${n}\t${m.toFixed(1)}\n`);
process.stdout.write(`end\t${end.toFixed(1)}\n`);
const peak = Math.max(before, end, ...samples.map((s) => s[1]));
const first = samples[0]?.[1] ?? before;
process.stdout.write(
  `${r.runs.length} runs in ${seconds.toFixed(1)} s; RSS peak ${peak.toFixed(1)} MB, growth from the first 1,000 runs to the end ${(end - first).toFixed(1)} MB\n`,
);
rmSync(dir, { recursive: true, force: true });
if (peak >= 200) {
  process.stdout.write("FAIL: runner RSS reached 200 MB\n");
  process.exitCode = 1;
}
