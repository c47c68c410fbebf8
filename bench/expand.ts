/**
 * Benchmark: parse and expand a matrix of about 90,000 configurations, near the limit of
 * runner/matrix/expand.ts `MAX_CELLS` (five pass-through axes of ten or nine values, an exclude
 * rule, an include rule and a sweep) and print the times. Goal: expand < 2 s.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/expand.js`.
 */
import { performance } from "node:perf_hooks";
import { MAX_CELLS, expand } from "../runner/matrix/expand.js";
import { runCount } from "../runner/matrix/format.js";
import { parseMatrix } from "../runner/matrix/parse.js";

const values = (k: number) => Array.from({ length: k }, (_, i) => i).join(", ");
const axes = ["a", "b", "c", "d", "e"].map((n) => `  - name: ${n}\n    values: [${values(n === "e" ? 9 : 10)}]\n    id: ${n}{}\n    default: 0\n`).join("");
const text = `version: 1
repeats: 2
axes:
  - name: target
    values: [t]
  - name: transport
    values: [stdio, http]
  - name: revision
    values: ["2025-11-25"]
${axes}grid: { transport: http }
exclude:
  - match: { a: 9, b: 9 }
    reason: example exclusion
include:
  - match: { a: 9, b: 9, c: 9 }
    repeats: 3
sweeps:
  - axis: transport
    base: { a: [0, 1], b: 0 }
    repeats: 5
targets:
  t:
    stdio: { argv: [node, t.js, "{a}", "{b}"] }
    http: { argv: [node, t.js, "{port}", "{c}"], env: { D: "{d}", E: "{e}" } }
`;

const t0 = performance.now();
const m = parseMatrix(text, "bench-100k.yaml");
const t1 = performance.now();
const cpu0 = process.cpuUsage();
const e = expand(m);
const cpu = process.cpuUsage(cpu0);
const t2 = performance.now();
const cells = e.configurations.length + e.excluded.length;
process.stdout.write(
  `cells ${cells} (configurations ${e.configurations.length}, excluded ${e.excluded.length}, runs ${runCount(e)})\n` +
    `parse ${(t1 - t0).toFixed(1)} ms, expand ${(t2 - t1).toFixed(1)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms CPU (goal < 2000 ms) — ${(((t2 - t1) * 1000) / cells).toFixed(2)} µs per cell\n`,
);
if (e.configurations.length < 0.85 * MAX_CELLS) throw new Error(`expected ≥ ${0.85 * MAX_CELLS} configurations, got ${e.configurations.length}`);
