/**
 * The run journal of a results folder: `runs/plan.json` (what the folder was asked to hold) and
 * one small JSON file per finished run, `runs/<config>/<repeat>.json`, each written atomically
 * (temp file, then rename). A kill at any instant leaves every finished run on disk and nothing
 * half-written; runs.tsv, summary.tsv, medians.tsv and coverage.tsv are rebuilt from the journal.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../format/errors.js";
import { writeAtomic } from "../../format/files.js";
import { REBUILT_FILES, RESULTS_FOLDERS, journalDir, planPath, resultsFile, runRecordPath } from "../../format/layout.js";
import { SCHEMA_VERSION } from "../../format/schema.js";
import type { ResultsPlan, RunRecord } from "./schema.js";

/** Write the plan atomically (sorted keys as built, 2-space JSON, trailing newline). */
export function writePlan(results: string, plan: ResultsPlan): void {
  writeAtomic(planPath(results), JSON.stringify(plan, null, 2) + "\n");
}

/**
 * Read the plan of a results folder.
 * @returns the plan, or undefined when the folder has no `runs/plan.json`
 * @throws UserError naming the file when it is not JSON, or when its schemaVersion is not
 *   {@link SCHEMA_VERSION} (older: the command that rewrites the folder; newer: the upgrade)
 */
export function readPlan(results: string): ResultsPlan | undefined {
  const file = planPath(results);
  if (!existsSync(file)) return undefined;
  let plan: ResultsPlan;
  try {
    plan = JSON.parse(readFileSync(file, "utf8")) as ResultsPlan;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message}) — rerun into a fresh folder: npx wirecost run --results ${results}`);
  }
  checkSchemaVersion(file, plan.schemaVersion, results);
  return plan;
}

/**
 * Refuse a results file of another schema version.
 * @throws UserError `file: results schemaVersion X, this wirecost reads Y — <fix>`; older folders
 *   are migrated by re-running them (the journal keeps the matrix), newer ones need a newer wirecost
 */
export function checkSchemaVersion(file: string, version: unknown, results: string): void {
  if (version === SCHEMA_VERSION) return;
  const fix =
    typeof version === "number" && version > SCHEMA_VERSION
      ? "upgrade wirecost (npm i -E wirecost@latest) to read it"
      : `migrate it by re-running the matrix into it: npx wirecost run --results ${results}`;
  throw new UserError(`${file}: results schemaVersion ${String(version)}, this wirecost reads ${SCHEMA_VERSION} — ${fix}`);
}

/**
 * Refuse to resume into a folder whose provenance.json is of another schema version (the
 * journal's plan may still be current); an absent or unreadable file has nothing to check (the
 * run writes it anew when it ends).
 * @throws UserError as {@link checkSchemaVersion}
 */
export function checkProvenanceVersion(results: string): void {
  const file = resultsFile(results, "provenance");
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(file, "utf8")) as { schemaVersion?: unknown }).schemaVersion;
  } catch {
    return;
  }
  checkSchemaVersion(file, version, results);
}

/** Append one finished run to the journal (atomic; replaces an earlier record of the same run). */
export function writeRun(results: string, run: RunRecord): void {
  writeAtomic(runRecordPath(results, run.config, run.repeat), JSON.stringify(run) + "\n");
}

/**
 * Finished runs of one configuration in the journal, sorted by repeat. Temp files of an
 * interrupted write are ignored.
 * @throws UserError naming a journal file that is not valid JSON
 */
export function readRuns(results: string, config: string): RunRecord[] {
  const dir = journalDir(results, config);
  if (!existsSync(dir)) return [];
  const out: RunRecord[] = [];
  for (const name of readdirSync(dir)) {
    if (!/^\d+\.json$/.test(name)) continue;
    const file = join(dir, name);
    try {
      out.push(JSON.parse(readFileSync(file, "utf8")) as RunRecord);
    } catch (e) {
      throw new UserError(`${file}: not valid JSON (${(e as Error).message}) — delete it and resume: npx wirecost run --resume --results ${results}`);
    }
  }
  return out.sort((a, b) => a.repeat - b.repeat);
}

/** Configuration ids that have a journal folder, sorted. */
export function journalConfigs(results: string): string[] {
  const dir = join(results, RESULTS_FOLDERS.journal);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Remove the journal and capture logs of a results folder (a fresh, non-resumed run). */
export function clearRuns(results: string): void {
  for (const sub of [RESULTS_FOLDERS.journal, RESULTS_FOLDERS.logs]) rmSync(join(results, sub), { recursive: true, force: true });
  for (const f of REBUILT_FILES) rmSync(join(results, f), { force: true });
}
