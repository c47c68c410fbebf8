/**
 * The run journal of a results folder: `runs/plan.json` (what the folder was asked to hold) and
 * one small JSON file per finished run, `runs/<config>/<repeat>.json`, each written atomically
 * (temp file, then rename). A kill at any instant leaves every finished run on disk and nothing
 * half-written; runs.tsv, summary.tsv, medians.tsv and coverage.tsv are rebuilt from the journal.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../format/errors.js";
import { writeAtomic } from "../../format/files.js";
import { RESULTS_FOLDERS, journalDir, journalRepeat, nameProblem, planPath, recordedMatrix, resultsFile, runRecordPath } from "../../format/layout.js";
import { COUNT_COLUMNS, isCountColumn } from "../../format/count-columns.js";
import { WIRE_CHANGES } from "../../format/migrations.js";
import { RUN_STATUSES } from "../../format/runs.js";
import { SCHEMA_VERSION } from "../../format/schema.js";
import { BYTES_SUPPORT, runCommandLine } from "../modes/commands.js";
import type { ResultsPlan, RunRecord } from "./schema.js";

/**
 * The `wirecost run` command out of a journal that cannot be read as it is, naming the matrix the
 * folder records it was run from (format/layout.ts `recordedMatrix`: its plan, else its
 * provenance.json), so that a folder of another matrix is never sent to the default one: with
 * `resume`, continue `results` (a bad run record deleted); else run the matrix into a new folder
 * (`NEW_FOLDER`: a run into `results` must read its journal to replace it, and cannot). Where the
 * folder records no matrix, the line says `MATRIX` and what it stands for.
 */
function rerunCommand(results: string, resume = false): string {
  const matrix = recordedMatrix(results);
  const command = runCommandLine({ supports: BYTES_SUPPORT }, matrix ?? "MATRIX", { results: resume ? results : "NEW_FOLDER", resume });
  return matrix === undefined ? `${command} (MATRIX: the matrix file it was run from)` : command;
}

/** Write the plan atomically (sorted keys as built, 2-space JSON, trailing newline). */
export function writePlan(results: string, plan: ResultsPlan): void {
  writeAtomic(planPath(results), JSON.stringify(plan, null, 2) + "\n");
}

/**
 * Read the plan of a results folder.
 * @returns the plan, or undefined when the folder has no `runs/plan.json`
 * @throws UserError naming the file when it is not JSON, when its schemaVersion is not
 *   {@link SCHEMA_VERSION} (older: the command that rewrites the folder; newer: the upgrade), or
 *   (naming the key) when a key the runner uses is missing or of the wrong shape, or a
 *   configuration id cannot be a file name
 */
export function readPlan(results: string): ResultsPlan | undefined {
  const file = planPath(results);
  if (!existsSync(file)) return undefined;
  let plan: ResultsPlan;
  try {
    plan = JSON.parse(readFileSync(file, "utf8")) as ResultsPlan;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message}) — rerun the matrix into a new folder: ${rerunCommand(results)}`);
  }
  if (!isObject(plan)) throw new UserError(`${file}: not a plan (a JSON object) — rerun the matrix into a new folder: ${rerunCommand(results)}`);
  checkSchemaVersion(file, plan.schemaVersion, results);
  checkPlan(file, plan, results);
  return plan;
}

/** Is `v` a plain object (not null, not an array)? */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Check the shape of a plan read from `file`: the keys the runner uses, every configuration id a
 * file name (format/layout.ts nameProblem), repeats whole numbers, every selected id planned.
 * @throws UserError naming the file and the key at fault
 */
function checkPlan(file: string, plan: ResultsPlan, results: string): void {
  const fix = `rerun the matrix into a new folder (${rerunCommand(results)}); ${results} was not written by this wirecost`;
  const wrong = (key: string, problem: string) => new UserError({ file, key, problem, fix });
  const p = plan as unknown as Record<string, unknown>;
  if (!isObject(p.tool) || typeof p.tool.version !== "string") throw wrong("tool.version", "expected a version string");
  if (!isObject(p.matrix) || typeof p.matrix.file !== "string" || typeof p.matrix.sha256 !== "string")
    throw wrong("matrix", "expected { file, sha256 } strings");
  if (!Array.isArray(p.axisNames) || !p.axisNames.every((a) => typeof a === "string")) throw wrong("axisNames", "expected a list of axis names");
  for (const key of ["configurations", "excluded"] as const) {
    const list = p[key];
    if (!Array.isArray(list)) throw wrong(key, "expected a list");
    list.forEach((c: unknown, i) => {
      if (!isObject(c) || typeof c.id !== "string" || !isObject(c.values)) throw wrong(`${key}[${i}]`, "expected { id, values }");
      const bad = nameProblem(c.id);
      if (bad !== undefined) throw wrong(`${key}[${i}].id`, `configuration id ${JSON.stringify(c.id.slice(0, 60))} ${bad}`);
      if (key === "configurations" && (!Number.isSafeInteger(c.repeats) || (c.repeats as number) < 0))
        throw wrong(`${key}[${i}].repeats`, "expected a whole number");
    });
  }
  const planned = new Set(plan.configurations.map((c) => c.id));
  if (!Array.isArray(p.selected)) throw wrong("selected", "expected a list of configuration ids");
  const stray = plan.selected.find((id) => !planned.has(id));
  if (stray !== undefined) throw wrong("selected", `${JSON.stringify(String(stray).slice(0, 60))} is not one of the configurations`);
}

/**
 * Refuse a results file of another schema version.
 * @throws UserError `file: results schemaVersion X, this wirecost reads Y — <fix>`; older folders
 *   are migrated by re-running their matrix (the one they record) into a new folder, newer ones
 *   need a newer wirecost
 */
export function checkSchemaVersion(file: string, version: unknown, results: string): void {
  if (version === SCHEMA_VERSION) return;
  const fix =
    typeof version === "number" && version > SCHEMA_VERSION
      ? "upgrade wirecost (npm i -E wirecost@latest) to read it"
      : `migrate it by re-running the matrix into a new folder: ${rerunCommand(results)}`;
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
 * Finished runs of one configuration in the journal, sorted by repeat: the records of repeats 1 to
 * `repeats` (the plan's count; format/layout.ts journalRepeat). Temp files of an interrupted
 * write, and files the journal does not name (a `7.json` beside 5 planned repeats), are not read.
 * @param repeats the configuration's planned repeats
 * @throws UserError naming a journal file that is not valid JSON, or whose record is not one of
 *   its configuration and repeat or holds a count that is not a whole number ≥ 0 (naming the key)
 */
export function readRuns(results: string, config: string, repeats: number): RunRecord[] {
  const dir = journalDir(results, config);
  if (!existsSync(dir)) return [];
  const out: RunRecord[] = [];
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".tmp") || journalRepeat("runs", name, repeats) === undefined) continue;
    const file = join(dir, name);
    let run: unknown;
    try {
      run = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new UserError(`${file}: not valid JSON (${(e as Error).message}) — delete it and resume: ${rerunCommand(results, true)}`);
    }
    const problem = runProblem(run, config, Number(name.slice(0, -".json".length)));
    if (problem !== undefined) throw new UserError({ file, key: problem[0], problem: problem[1], fix: `delete it and resume: ${rerunCommand(results, true)}` });
    out.push(run as RunRecord);
  }
  return out.sort((a, b) => a.repeat - b.repeat);
}

/**
 * What is wrong with a run record read from `runs/<config>/<repeat>.json`, as [key, problem], or
 * undefined: its `config` and `repeat` must be those of its path, `status` one of the four,
 * `exit` and `error` strings, every count a whole number ≥ 0 (2^53 at most), anomalies whole
 * numbers, `digest` a string, and an ok run's counts whole ({@link okCountsProblem}).
 */
function runProblem(run: unknown, config: string, repeat: number): [string, string] | undefined {
  if (!isObject(run)) return ["", "expected a JSON object"];
  if (run.config !== config) return ["config", `expected ${JSON.stringify(config)} (its folder), found ${JSON.stringify(run.config)}`];
  if (run.repeat !== repeat) return ["repeat", `expected ${repeat} (its file name), found ${JSON.stringify(run.repeat)}`];
  if (typeof run.status !== "string" || !(RUN_STATUSES as readonly string[]).includes(run.status))
    return ["status", `expected one of ${RUN_STATUSES.join(", ")}`];
  if (typeof run.exit !== "string" || typeof run.error !== "string") return ["exit", "expected `exit` and `error` strings"];
  const whole = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  for (const key of ["counts", "anomalies"] as const) {
    const m = run[key];
    if (m === undefined) continue;
    if (!isObject(m)) return [key, "expected an object of name → whole number"];
    const bad = Object.entries(m).find(([, v]) => !whole(v));
    if (bad) return [`${key}.${bad[0]}`, `expected a whole number ≥ 0, found ${JSON.stringify(bad[1])}`];
  }
  if (run.digest !== undefined && typeof run.digest !== "string") return ["digest", "expected a string"];
  return run.status === "ok" ? okCountsProblem(run.counts) : undefined;
}

/** Count columns an ok run recorded by an older wirecost may lack: those a numbered change added (format/migrations.ts). */
const COUNTS_ADDED_LATER: ReadonlySet<string> = new Set(
  WIRE_CHANGES.flatMap((c) => c.columns.messages ?? [])
    .map((c) => c.name)
    .filter(isCountColumn),
);

/**
 * What is wrong with an ok run's counts, as [key, problem], or undefined: every count column
 * (format/count-columns.ts) is there, save one a later change added, and `total_bytes` is
 * `c2s_bytes` + `s2c_bytes` (its definition: every logged byte, both directions).
 */
function okCountsProblem(counts: unknown): [string, string] | undefined {
  if (!isObject(counts)) return ["counts", "an ok run without its counts"];
  const lacking = COUNT_COLUMNS.find((c) => counts[c] === undefined && !COUNTS_ADDED_LATER.has(c));
  if (lacking !== undefined) return [`counts.${lacking}`, "missing from an ok run's counts"];
  const [total, c2s, s2c] = [counts.total_bytes, counts.c2s_bytes, counts.s2c_bytes] as number[];
  if (total !== c2s! + s2c!) return ["counts.total_bytes", `is ${total}, not c2s_bytes + s2c_bytes = ${c2s! + s2c!}`];
  return undefined;
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
