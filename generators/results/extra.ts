/**
 * Optional results files: `coverage.tsv` and the per-message breakdowns under `logs/` (`runs.tsv`:
 * format/runs.ts). Older or hand-made results folders may lack them; pages then say so instead of failing.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { anomaliesPath, captureLogRepeat, logDir, messagesPath, resultsFile } from "../../format/layout.js";
import { readAnomaliesFile, type AnomalyRow } from "../../format/anomalies.js";
import { readMessagesFile, type MessageRow } from "../../format/messages.js";
import { compareCodeUnits } from "../../format/order.js";
import type { Runs } from "../../format/runs.js";

export type { MessageRow };

/** What became of one expanded cell (`coverage.tsv`, column `outcome`). */
export type CoverageOutcome = "measured" | "failed" | "skipped" | "excluded" | "not-run";

/** One expanded cell of the matrix and what became of it. */
export interface CoverageCell {
  /** Configuration id. */
  config: string;
  /** Axis values by axis name, in the file's column order. */
  axes: ReadonlyMap<string, string>;
  /** What became of the cell. */
  outcome: CoverageOutcome;
  /** Why (the exclude rule, the failure), empty when measured. */
  reason: string;
}

/** `coverage.tsv` parsed. */
export interface Coverage {
  /** Axis names, in column order (between `config` and the last two columns). */
  axisNames: readonly string[];
  /** Cells sorted by configuration id. */
  cells: readonly CoverageCell[];
}

const REGEN = "regenerate the results with `npx wirecost run`";

const OUTCOMES: readonly string[] = ["measured", "failed", "skipped", "excluded", "not-run"];

/**
 * Read `coverage.tsv` if present: `config, <axes…>, outcome, reason`. Columns are taken by
 * position (the last two), so no axis name can clash with them.
 * @returns undefined when the file does not exist
 * @throws UserError (file:line) when a row has the wrong number of fields or an unknown outcome
 */
export function readCoverage(dir: string): Coverage | undefined {
  const file = resultsFile(dir, "coverage");
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const header = (lines[0] ?? "").split("\t");
  if (header[0] !== "config" || header.length < 3) {
    throw new UserError({ file, line: 1, problem: "expected the header `config, <axes…>, outcome, reason`", fix: REGEN });
  }
  const axisNames = header.slice(1, -2);
  const cells: CoverageCell[] = [];
  lines.slice(1).forEach((text, i) => {
    const f = text.split("\t");
    if (f.length !== header.length) {
      throw new UserError({
        file,
        line: i + 2,
        problem: `expected ${header.length} tab-separated fields, found ${f.length}`,
        fix: REGEN,
      });
    }
    const outcome = f[f.length - 2] ?? "";
    if (!OUTCOMES.includes(outcome)) {
      throw new UserError({
        file,
        line: i + 2,
        key: "outcome",
        problem: `unknown outcome \`${outcome}\` (expected ${OUTCOMES.join(", ")})`,
        fix: REGEN,
      });
    }
    cells.push({
      config: f[0] ?? "",
      axes: new Map(axisNames.map((name, j) => [name, f[j + 1] ?? ""] as const)),
      outcome: outcome as CoverageOutcome,
      reason: f[f.length - 1] ?? "",
    });
  });
  cells.sort((a, b) => compareCodeUnits(a.config, b.config));
  return { axisNames, cells };
}

/**
 * Read one run's per-message breakdown, `logs/<config>/<repeat>.messages.tsv` (format/messages.ts).
 * @returns undefined when the file does not exist
 * @throws UserError (file:line) when a column is missing or a count is not an integer
 */
export function readMessages(dir: string, config: string, repeat: number): MessageRow[] | undefined {
  return readMessagesFile(messagesPath(dir, config, repeat));
}

/**
 * Read one run's anomalies, `logs/<config>/<repeat>.anomalies.tsv` (format/anomalies.ts).
 * @returns [] when the run had none (no file)
 * @throws UserError (file:line) when the file is malformed
 */
export function readAnomalies(dir: string, config: string, repeat: number): AnomalyRow[] {
  return readAnomaliesFile(anomaliesPath(dir, config, repeat));
}

/**
 * The first repeat of a configuration that has a capture log (`logs/<config>/<n>.jsonl`),
 * preferring the lowest `ok` repeat in `runs` when given.
 * @returns the repeat number, or undefined when the configuration has no logs
 */
export function firstLoggedRepeat(dir: string, config: string, runs: Runs | undefined): number | undefined {
  const folder = logDir(dir, config);
  if (!existsSync(folder)) return undefined;
  const logged = readdirSync(folder)
    .map(captureLogRepeat)
    .filter((n): n is number => n !== undefined)
    .sort((a, b) => a - b);
  const ok = new Set(runs?.rows.filter((r) => r.config === config && r.status === "ok").map((r) => r.repeat) ?? []);
  return logged.find((n) => ok.has(n)) ?? logged[0];
}

/**
 * Configurations whose every run was skipped (`coverage.tsv` outcome `skipped`: a target whose
 * build toolchain is missing, run with `--skip-missing-toolchains`). They have no figure: pages
 * leave them out of their tables and write no configuration page for them; the coverage section
 * lists them with the reason.
 * @returns configuration ids; empty when the folder has no coverage.tsv
 */
export function skippedConfigs(results: { coverage: Coverage | undefined }): ReadonlySet<string> {
  return new Set((results.coverage?.cells ?? []).filter((c) => c.outcome === "skipped").map((c) => c.config));
}
