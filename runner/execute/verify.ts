/**
 * `verify`: re-run the configurations of a results folder (all, or `--only`) into a scratch
 * folder and compare them with it cell by cell. A cell is one configuration × metric of
 * medians.tsv: count metrics must match exactly; other (timing) metrics within the relative
 * tolerance declared for them, and are left uncompared when none is declared.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCountColumn } from "../../format/count-columns.js";
import { UserError } from "../../format/errors.js";
import type { Matrix } from "../matrix/types.js";
import { readPlan } from "../results/journal.js";
import { readMedians } from "../../format/medians.js";
import { readSummary } from "../../format/summary.js";
import { readProvenanceFile } from "../../format/provenance.js";
import { runMatrix, type RunSummary } from "./run-matrix.js";
import { resultsFile } from "../../format/layout.js";
import { BYTES_SUPPORT, runCommandLine } from "../modes/commands.js";

/** Options of a verification. */
export interface VerifyOptions {
  /** The committed results folder to check. */
  results: string;
  /** Glob patterns on configuration ids; empty = every configuration of `results`. */
  only?: string[];
  /** Scratch folder for the re-run (default: a fresh folder under the OS temp folder). */
  scratch?: string;
  /** Repeats of the re-run (default: those recorded in `results`). */
  repeats?: number;
  /** Concurrent runs. */
  jobs?: number;
  /** Metric → allowed relative difference (0.1 = 10 %) for metrics that are not counts. */
  tolerances?: Record<string, number>;
  /** Aborts the re-run (^C). */
  signal?: AbortSignal;
  /** Where progress goes (default stderr). */
  progressStream?: NodeJS.WriteStream;
}

/** One cell that did not reproduce. */
export interface CellMismatch {
  config: string;
  metric: string;
  /** Median in the committed results. */
  committed: string;
  /** Median of the re-run, or "" when it measured nothing. */
  fresh: string;
  /** Why it does not count as reproduced. */
  reason: string;
}

/** Outcome of a verification. */
export interface VerifyReport {
  /** Cells compared (configuration × metric). */
  cells: number;
  /** Cells that matched. */
  reproduced: number;
  mismatches: CellMismatch[];
  /** Cells left uncompared (a timing metric with no declared tolerance). */
  uncompared: number;
  /** Folder the re-run wrote. */
  scratch: string;
  /** The re-run. */
  run: RunSummary;
}

/**
 * Verify `opts.results` against a fresh run of `matrix`.
 * @throws UserError when the results folder lacks summary.tsv, medians.tsv or provenance.json or
 *   one is malformed or of another schema version (checked as `render` checks them), `--only` matches
 *   none of its configurations, or `scratch` is the results folder itself
 */
export async function verifyResults(matrix: Matrix, opts: VerifyOptions): Promise<VerifyReport> {
  const fix = `produce it with: ${runCommandLine({ supports: BYTES_SUPPORT }, matrix.file, { results: opts.results })}`;
  // Read with render's checks (format/summary.ts, medians.ts): ids that are names, counts that are counts.
  const summary = readSummary(resultsFile(opts.results, "summary"), fix).configs;
  const committed = [...readMedians(resultsFile(opts.results, "medians"), fix)].flatMap(([config, metrics]) =>
    [...metrics].map(([metric, stats]) => ({ config, metric, median: String(stats.median) })),
  );
  readProvenanceFile(resultsFile(opts.results, "provenance"), fix);
  const plan = readPlan(opts.results);
  const patterns = (opts.only ?? []).map(
    (p) =>
      new RegExp(
        "^" +
          p
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, ".*")
            .replace(/\?/g, ".") +
          "$",
      ),
  );
  const ids = summary.map((r) => r.config).filter((id) => patterns.length === 0 || patterns.some((re) => re.test(id)));
  if (ids.length === 0)
    throw new UserError(
      `--only ${(opts.only ?? []).join(" ")}: matches no configuration of ${opts.results}/summary.tsv — list them with: cut -f1 ${opts.results}/summary.tsv`,
    );
  const recorded = new Set(summary.filter((r) => ids.includes(r.config)).map((r) => r.repeats));
  const repeats = opts.repeats ?? (recorded.size === 1 ? Number([...recorded][0]) : undefined);
  // A --scratch that is, holds or lies inside the results folder is refused by the command before it
  // locks the scratch folder (bin/commands/verify.ts, format/files.ts refuseNestedFolders).
  const scratch = opts.scratch ?? mkdtempSync(join(tmpdir(), "wirecost-verify-"));
  if (plan && plan.matrix.sha256 !== matrix.sha256)
    process.stderr.write(`note: ${opts.results} was run from another version of the matrix (sha256 ${plan.matrix.sha256.slice(0, 12)}…)\n`);
  const run = await runMatrix(matrix, {
    results: scratch,
    only: ids,
    repeats,
    jobs: opts.jobs,
    signal: opts.signal,
    progressStream: opts.progressStream,
    command: "wirecost verify",
    folderOption: "--scratch",
  });
  const fresh = new Map(
    [...readMedians(resultsFile(scratch, "medians"), fix)].flatMap(([config, metrics]) =>
      [...metrics].map(([metric, stats]) => [`${config}\u0000${metric}`, String(stats.median)] as const),
    ),
  );
  const status = new Map<string, string>();
  for (const r of run.failed) status.set(r.config, `${r.status}: ${r.error}`);
  const mismatches: CellMismatch[] = [];
  let cells = 0;
  let uncompared = 0;
  const wanted = new Set(ids);
  for (const row of committed) {
    if (!wanted.has(row.config)) continue;
    const metric = row.metric;
    const tol = opts.tolerances?.[metric];
    if (!isCountColumn(metric) && tol === undefined) {
      uncompared++;
      continue;
    }
    cells++;
    const got = fresh.get(`${row.config}\u0000${metric}`);
    const want = row.median;
    if (got === undefined) {
      mismatches.push({ config: row.config, metric, committed: want, fresh: "", reason: `not measured (${status.get(row.config) ?? "no ok run"})` });
    } else if (isCountColumn(metric) ? got !== want : Math.abs(Number(got) - Number(want)) > tol! * Math.abs(Number(want))) {
      mismatches.push({ config: row.config, metric, committed: want, fresh: got, reason: isCountColumn(metric) ? "count differs" : `outside ±${tol! * 100}%` });
    }
  }
  return { cells, reproduced: cells - mismatches.length, mismatches, uncompared, scratch, run };
}
