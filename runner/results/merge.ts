/**
 * Merge shard results folders (`wirecost run --shard K/N`) into one: the journals and capture
 * logs are copied, the plans united, the derived files rebuilt. Shards must come from the same
 * matrix (sha256) and the same wirecost version; a configuration held by two folders is refused,
 * one held by none is reported as missing (and shows as not-run in coverage.tsv).
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../../format/errors.js";
import { clearRuns, readPlan, readRuns, writePlan } from "./journal.js";
import type { Provenance } from "../../format/schema.js";
import type { ResultsPlan } from "./schema.js";
import { rebuildResults } from "./store.js";
import { RESULTS_FOLDERS, resultsFile } from "../../format/layout.js";

/** What a merge did. */
export interface MergeReport {
  /** Configurations of the merged folder (all shards' plans united). */
  configurations: number;
  /** Ids no folder ran, sorted. */
  missing: string[];
  /** The merged plan written to `out`. */
  plan: ResultsPlan;
}

/** Read a shard's plan and provenance. @throws UserError naming the folder when it is not a finished results folder. */
function readShard(dir: string): { plan: ResultsPlan; provenance: Provenance } {
  const plan = readPlan(dir);
  if (!plan)
    throw new UserError(`${dir}: not a wirecost results folder (no runs/plan.json) — pass folders written by: npx wirecost run --shard K/N --results DIR`);
  const pfile = resultsFile(dir, "provenance");
  if (!existsSync(pfile))
    throw new UserError(
      `${pfile}: missing (the shard did not finish) — finish it first: npx wirecost run ${plan.matrix.file}${plan.shard ? ` --shard ${plan.shard}` : ""} --results ${dir} --resume`,
    );
  return { plan, provenance: JSON.parse(readFileSync(pfile, "utf8")) as Provenance };
}

/**
 * Merge results folders `dirs` into `out` (created; its journal, logs and derived files replaced).
 * Every input run file is read before anything is written, so a bad one names its own folder and
 * leaves `out` as it was.
 * @param fresh replace `out` even when it holds results of configurations the merge does not cover
 * @throws UserError when no folder is given, `out` is one of `dirs`, a folder is not a finished
 *   results folder, folders differ in matrix sha256 or tool version (both named), a configuration
 *   appears in two folders (named with both folders), a run file is unreadable (named), or `out`
 *   holds results the merge would drop (without `fresh`)
 */
export function mergeResults(dirs: readonly string[], out: string, command = "wirecost merge", fresh = false): MergeReport {
  if (dirs.length === 0) throw new UserError("merge: no results folder given — pass the shard folders: npx wirecost merge DIR… --results OUT");
  if (dirs.some((d) => resolve(d) === resolve(out))) throw new UserError(`--results ${out}: is also an input folder — merge into a new folder`);
  const shards = dirs.map((dir) => ({ dir, ...readShard(dir) }));
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    if (s.plan.matrix.sha256 !== first.plan.matrix.sha256)
      throw new UserError(
        `${s.dir}: ran another matrix than ${first.dir} (sha256 ${s.plan.matrix.sha256.slice(0, 12)}… vs ${first.plan.matrix.sha256.slice(0, 12)}…) — merge only shards of one matrix file`,
      );
    if (s.plan.tool.version !== first.plan.tool.version)
      throw new UserError(
        `${s.dir}: written by wirecost ${s.plan.tool.version}, ${first.dir} by ${first.plan.tool.version} — rerun the shards with one wirecost version`,
      );
  }
  const owner = new Map<string, string>();
  const duplicated: string[] = [];
  for (const s of shards) {
    for (const id of s.plan.selected) {
      const prev = owner.get(id);
      if (prev !== undefined) duplicated.push(`${id} (${prev} and ${s.dir})`);
      else owner.set(id, s.dir);
    }
  }
  if (duplicated.length)
    throw new UserError(
      `merge: ${duplicated.length} configuration(s) in more than one folder: ${duplicated.slice(0, 3).join(", ")}${duplicated.length > 3 ? ", …" : ""} — pass each shard once (--shard K/N with one N)`,
    );
  const byId = new Map(shards.flatMap((s) => s.plan.configurations.map((c) => [c.id, c] as const)));
  const configurations = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const missing = configurations.map((c) => c.id).filter((id) => !owner.has(id));
  for (const s of shards) for (const id of s.plan.selected) readRuns(s.dir, id); // throws naming the shard's file
  const old = fresh ? undefined : readPlan(out);
  const lost = (old?.selected ?? []).filter((id) => !byId.has(id));
  if (lost.length)
    throw new UserError(
      `--results ${out}: holds results of ${lost.length} configuration(s) the merged folders do not have (e.g. ${lost[0]}, from ${old!.matrix.file}) and would drop them — merge into a new folder, or pass --fresh to drop them`,
    );
  clearRuns(out);
  for (const s of shards) {
    for (const id of s.plan.selected) {
      for (const sub of [RESULTS_FOLDERS.journal, RESULTS_FOLDERS.logs]) {
        const from = join(s.dir, sub, id);
        if (existsSync(from)) cpSync(from, join(out, sub, id), { recursive: true });
      }
    }
  }
  const { shard: _shard, ...base } = first.plan;
  const plan: ResultsPlan = { ...base, configurations, selected: configurations.map((c) => c.id) };
  const times = shards.map((s) => s.provenance);
  const provenance: Provenance = {
    ...first.provenance,
    startedAt: times.map((p) => p.startedAt).sort()[0]!,
    endedAt: times
      .map((p) => p.endedAt)
      .sort()
      .at(-1)!,
    command,
  };
  writePlan(out, plan);
  rebuildResults(out, plan, provenance);
  return { configurations: configurations.length, missing, plan };
}
