/**
 * Run an expanded matrix: every configuration × repeat, `jobs` at a time (bytes only are
 * measured, so runs may overlap), results written after each run.
 */
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import semver from "semver";
import { UserError } from "../errors.js";
import { expand } from "../matrix/expand.js";
import type { Configuration, Matrix } from "../matrix/types.js";
import { collectProvenance, installedVersion } from "../results/provenance.js";
import type { RunRecord } from "../results/schema.js";
import { ResultsStore } from "../results/store.js";
import { progress } from "./progress.js";
import { runOne } from "./run-one.js";

/** Options of a matrix run. */
export interface RunOptions {
  /** Results folder. */
  results: string;
  /** Glob patterns (`*`, `?`) on configuration ids; empty = all. */
  only?: string[];
  /** Override every configuration's repeat count. */
  repeats?: number;
  /** Concurrent runs (default: available cores). */
  jobs?: number;
  /** Command line recorded in provenance. */
  command?: string;
}

/** What a matrix run did. */
export interface RunSummary {
  runs: RunRecord[];
  failed: RunRecord[];
}

/** Compile a glob with `*` and `?` into an anchored RegExp. */
function glob(p: string): RegExp {
  return new RegExp("^" + p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") + "$");
}

/**
 * Check every target package named by the configurations resolves within its semver range.
 * @throws UserError naming the target, the resolved and the wanted version
 */
export function checkTargets(matrix: Matrix, configs: Configuration[]): void {
  for (const name of new Set(configs.map((c) => c.values.target!))) {
    const t = matrix.targets[name]!;
    if (!t.package || !t.version) continue;
    const got = installedVersion(t.package);
    if (!got) throw new UserError(`${matrix.file}: target ${name} needs npm package ${t.package} (${t.version}), which is not installed — run npm ci`);
    if (!semver.satisfies(got, t.version)) throw new UserError(`${matrix.file}: target ${name} needs ${t.package} ${t.version} but ${got} is installed — install a matching version or change targets.${name}.version`);
  }
}

/** Run the matrix. @throws UserError for bad options or unmet target requirements; run failures are data. */
export async function runMatrix(matrix: Matrix, opts: RunOptions): Promise<RunSummary> {
  const startedAt = new Date();
  const expansion = expand(matrix);
  let configurations = expansion.configurations;
  if (opts.only?.length) {
    const res = opts.only.map(glob);
    configurations = configurations.filter((c) => res.some((r) => r.test(c.id)));
    if (configurations.length === 0) throw new UserError(`--only ${opts.only.join(" ")}: matches no configuration — list ids with: wirecost expand`);
  }
  if (opts.repeats !== undefined) configurations = configurations.map((c) => ({ ...c, repeats: opts.repeats! }));
  checkTargets(matrix, configurations);
  const store = new ResultsStore(opts.results);
  const jobs = Math.max(1, opts.jobs ?? availableParallelism());
  const queue = configurations.flatMap((c) => Array.from({ length: c.repeats }, (_, i) => ({ c, repeat: i + 1 })));
  const bar = progress(queue.length);
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const { c, repeat } = queue[next++]!;
      const rec = await runOne(matrix, c, repeat, store.logPath(c.id, repeat));
      store.record(rec);
      bar.done(c.id, repeat, rec.status, rec.error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
  bar.stop();
  const packages = Object.values(matrix.targets).flatMap((t) => (t.package ? [t.package] : []));
  const prov = await collectProvenance({ matrixFile: relative(process.cwd(), matrix.file), matrixSha256: matrix.sha256, packages, startedAt, endedAt: new Date(), command: opts.command ?? "wirecost run" });
  store.finish(matrix, configurations, expansion.excluded, prov);
  const runs = store.all();
  return { runs, failed: runs.filter((r) => r.status !== "ok") };
}
