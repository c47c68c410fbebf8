/**
 * Pre-registration from git (simple-git): a prediction counts as written before the run only if
 * the commit that added it is older than the first commit of the results files it is judged on.
 */
import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { simpleGit } from "simple-git";
import { resultsFile } from "../../format/layout.js";

/** A commit: hash and committer time (seconds since the epoch, UTC). */
export interface CommitStamp {
  /** Full hash. */
  hash: string;
  /** Committer time, seconds since 1970-01-01 UTC. */
  time: number;
}

/** What git says about one prediction. */
export interface Registration {
  /** Whether the prediction counts as pre-registered. */
  preRegistered: boolean;
  /** The commit that added the prediction, if it is committed. */
  predictionCommit: CommitStamp | undefined;
  /** The first commit of the results files, if they are committed. */
  resultsCommit: CommitStamp | undefined;
  /** Why, one sentence of plain text (e.g. `not in a git repository`). */
  reason: string;
}

function parseStamp(line: string | undefined): CommitStamp | undefined {
  const m = /^([0-9a-f]{40}) ([0-9]+)$/.exec((line ?? "").trim());
  return m ? { hash: m[1] ?? "", time: Number(m[2]) } : undefined;
}

async function oldest(cwd: string, args: string[]): Promise<CommitStamp | undefined> {
  const git = simpleGit({ baseDir: cwd });
  if (!(await git.checkIsRepo())) return undefined;
  const out = await git.raw(["log", "--format=%H %ct", "--reverse", ...args]);
  return parseStamp(out.split("\n")[0]);
}

/** ISO 8601 UTC of a commit time, to the second. */
export function stampIso(time: number): string {
  return new Date(time * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * Check pre-registration of each prediction id.
 * @param predictionsFile path of `predictions.yaml`
 * @param resultsDir the results folder the predictions are judged on (`summary.tsv`, `medians.tsv`)
 * @param ids prediction ids (`[A-Za-z0-9_-]+`)
 * @returns id → registration; ids not committed, or results not committed, are not pre-registered
 */
export async function checkRegistration(predictionsFile: string, resultsDir: string, ids: readonly string[]): Promise<Map<string, Registration>> {
  const out = new Map<string, Registration>();
  const pdir = dirname(resolve(predictionsFile));
  const rdir = resolve(resultsDir);
  const inRepo = async (dir: string): Promise<boolean> => existsSync(dir) && simpleGit({ baseDir: dir }).checkIsRepo();
  const predictionsInGit = await inRepo(pdir);
  const resultsInGit = await inRepo(rdir);
  const resultsCommit = resultsInGit ? await oldest(rdir, ["--", resultsFile(rdir, "summary"), resultsFile(rdir, "medians")]) : undefined;
  for (const id of ids) {
    const pattern = `^[[:space:]-]*id:[[:space:]]*["']?${id}["']?[[:space:]]*$`;
    const predictionCommit = predictionsInGit ? await oldest(pdir, ["-E", "-G", pattern, "--", basename(predictionsFile)]) : undefined;
    let reason: string;
    let preRegistered = false;
    if (!predictionsInGit) reason = "predictions.yaml is not in a git repository, so its date cannot be checked";
    else if (predictionCommit === undefined) reason = "the prediction is not committed, so it cannot count as written before the run";
    else if (!resultsInGit || resultsCommit === undefined) reason = "the results are not committed, so no run date can be checked against";
    else if (predictionCommit.time < resultsCommit.time) {
      preRegistered = true;
      reason = "the prediction was committed before the results were first committed";
    } else reason = "the prediction was committed at or after the first commit of the results";
    out.set(id, { preRegistered, predictionCommit, resultsCommit, reason });
  }
  return out;
}
