/**
 * Benchmark: one large answer over HTTP beside the same answer over stdio, in one run of this
 * script. Goal: HTTP within 3× of stdio (README, "What wirecost promises").
 *
 * The target is test/fixtures/targets/mcp-large-answer.ts: an MCP-speaking server whose
 * `tools/call` answer carries N MB (env WIRECOST_BENCH_MB, default 50) of text, over stdio as one
 * line and over HTTP as one SSE event written in 64 KiB pieces (chunked). For each transport,
 * `wirecost run` (the real CLI, raw driver, flow plain, 2 repeats) runs it into a temp folder;
 * printed per transport: the runs' time as the run reports it (`the runs' X s`: spawn to end of
 * each run, summed), the whole command's wall time, and the s2c bytes counted (the same answer, so
 * the body bytes of the answer agree). Then the ratio HTTP / stdio of the runs' time.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/large-body.js`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/bin/wirecost.js");
const target = join(root, "dist/test/fixtures/targets/mcp-large-answer.js");
const GOAL_RATIO = 3;
const mb = Number(process.env.WIRECOST_BENCH_MB ?? 50);
const bytes = Math.round(mb * 1024 * 1024);
const dir = mkdtempSync(join(tmpdir(), "bench-large-body-"));
const matrix = join(dir, "large-body.yaml");
writeFileSync(
  matrix,
  `version: 1
title: large body bench
repeats: 2
timeoutSeconds: 600
axes:
  - { name: client, values: [raw] }
  - { name: target, values: [large] }
  - { name: transport, values: [stdio, http] }
  - { name: revision, values: ["2025-11-25"] }
  - { name: flow, values: [plain] }
targets:
  large:
    stdio: { argv: [node, ${JSON.stringify(target)}, --transport, stdio, --result-bytes, "${bytes}"] }
    http: { argv: [node, ${JSON.stringify(target)}, --transport, http, --port, "{port}", --result-bytes, "${bytes}"] }
`,
);

/** Run one transport's configuration; @returns the runs' seconds (as the run prints them), the command's wall seconds and the tools/call answer's body bytes. */
function measure(transport: "stdio" | "http"): { runsS: number; wallS: number; answerBytes: number[] } {
  const results = join(dir, transport);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, "run", matrix, "--only", `*-${transport}-*`, "--jobs", "1", "--results", results], { encoding: "utf8" });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`wirecost run (${transport}) exited ${r.status}:\n${r.stderr}`);
  const m = /the runs' ([0-9.]+) s/.exec(r.stderr);
  if (!m) throw new Error(`no "the runs' X s" in the run's output:\n${r.stderr}`);
  const config = `raw-large-${transport}-2025-11-25-plain`;
  const answerBytes = [1, 2].map((k) => {
    const rows = readFileSync(join(results, "logs", config, `${k}.messages.tsv`), "utf8")
      .trim()
      .split("\n");
    const cols = rows[0]!.split("\t");
    const row = rows
      .slice(1)
      .map((l) => l.split("\t"))
      .find((c) => c[cols.indexOf("kind")] === "result" && c[cols.indexOf("method")] === "tools/call");
    return Number(row?.[cols.indexOf("body_bytes")] ?? Number.NaN);
  });
  return { runsS: Number(m[1]), wallS, answerBytes };
}

console.log(`large-body bench: a ${mb} MB tools/call answer, 2 repeats per transport, one at a time (folder ${dir})`);
const stdio = measure("stdio");
const http = measure("http");
for (const [name, x] of [
  ["stdio", stdio],
  ["http", http],
] as const)
  console.log(`${name.padEnd(5)}  runs ${x.runsS.toFixed(1)} s  command ${x.wallS.toFixed(1)} s  answer body bytes ${x.answerBytes.join(", ")}`);
if (http.answerBytes.some((b) => b !== stdio.answerBytes[0])) console.log("MISMATCH: the answer's body bytes differ between the transports");
const ratio = http.runsS / stdio.runsS;
console.log(`ratio http / stdio (runs' time): ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? "met" : "NOT met"})`);
