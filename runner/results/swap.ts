/**
 * Replacing a folder's results without losing them: a run (or merge) into a folder that already
 * holds results writes the new ones beside, into `.wirecost-next/` (format/layout.ts
 * STAGING_FOLDER, a results folder of its own), and only once its journal is complete are they
 * moved in, one rename per file, the derived files (summary.tsv, medians.tsv, …) last. A crash
 * before that leaves the old results as they were; an interrupted run leaves the new ones in
 * `.wirecost-next/` for `--resume`. Only files a journal names (format/layout.ts
 * isJournalFileName, plan.json, the derived files) are ever moved or removed: anything else in
 * `runs/`, `logs/` or the folder stays where it is.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { REBUILT_FILES, RESULTS_FOLDERS, isJournalFileName, journalDir, logDir, planPath, stagingDir } from "../../format/layout.js";
import { readPlan } from "./journal.js";
import type { ResultsPlan } from "./schema.js";

/**
 * Paths of the journal files of configuration `id` with `repeats` planned repeats that exist in
 * results folder `dir` (run records, then logs; format/layout.ts isJournalFileName).
 */
function journalFiles(dir: string, id: string, repeats: number): string[] {
  const out: string[] = [];
  for (const [sub, folder] of [
    ["runs", journalDir(dir, id)],
    ["logs", logDir(dir, id)],
  ] as const) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (isJournalFileName(sub, name, repeats)) out.push(join(folder, name));
  }
  return out;
}

/** Remove `folder` when it is empty; leave it (and say nothing) otherwise. */
function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    /* not empty (it holds files wirecost did not write), or gone */
  }
}

/**
 * Configuration id → planned repeats, for every configuration of the plans given (the most any of
 * them plans: each plan's journal files are named by it).
 */
function plannedRepeats(...plans: (ResultsPlan | undefined)[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const plan of plans) for (const c of plan?.configurations ?? []) out.set(c.id, Math.max(out.get(c.id) ?? 0, c.repeats));
  return out;
}

/**
 * Remove from results folder `dir` what a journal of configurations `repeats` (id → planned
 * repeats, {@link plannedRepeats}) names: their run records and capture logs (with their
 * breakdowns) of repeats 1 to the planned count, `runs/plan.json` and the derived files; folders
 * left empty go too. Nothing else is touched (a `7.json` beside 5 planned repeats stays).
 * @param keep paths not to remove (the files just moved in)
 * @throws the fs error of a file that cannot be removed (the CLI names the folder's option)
 */
export function removeJournal(dir: string, repeats: ReadonlyMap<string, number>, keep: ReadonlySet<string> = new Set()): void {
  for (const [id, n] of repeats) {
    for (const file of journalFiles(dir, id, n)) if (!keep.has(file)) rmSync(file, { force: true });
    removeIfEmpty(journalDir(dir, id));
    removeIfEmpty(logDir(dir, id));
  }
  for (const file of [planPath(dir), ...REBUILT_FILES.map((f) => join(dir, f))]) if (!keep.has(file)) rmSync(file, { force: true });
  removeIfEmpty(join(dir, RESULTS_FOLDERS.journal));
  removeIfEmpty(join(dir, RESULTS_FOLDERS.logs));
}

/**
 * Drop what an interrupted earlier re-run left in `dir/.wirecost-next/` (its journal's files
 * only), before a run or merge that does not resume it starts a new one.
 */
export function discardStaging(dir: string): void {
  const staging = stagingDir(dir);
  if (!existsSync(staging)) return;
  removeJournal(staging, plannedRepeats(readPlan(staging)));
  removeIfEmpty(staging);
}

/**
 * Where a run or merge into `dir` writes: `dir` itself when it holds no results yet (no
 * `runs/plan.json`), else `dir/.wirecost-next/` (swapped in by {@link swapIn} once complete).
 */
export function writeTarget(dir: string): string {
  return readPlan(dir) === undefined ? dir : stagingDir(dir);
}

/**
 * Move the complete results of `dir/.wirecost-next/` into `dir`: each configuration's journal
 * files (replacing the old files of the same name), then `runs/plan.json`, then the derived files;
 * then the files of the old journal the new one does not name are removed, and the emptied
 * staging folder. A crash part way leaves the old derived files until the new ones are in.
 * @param next the plan of the staged results
 * @throws the fs error of a rename or removal that fails
 */
export function swapIn(dir: string, next: ResultsPlan): void {
  const staging = stagingDir(dir);
  const old = readPlan(dir);
  const moved = new Set<string>();
  const move = (from: string) => {
    const to = join(dir, relative(staging, from));
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    moved.add(to);
  };
  for (const [id, n] of plannedRepeats(next)) for (const file of journalFiles(staging, id, n)) move(file);
  move(planPath(staging));
  for (const f of REBUILT_FILES) if (existsSync(join(staging, f))) move(join(staging, f));
  removeJournal(dir, plannedRepeats(old, next), moved);
  removeJournal(staging, plannedRepeats(next));
  removeIfEmpty(staging);
}
