/**
 * Benchmark: each profiler's own cost (README "How to read a stage table"). Runs a per-call
 * matrix through the real CLI into a temporary folder — by default the known-cost targets
 * (test/fixtures/matrices/percall-known-cost.yaml: a TypeScript server sampled by V8 through its
 * signal window, a Python server sampled by py-spy; the measuring process by V8 in both) — and
 * prints, per path, the unprofiled trials' p50 and the profiled trial's p50 side by side (same
 * calls, same run) with the difference: what sampling costs per language.
 *
 *   node dist/bench/profiler-overhead.js [--matrix FILE] [--only GLOB]...
 *
 * Exit status: the run's (1 when a path failed), 2 on a bad argument.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

/** Rows of a TSV file as records. */
function tsv(file: string): Record<string, string>[] {
  const [head = "", ...lines] = readFileSync(file, "utf8").trimEnd().split("\n");
  const h = head.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [h[i]!, v])));
}

async function main(): Promise<number> {
  let values: { matrix?: string; only?: string[] };
  try {
    ({ values } = parseArgs({ options: { matrix: { type: "string" }, only: { type: "string", multiple: true } }, strict: true }));
  } catch (e) {
    process.stderr.write(`profiler-overhead: ${(e as Error).message}\nusage: node dist/bench/profiler-overhead.js [--matrix FILE] [--only GLOB]...\n`);
    return 2;
  }
  const matrix = values.matrix ?? "test/fixtures/matrices/percall-known-cost.yaml";
  const out = mkdtempSync(join(tmpdir(), "wirecost-profiler-overhead-"));
  const only = (values.only ?? []).flatMap((g) => ["--only", g]);
  process.stderr.write(`npx wirecost run ${matrix} --results ${out} ${only.join(" ")}\n`);
  const r = await execa(process.execPath, [join(root, "dist/bin/wirecost.js"), "run", matrix, "--results", out, ...only], {
    cwd: root,
    reject: false,
    stdio: "inherit",
  });
  const rows = tsv(join(out, "percall.tsv"));
  const profiled = new Map(tsv(join(out, "percall-profiled.tsv")).map((p) => [p.config!, p]));
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
  return r.exitCode ?? 1;
}

process.exitCode = await main();
