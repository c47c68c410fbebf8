/** Load a results folder into one in-memory model, the only input of every page. */
import { statSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { readMedians, type Medians } from "../../format/medians.js";
import { readProvenance, type Provenance } from "../../format/provenance.js";
import { readSummary, type ConfigSummary } from "../../format/summary.js";
import { readCoverage, type Coverage } from "./extra.js";
import { readRunsTable, type Runs } from "../../format/runs.js";
import { resultsFile } from "../../format/layout.js";
import { readChanges, type ChangeRow } from "../../format/changes.js";
import { readConformance, type ConformanceRow } from "../../format/conformance.js";

export type { ConfigSummary } from "../../format/summary.js";
export type { MetricStats, Medians } from "../../format/medians.js";
export type { Provenance } from "../../format/provenance.js";
export type { Coverage } from "./extra.js";
export type { Runs } from "../../format/runs.js";

/** Everything pages may read from a results folder. */
export interface Results {
  /** Axis names in the matrix's declared order (columns between `config` and `repeats`). */
  axisNames: readonly string[];
  /** One entry per configuration, sorted by configuration id. */
  configs: readonly ConfigSummary[];
  /** Whether summary.tsv records anomalies (results written before anomalies were counted do not). */
  anomaliesRecorded: boolean;
  /** Median (and min, max) of each metric per configuration id; a configuration with no ok repeat may have none. */
  medians: Medians;
  /** Contents of `provenance.json`. */
  provenance: Provenance;
  /** The results folder as the user passed it (to read logs on demand); never printed. */
  dir: string;
  /** `runs.tsv`, when the folder has one. */
  runs: Runs | undefined;
  /** `coverage.tsv`, when the folder has one. */
  coverage: Coverage | undefined;
  /** `changes.tsv` (the changes between consecutive versions, format/changes.ts), when the folder has one. */
  changes: ChangeRow[] | undefined;
  /** `conformance.tsv` (the MCP conformance suite's verdicts, format/conformance.ts), when the folder has one. */
  conformance: ConformanceRow[] | undefined;
  /** Paths of the files read, as the user passed the folder; for error messages only, never for output. */
  files: { summary: string; medians: string; provenance: string };
}

/**
 * Read `summary.tsv`, `medians.tsv` and `provenance.json` from a results folder, and `runs.tsv`,
 * `coverage.tsv`, `changes.tsv` and `conformance.tsv` when present (`logs/` is read on demand by the pages).
 * @param dir the results folder, as the user passed it (error messages repeat it)
 * @throws UserError naming the folder when it does not exist or is not a folder, naming a file
 *   when it is missing or malformed (see the readers), and naming `medians.tsv` when a
 *   configuration there (named) is not in `summary.tsv`
 */
export function loadResults(dir: string): Results {
  const missingFix = `produce a results folder with \`npx wirecost run --results ${dir}\`, or pass --results pointing at an existing one`;
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new UserError({ file: dir, problem: "results folder not found", fix: missingFix });
  }
  if (!isDir) throw new UserError({ file: dir, problem: "not a folder", fix: missingFix });
  const fileFix = `the results folder is incomplete; ${missingFix}`;
  const files = {
    summary: resultsFile(dir, "summary"),
    medians: resultsFile(dir, "medians"),
    provenance: resultsFile(dir, "provenance"),
  };
  const summary = readSummary(files.summary, fileFix);
  const medians = readMedians(files.medians, fileFix);
  const provenance = readProvenance(files.provenance, fileFix);
  const known = new Set(summary.configs.map((c) => c.config));
  for (const config of medians.keys()) {
    if (!known.has(config)) {
      throw new UserError({
        file: files.medians,
        key: config,
        problem: `configuration \`${config}\` is not in summary.tsv`,
        fix: "render a complete results folder (merge shards with `npx wirecost merge`), or regenerate it with `npx wirecost run`",
      });
    }
  }
  return {
    axisNames: summary.axisNames,
    configs: summary.configs,
    anomaliesRecorded: summary.anomaliesRecorded,
    medians,
    provenance,
    dir,
    runs: readRunsTable(dir, "regenerate the results with `npx wirecost run`"),
    coverage: readCoverage(dir),
    changes: readChanges(resultsFile(dir, "changes")),
    conformance: readConformance(resultsFile(dir, "conformance")),
    files,
  };
}
