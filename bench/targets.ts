/**
 * Build time and start-up time of every target of the published matrices, side by side in one run.
 *
 *   node dist/bench/targets.js [--rebuild] [--samples N] [--target NAME]… [MATRIX…]
 *
 * Default matrices: matrix.yaml, matrices/a2a-layer-cost.yaml; `--target NAME` (repeatable) measures
 * only the targets named. For each target: its build time
 * (the seconds the runner's last build of it took, from its build record; with --rebuild, each
 * built target is rebuilt now, caches kept, and that build is timed), and its start-up time per
 * transport: spawn → ready, median of N samples (default 5), where ready is the port accepting a
 * TCP connection for HTTP (polled every 20 ms, as the runner waits) and the answer to a 2025-11-25
 * `initialize` line for stdio. Prints one TSV row per target × transport:
 * target, transport, build_s, startup_median_ms, startup_min_ms, startup_max_ms, and the ratio of
 * each start-up to the fastest one measured in the same run.
 */
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureBuilt, readBuildRecord } from "../runner/build/build.js";
import { freePort, startTarget, waitForPort, type TargetProcess } from "../runner/targets/process.js";
import { loadMatrix } from "../runner/matrix/parse.js";
import type { Matrix, Target } from "../runner/matrix/types.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

const INITIALIZE =
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "wirecost-bench", version: "0.1.0" } },
  }) + "\n";

/** Milliseconds from spawn to ready (see the file comment). @throws Error when the target exits or takes over 30 s */
async function startupMs(m: Matrix, t: Target, transport: "stdio" | "http"): Promise<number> {
  const cmd = t.commands[transport]!;
  const values: Record<string, string> = { target: t.name, transport };
  let proc: TargetProcess | undefined;
  const t0 = performance.now();
  try {
    if (transport === "http") {
      const port = await freePort();
      proc = startTarget(cmd, { ...values, port: String(port) }, dirname(m.file));
      const p = proc;
      await waitForPort(port, 30_000, () => p.exit() === undefined);
    } else {
      proc = startTarget(cmd, values, dirname(m.file));
      const p = proc;
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`${t.name} stdio: no answer to initialize within 30 s`)), 30_000);
        p.child.stdout!.once("data", () => {
          clearTimeout(timer);
          res();
        });
        p.child.stdin!.write(INITIALIZE);
      });
    }
    return performance.now() - t0;
  } finally {
    await proc?.stop();
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { rebuild: { type: "boolean" }, samples: { type: "string", default: "5" }, target: { type: "string", multiple: true } },
    allowPositionals: true,
  });
  const samples = Number(values.samples);
  const files = positionals.length ? positionals : [join(root, "matrix.yaml"), join(root, "matrices/a2a-layer-cost.yaml")];
  const rows: { target: string; transport: string; build: string; ms: number[] }[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const m = loadMatrix(f);
    for (const t of Object.values(m.targets)) {
      if (seen.has(t.name) || t.inProcess || (values.target && !values.target.includes(t.name))) continue;
      seen.add(t.name);
      if (t.build && values.rebuild) rmSync(join(t.build.dir, "wirecost-build.json"), { force: true });
      if (t.build) await ensureBuilt(m, [t.name]);
      const build = t.build ? String(readBuildRecord(t)?.seconds ?? "") : "";
      for (const transport of ["stdio", "http"] as const) {
        if (!t.commands[transport]) continue;
        const ms: number[] = [];
        for (let i = 0; i < samples; i++) ms.push(await startupMs(m, t, transport));
        rows.push({ target: t.name, transport, build, ms });
        process.stderr.write(`${t.name} ${transport}: ${median(ms).toFixed(0)} ms\n`);
      }
    }
  }
  const fastest = Math.min(...rows.map((r) => median(r.ms)));
  process.stdout.write(["target", "transport", "build_s", "startup_median_ms", "startup_min_ms", "startup_max_ms", "startup_vs_fastest"].join("\t") + "\n");
  for (const r of rows) {
    process.stdout.write(
      [
        r.target,
        r.transport,
        r.build || "-",
        median(r.ms).toFixed(0),
        Math.min(...r.ms).toFixed(0),
        Math.max(...r.ms).toFixed(0),
        `${(median(r.ms) / fastest).toFixed(1)}×`,
      ].join("\t") + "\n",
    );
  }
}

await main();
