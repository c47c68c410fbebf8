/**
 * `wirecost run <matrix>` for a per-call matrix (`measures: [percall]`): expand it like any matrix,
 * keep the configurations `--only` selects (globs on ids), check the target packages, measure
 * them with {@link runPercall} and write the results files ({@link writePercall}).
 */
import { cpus, loadavg, release, type } from "node:os";
import { UserError } from "../../format/errors.js";
import { expand, glob } from "../matrix/expand.js";
import { preflight } from "../matrix/preflight.js";
import { ensureBuilt } from "../build/build.js";
import type { Matrix } from "../matrix/types.js";
import { PERCENTILE_METHOD } from "../measure/histogram.js";
import { buildsProvenance, gitState } from "../results/provenance.js";
import { toolInfo } from "../paths.js";
import { shellQuote } from "../../format/shell.js";
import { callResultBytes, runPercall } from "./engine.js";
import { refuseFolderToExtend, writePercall } from "./files.js";
import { percallPath, type PercallOptions } from "./options.js";
import { targetKey } from "../matrix/target-of.js";

const round2 = (x: number): number => Number(x.toFixed(2));

/**
 * Run the per-call matrix `matrix` (its parameters `opts`) into `o.results`.
 * @param matrixArg the matrix file as the user gave it (recorded in reproduce commands)
 * @returns the process exit code: 0, or 1 when a path failed (a harness run that gave no valid
 *   samples; the results, that path's failure included, are written first)
 * @throws UserError when --only matches nothing or a target package is missing (runner/modes/ refuses --shard, --resume and --jobs); ProtocolError (runner/drivers/types.ts) when a target breaks
 */
export async function runPercallCommand(
  matrix: Matrix,
  opts: PercallOptions,
  matrixArg: string,
  o: { results: string; only: string[]; repeats?: number },
): Promise<number> {
  const all = expand(matrix).configurations;
  const res = o.only.map(glob);
  const configs = o.only.length ? all.filter((c) => res.some((r) => r.test(c.id))) : all;
  if (!configs.length)
    throw new UserError(`--only ${o.only.join(" ")}: matches no configuration — list ids with: npx wirecost expand ${shellQuote(matrixArg)}`);
  const m = o.repeats !== undefined ? { ...opts, trials: o.repeats } : opts;
  if (m.trials < 1) throw new UserError(`--repeats ${m.trials}: a per-call run needs at least one trial — give --repeats 1 or more`);
  const { assumptions, timeoutMs: _t, ...settings } = m;
  refuseFolderToExtend(
    o.results,
    matrixArg,
    settings,
    new Set(configs.map((c) => c.id)),
    all.map((c) => c.id),
  );
  const builds = await ensureBuilt(matrix, [
    ...configs.map((c) => targetKey(matrix, c.values)),
    // A client declared under clients: (a harness driving the configuration's target) with its build.
    ...configs.flatMap((c) => (c.values.client !== undefined && matrix.clients?.[c.values.client] ? [c.values.client] : [])),
  ]);
  preflight(matrix, configs);
  const startedAt = new Date().toISOString();
  const git = await gitState([o.results, "site"]); // the code that runs: the checkout as it is now
  const loadavgStart = loadavg().map(round2);
  const command = ["npx", "wirecost", ...process.argv.slice(2)].map(shellQuote).join(" ");
  const paths = configs.map((c) => percallPath(matrix, c));
  const results = await runPercall(m, paths, matrix, (line) => process.stderr.write(line + "\n"));
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
  process.stderr.write(
    `wirecost: ${failed.length} path(s) failed (recorded in percall.tsv with the reason): ${failed.map((r) => `${r.id} (${r.reason})`).join("; ")}\n`,
  );
  return 1;
}
