/**
 * Benchmark of the whole published matrix: wall time of `wirecost run matrix.yaml` beside the sum
 * of bare target start-up times measured in the same process (spawn → `listening on` line for HTTP,
 * spawn → answer to `initialize` for stdio; mean of 3 samples per target × transport, times the
 * number of runs of each).
 *
 *   node dist/bench/matrix.js [--jobs N] [--only GLOB]... [--repeats N] [--results DIR]
 *
 * The run writes to a fresh temporary folder, or to DIR (e.g. `results`, to refresh the committed
 * results while measuring: the same `wirecost run`, recorded with this command line).
 *
 * Prints: runs, wall seconds, start-up sum (seconds), start-up sum / jobs, and the harness
 * overhead = (wall − start-up sum / jobs) / wall (everything that is not bare start-up counts,
 * the targets' own request handling included); then, from the run's last line, the CPU wirecost
 * used itself beside the CPU of the targets it started, and wirecost's share of the total.
 * Exit status 1 when the run itself fails.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const cli = join(root, "dist/bin/wirecost.js");

/** Seconds from spawn to the target being ready. @throws Error when it exits or takes over 20 s */
async function startupSeconds(target: string, transport: string): Promise<number> {
  const t0 = performance.now();
  const args = [join(root, `dist/targets/${target}/server.js`), "--transport", transport, ...(transport === "http" ? ["--port", "0"] : [])];
  const child = spawn(process.execPath, args, { stdio: "pipe" });
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`${target} ${transport}: not ready within 20 s`)), 20_000);
      const done = () => {
        clearTimeout(timer);
        res();
      };
      child.once("exit", (c) => rej(new Error(`${target} ${transport} exited ${c}`)));
      if (transport === "http") child.stderr.on("data", (d: Buffer) => d.toString().includes("listening on") && done());
      else {
        child.stdout.on("data", (d: Buffer) => d.includes(10) && done());
        child.stdin.write(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
          }) + "\n",
        );
      }
    });
    return (performance.now() - t0) / 1000;
  } finally {
    child.removeAllListeners("exit");
    child.kill("SIGKILL");
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { jobs: { type: "string" }, only: { type: "string", multiple: true }, repeats: { type: "string" }, results: { type: "string" } },
  });
  const jobs = Number(values.jobs ?? availableParallelism());
  const filter = [...(values.only ?? []).flatMap((o) => ["--only", o]), ...(values.repeats ? ["--repeats", values.repeats] : [])];
  const out = values.results ?? mkdtempSync(join(tmpdir(), "wirecost-bench-"));

  const t0 = performance.now();
  const r = await execa(process.execPath, [cli, "run", "matrix.yaml", "--jobs", String(jobs), "--results", out, ...filter], { cwd: root, reject: false });
  const wall = (performance.now() - t0) / 1000;
  if (r.exitCode !== 0) {
    process.stderr.write(`bench: wirecost run failed (exit ${r.exitCode}):\n${r.stderr.slice(-2000)}\n`);
    process.exitCode = 1;
  }
  // Runs per target × transport, from the runs file.
  const { readFileSync } = await import("node:fs");
  const lines = readFileSync(join(out, "runs.tsv"), "utf8").trimEnd().split("\n").slice(1);
  const perKind = new Map<string, number>();
  for (const l of lines) {
    const id = l.split("\t")[0]!;
    const m = /-(mcp-ts-v[12])-(stdio|http)-/.exec(id);
    if (m) perKind.set(`${m[1]} ${m[2]}`, (perKind.get(`${m[1]} ${m[2]}`) ?? 0) + 1);
  }
  let startupSum = 0;
  for (const [kind, n] of perKind) {
    const [target, transport] = kind.split(" ") as [string, string];
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) samples.push(await startupSeconds(target, transport));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    startupSum += mean * n;
    console.log(`start-up ${kind}: mean ${mean.toFixed(3)} s × ${n} runs`);
  }
  const floor = startupSum / jobs;
  console.log(`runs\t${lines.length}`);
  console.log(`jobs\t${jobs}`);
  console.log(`wall_s\t${wall.toFixed(1)}`);
  console.log(`startup_sum_s\t${startupSum.toFixed(1)}`);
  console.log(`startup_sum_per_job_s\t${floor.toFixed(1)}`);
  console.log(`harness_overhead\t${(((wall - floor) / wall) * 100).toFixed(1)}%`);
  const cpu = /CPU: wirecost ([\d.]+) s, the targets it started ([\d.]+) s/.exec(r.stderr);
  if (cpu) {
    const own = Number(cpu[1]);
    const targets = Number(cpu[2]);
    console.log(`wirecost_cpu_s\t${own.toFixed(1)}`);
    console.log(`targets_cpu_s\t${targets.toFixed(1)}`);
    console.log(`wirecost_cpu_share\t${((own / (own + targets)) * 100).toFixed(1)}%`);
  }
  console.log(`results\t${out}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
