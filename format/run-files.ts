/**
 * The JSON record of a timing or per-call results folder (`timings-run.json`, `percall-run.json`,
 * format/layout.ts): read and its schema version checked here, the one check of those file kinds
 * for every reader (render's timing and per-call pages, compare).
 */
import { UserError, readResultsFile } from "./errors.js";

/**
 * Read a run record and check its `schemaVersion`.
 * @param file `timings-run.json` or `percall-run.json` of a results folder
 * @param readable the schema versions this wirecost reads (format/schema.ts)
 * @param fix the fix printed for a missing or unreadable file
 * @returns the record's keys, as written
 * @throws UserError naming the file when it is missing, not JSON or not a JSON object, and its
 *   key `schemaVersion` when that is not one of `readable`
 */
export function readRunFile(file: string, readable: readonly number[], fix: string): Record<string, unknown> {
  const text = readResultsFile(file, fix);
  let run: unknown;
  try {
    run = JSON.parse(text);
  } catch (e) {
    throw new UserError({ file, problem: `not JSON (${(e as Error).message})`, fix });
  }
  if (typeof run !== "object" || run === null || Array.isArray(run)) throw new UserError({ file, problem: "not a JSON object", fix });
  const version = (run as Record<string, unknown>).schemaVersion;
  if (typeof version !== "number" || !readable.includes(version))
    throw new UserError({
      file,
      key: "schemaVersion",
      problem: `is ${JSON.stringify(version)}, this wirecost reads ${readable.join(" and ")}`,
      fix: "re-run the matrix with this version of wirecost, or use the version that wrote it",
    });
  return run as Record<string, unknown>;
}
