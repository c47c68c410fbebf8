/**
 * Benchmark: each profiler's own cost (README "How to read a stage table"). Runs a per-call
 * matrix through the real CLI into a temporary folder each — by default the known-cost targets
 * (test/fixtures/matrices/percall-known-cost.yaml: a TypeScript server sampled by V8 through its
 * signal window; percall-known-cost-py.yaml: a Python server sampled by py-spy; the measuring
 * process by V8 in both) — and prints, per path, the unprofiled trials' p50 and the profiled
 * trial's p50 side by side (same calls, same run) with the difference: what sampling costs per
 * language.
 *
 *   node dist/bench/profiler-overhead.js [--matrix FILE]... [--only GLOB]...
 *
 * Exit status: the run's (1 when a path failed), 2 on a bad argument.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { expand, glob } from "../runner/matrix/expand.js";
import { loadMatrix } from "../runner/matrix/parse.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

/** Rows of a TSV file as records. */
function tsv(file: string): Record<string, string>[] {
  const [head = "", ...lines] = readFileSync(file, "utf8").trimEnd().split("\n");
  const h = head.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [h[i]!, v])));
}

const DEFAULT_MATRICES = ["test/fixtures/matrices/percall-known-cost.yaml", "test/fixtures/matrices/percall-known-cost-py.yaml"];

/** Run `matrix` (only the `only` globs) into a fresh temporary folder; its exit status and the folder. */
async function runMatrix(matrix: string, only: string[]): Promise<{ exitCode: number; out: string }> {
  const out = mkdtempSync(join(tmpdir(), "wirecost-profiler-overhead-"));
  process.stderr.write(`npx wirecost run ${matrix} --results ${out} ${only.join(" ")}\n`);
  const r = await execa(process.execPath, [join(root, "dist/bin/wirecost.js"), "run", matrix, "--results", out, ...only], {
    cwd: root,
    reject: false,
    stdio: "inherit",
  });
  return { exitCode: r.exitCode ?? 1, out };
}

async function main(): Promise<number> {
  let values: { matrix?: string[]; only?: string[] };
  try {
    ({ values } = parseArgs({ options: { matrix: { type: "string", multiple: true }, only: { type: "string", multiple: true } }, strict: true }));
  } catch (e) {
    process.stderr.write(`profiler-overhead: ${(e as Error).message}\nusage: node dist/bench/profiler-overhead.js [--matrix FILE]... [--only GLOB]...\n`);
    return 2;
  }
  const only = (values.only ?? []).flatMap((g) => ["--only", g]);
  const globs = (values.only ?? []).map(glob);
  /** Whether `matrix` has a configuration the --only globs select (all do without --only). */
  const selects = (matrix: string): boolean =>
    !globs.length || expand(loadMatrix(resolve(root, matrix))).configurations.some((c) => globs.some((g) => g.test(c.id)));
  const matrices = values.matrix ?? DEFAULT_MATRICES.filter(selects);
  if (!matrices.length) {
    process.stderr.write(`profiler-overhead: --only ${values.only!.join(" ")} matches no configuration of ${DEFAULT_MATRICES.join(" or ")}\n`);
    return 2;
  }
  const runs = [];
  for (const matrix of matrices) runs.push(await runMatrix(matrix, only));
  const rows = runs.flatMap((r) => tsv(join(r.out, "percall.tsv")));
  const profiled = new Map(runs.flatMap((r) => tsv(join(r.out, "percall-profiled.tsv"))).map((p) => [p.config!, p]));
  const lines = [["path", "samplers (client, server)", "unprofiled p50 [µs]", "profiled p50 [µs]", "profiler's cost"]];
  for (const row of rows) {
    const p = profiled.get(row.config!);
    if (p?.status !== "ok" || row.p50_us === "") {
      lines.push([row.config!, p ? `${p.client_sampler}, ${p.server_sampler || "—"}` : "—", row.p50_us || "—", "—", p?.reason || row.reason || "—"]);
      continue;
    }
    const a = Number(row.p50_us);
    const b = Number(p.profiled_p50_us);
    lines.push([row.config!, `${p.client_sampler}, ${p.server_sampler || "—"}`, a.toFixed(1), b.toFixed(1), `${(((b - a) / a) * 100).toFixed(1)} %`]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  for (const l of lines) process.stdout.write(l.map((c, i) => c.padEnd(widths[i]!)).join("  ") + "\n");
  process.stdout.write(`load average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n`);
  return Math.max(...runs.map((r) => r.exitCode));
}

process.exitCode = await main();
