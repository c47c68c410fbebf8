/**
 * Recount a bytes results folder from its kept capture logs: every ok run's
 * `logs/<config>/<repeat>.jsonl` is counted again and its messages.tsv rewritten, and each run's
 * counts and stream digest are compared with what its journal record holds. Use it after a
 * counter change, or to bring an older folder up to the current columns, without running any
 * target. Where every count the journal holds is unchanged and the recount only adds what the
 * journal lacks (a column added since, e.g. `unattributed_bytes`, or the run's anomalies), the
 * journal record is completed and runs.tsv, summary.tsv and medians.tsv are rebuilt from it; a run
 * whose recorded counts differ is reported and left as recorded. provenance.json is kept, but for
 * `tokenizers`: the tokenizers the rewritten messages.tsv files were counted with.
 */
import { existsSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { captureLogPath, planPath, resultsFile } from "../../format/layout.js";
import { readCaptureStreams } from "../capture/log.js";
import { COUNT_COLUMNS, countStreams, streamsDigest } from "../count/index.js";
import { readPlan, readRuns, writeRun } from "./journal.js";
import { writeRunBreakdown } from "./messages.js";
import { rebuildResults, writeProvenance } from "./store.js";
import { tokenizerNames } from "../count/tokens.js";
import { anomalySummary } from "../../format/anomalies.js";
import { readProvenanceFile } from "../../format/provenance.js";
import { readMedians } from "../../format/medians.js";
import { readSummary } from "../../format/summary.js";
import { resultKindOf } from "../../format/kinds.js";
import { BYTES_SUPPORT, runCommandLine } from "../modes/commands.js";

/** What a recount found. */
export interface RecountSummary {
  /** Ok runs whose capture log was counted and whose messages.tsv was rewritten. */
  recounted: number;
  /** Ok runs without a kept capture log (nothing to count). */
  withoutLog: number;
  /** Ok runs whose journal record was completed (new columns, anomalies). */
  completed: number;
  /** One line per run whose counts or digest differ from its journal record (`<config> #<repeat>: total_bytes 812 → 815`), or whose log no longer counts. */
  differences: string[];
}

/**
 * Recount every ok run of the folder `dir` (see the module comment).
 * @param progress called after each configuration with (configurations done, of how many)
 * @throws UserError when `dir` holds no bytes results (no runs/plan.json) or two kinds of results,
 *   or its plan, a journal record, provenance.json, summary.tsv or medians.tsv is malformed or of another schema version
 *   (checked as `render` checks them: format/provenance.ts, summary.ts, medians.ts), before
 *   anything is rewritten
 */
export function recountResults(dir: string, progress?: (done: number, total: number) => void): RecountSummary {
  resultKindOf(dir); // a folder holding two kinds of results is refused before anything is read
  const plan = readPlan(dir);
  if (plan === undefined) {
    throw new UserError({
      file: planPath(dir),
      problem: "not found: this is not a bytes results folder",
      fix: "name the folder a bytes matrix was run into, e.g. `--results results`",
    });
  }
  // Checked before anything is rewritten (the check render makes): it is written back below.
  const pfile = resultsFile(dir, "provenance");
  const provenance = existsSync(pfile) ? readProvenanceFile(pfile, "").record : undefined;
  for (const [file, read] of [
    [resultsFile(dir, "summary"), readSummary],
    [resultsFile(dir, "medians"), readMedians],
  ] as const)
    if (existsSync(file)) read(file, "");
  const summary: RecountSummary = { recounted: 0, withoutLog: 0, completed: 0, differences: [] };
  const configs = plan.configurations.filter((c) => plan.selected.includes(c.id));
  // Every journal record is read (and checked) before the first messages.tsv is rewritten.
  for (const config of configs) readRuns(dir, config.id, config.repeats);
  configs.forEach((config, i) => {
    const transport = config.values.transport === "stdio" ? "stdio" : "http";
    for (const run of readRuns(dir, config.id, config.repeats)) {
      if (run.status !== "ok") continue;
      const log = captureLogPath(dir, config.id, run.repeat);
      if (!existsSync(log)) {
        summary.withoutLog++;
        continue;
      }
      const where = `${config.id} #${run.repeat}`;
      try {
        const streams = readCaptureStreams(log);
        const result = countStreams(streams, { transport });
        const anomalies = writeRunBreakdown(log, result, streams);
        const row = result.row;
        summary.recounted++;
        const recorded = (run.counts ?? {}) as Partial<Record<string, number>>;
        const changed = COUNT_COLUMNS.filter((c) => recorded[c] !== undefined && recorded[c] !== row[c]).map((c) => `${c} ${String(recorded[c])} → ${row[c]}`);
        const digest = streamsDigest(streams);
        if (run.digest !== undefined && run.digest !== digest) changed.push("stream digest");
        if (changed.length) summary.differences.push(`${where}: ${changed.join(", ")}`);
        else if (COUNT_COLUMNS.some((c) => recorded[c] === undefined) || anomalySummary(run.anomalies ?? {}) !== anomalySummary(anomalies ?? {})) {
          const { anomalies: _old, ...rest } = run;
          writeRun(dir, { ...rest, counts: row, ...(anomalies ? { anomalies } : {}) });
          summary.completed++;
        }
      } catch (e) {
        summary.differences.push(`${where}: no longer counts: ${(e as Error).message}`);
      }
    }
    progress?.(i + 1, configs.length);
  });
  if (summary.completed > 0 || (summary.recounted > 0 && provenance !== undefined)) {
    const record =
      provenance ??
      readProvenanceFile(pfile, `finish the run first: ${runCommandLine({ supports: BYTES_SUPPORT }, plan.matrix.file, { results: dir, resume: true })}`)
        .record;
    const counted = summary.recounted > 0 ? { ...record, tokenizers: tokenizerNames() } : record;
    if (summary.completed > 0) rebuildResults(dir, plan, counted);
    else writeProvenance(dir, counted);
  }
  return summary;
}
