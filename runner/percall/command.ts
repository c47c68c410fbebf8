/**
 * `wirecost run <matrix>` for a per-call matrix (`measures: [percall]`): expand it like any matrix,
 * keep the configurations `--only` selects (globs on ids), check the target packages, measure
 * them with {@link runPercall} and write the results files ({@link writePercall}).
 */
import { glob } from "../execute/run-matrix.js";
import { cpus, loadavg, release, type } from "node:os";
import { UserError } from "../errors.js";
import { expand } from "../matrix/expand.js";
import { preflight } from "../matrix/preflight.js";
import { ensureBuilt } from "../build/build.js";
import type { Matrix } from "../matrix/types.js";
import { PERCENTILE_METHOD } from "../measure/histogram.js";
import { killAllTargets } from "../targets/process.js";
import { buildsProvenance, gitState, toolInfo } from "../results/provenance.js";
import { shellQuote } from "../results/shell.js";
import { callResultBytes, runPercall } from "./engine.js";
import { writePercall } from "./files.js";
import { percallPath, type PercallOptions } from "./options.js";


const round2 = (x: number): number => Number(x.toFixed(2));

/**
 * Run the per-call matrix `matrix` (its parameters `opts`) into `o.results`.
 * @param matrixArg the matrix file as the user gave it (recorded in reproduce commands)
 * @returns the process exit code: 0, or 1 when a path failed (a harness run that gave no valid
 *   samples; the results, that path's failure included, are written first)
 * @throws UserError when --only matches nothing, --shard/--resume/--jobs is given, or a target package is missing; ProtocolError (runner/drivers/types.ts) when a target breaks
 */
export async function runPercallCommand(matrix: Matrix, opts: PercallOptions, matrixArg: string, o: { results: string; only: string[]; repeats?: number; shard?: string; resume?: boolean; jobs?: number }): Promise<number> {
  for (const [flag, given] of [["--shard", o.shard !== undefined], ["--resume", o.resume === true], ["--jobs", o.jobs !== undefined]] as const) {
    if (given) throw new UserError(`${flag}: a per-call matrix (measures: [percall]) runs its configurations one at a time, interleaved, in one process — drop ${flag}; select rows with --only`);
  }
  const all = expand(matrix).configurations;
  const res = o.only.map(glob);
  const configs = o.only.length ? all.filter((c) => res.some((r) => r.test(c.id))) : all;
  if (!configs.length) throw new UserError(`--only ${o.only.join(" ")}: matches no configuration — list ids with: wirecost expand ${matrixArg}`);
  const builds = await ensureBuilt(matrix, configs.map((c) => c.values.target!));
  preflight(matrix, configs);
  const m = o.repeats !== undefined ? { ...opts, trials: o.repeats } : opts;
  if (m.trials < 1) throw new UserError(`--repeats ${m.trials}: a per-call run needs at least one trial — give --repeats 1 or more`);
  const stop = (sig: NodeJS.Signals): void => {
    process.stderr.write(`\n${sig}: stopped; nothing written (the results files are written at the end of a run)\n`);
    killAllTargets();
    process.exit(130);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.on("exit", killAllTargets);
  try {
    const startedAt = new Date().toISOString();
    const git = await gitState([o.results, "site"]); // the code that runs: the checkout as it is now
    const loadavgStart = loadavg().map(round2);
    const command = ["npx", "wirecost", ...process.argv.slice(2)].map(shellQuote).join(" ");
    const paths = configs.map((c) => percallPath(matrix, c));
    const results = await runPercall(m, paths, matrix, (line) => process.stderr.write(line + "\n"));
    const { assumptions, timeoutMs: _t, ...settings } = m;
    writePercall(
      o.results,
      matrixArg,
      all.map((c) => c.id),
      results,
      { title: matrix.title, settings: { ...settings, resultBytes: callResultBytes(m), percentileMethod: PERCENTILE_METHOD }, assumptions },
      {
        command,
        configurations: results.map((r) => r.id),
        matrixSha256: matrix.sha256,
        startedAt,
        endedAt: new Date().toISOString(),
        node: process.version,
        os: type(),
        kernel: release(),
        cpuModel: cpus()[0]?.model ?? "unknown",
        cores: cpus().length,
        loadavgStart,
        loadavgEnd: loadavg().map(round2),
        git,
        tool: toolInfo(),
        ...(builds.records.size ? { builds: buildsProvenance(builds.records) } : {}),
      },
    );
    const failed = results.filter((r) => r.status === "failed");
    process.stderr.write(`${results.length - failed.length} of ${results.length} configurations measured; results in ${o.results}/percall.tsv\n`);
    if (!failed.length) return 0;
    process.stderr.write(`wirecost: ${failed.length} path(s) failed (recorded in percall.tsv with the reason): ${failed.map((r) => `${r.id} (${r.reason})`).join("; ")}\n`);
    return 1;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.off("exit", killAllTargets);
  }
}
