/**
 * Merge shard results folders (`wirecost run --shard K/N`) into one: the journal files (and only
 * those) are copied, the plans united, the derived files rebuilt. Shards must come from the same
 * matrix (sha256) and be written by this wirecost version; a configuration held by two folders is
 * refused, one held by none is reported as missing (and shows as not-run in coverage.tsv).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../../format/errors.js";
import { readPlan, readRuns, writePlan } from "./journal.js";
import type { Provenance } from "../../format/schema.js";
import type { ResultsPlan } from "./schema.js";
import { rebuildResults } from "./store.js";
import { RESULTS_FOLDERS, anomaliesPath, isJournalFileName, journalDir, logDir, messagesPath, resultsFile } from "../../format/layout.js";
import { readMessagesFile } from "../../format/messages.js";
import { readAnomaliesFile } from "../../format/anomalies.js";
import { readProvenanceFile } from "../../format/provenance.js";
import { readMedians } from "../../format/medians.js";
import { readSummary } from "../../format/summary.js";
import { resultKind, resultKindOf } from "../../format/kinds.js";
import { toolInfo } from "../paths.js";
import { discardStaging, swapIn, writeTarget } from "./swap.js";
import { BYTES_SUPPORT, runCommandLine } from "../modes/commands.js";

/** What a merge did. */
export interface MergeReport {
  /** Configurations of the merged folder (all shards' plans united). */
  configurations: number;
  /** Ids no folder ran, sorted. */
  missing: string[];
  /** The merged plan written to `out`. */
  plan: ResultsPlan;
}

/**
 * Read a shard's plan and provenance, both checked (runner/results/journal.ts readPlan,
 * format/provenance.ts: the check `render` makes), and check its summary.tsv and medians.tsv as
 * `render` does (format/summary.ts, medians.ts).
 * @throws UserError naming the folder when it is not a finished results folder, or the file (and
 *   key) that is malformed or of another schema version
 */
function readShard(dir: string): { plan: ResultsPlan; provenance: Provenance } {
  resultKindOf(dir); // two kinds of results in one folder: refused
  const plan = readPlan(dir);
  if (!plan)
    throw new UserError(`${dir}: not a wirecost results folder (no runs/plan.json) — pass folders written by: npx wirecost run --shard K/N --results DIR`);
  const pfile = resultsFile(dir, "provenance");
  if (!existsSync(pfile))
    throw new UserError(
      `${pfile}: missing (the shard did not finish) — finish it first: ${runCommandLine({ supports: BYTES_SUPPORT }, plan.matrix.file, { shard: plan.shard, results: dir, resume: true })}`,
    );
  const provenance = readProvenanceFile(pfile, "finish the shard first").record;
  // Checked as render checks them, though rebuilt: a shard whose pages would be refused is refused here.
  readSummary(resultsFile(dir, "summary"), "finish the shard first");
  readMedians(resultsFile(dir, "medians"), "finish the shard first");
  return { plan, provenance };
}

/**
 * Read the per-message and anomalies tables of configuration `id`'s repeats 1..`repeats` in `dir`
 * (format/messages.ts, format/anomalies.ts: the checks render makes), so that a shard whose pages
 * would be refused is refused before anything is merged.
 * @throws UserError naming the file, line and column of a cell no wirecost writes
 */
function checkRunTables(dir: string, id: string, repeats: number): void {
  for (let repeat = 1; repeat <= repeats; repeat++) {
    readMessagesFile(messagesPath(dir, id, repeat));
    readAnomaliesFile(anomaliesPath(dir, id, repeat));
  }
}

/**
 * Refuse shards whose plans differ on a configuration (e.g. run with another `--repeats`): merged,
 * one shard's repeats would be dropped or counted as failed, depending on the order of the folders.
 * @throws UserError naming both folders, the configuration and the keys that differ
 */
function refuseDifferentRuns(shards: readonly { dir: string; plan: ResultsPlan }[]): void {
  const first = new Map<string, { dir: string; config: ResultsPlan["configurations"][number] }>();
  for (const s of shards) {
    for (const c of s.plan.configurations) {
      const seen = first.get(c.id);
      if (seen === undefined) {
        first.set(c.id, { dir: s.dir, config: c });
        continue;
      }
      const keys = [...new Set([...Object.keys(seen.config), ...Object.keys(c)])].filter(
        (k) => JSON.stringify((seen.config as unknown as Record<string, unknown>)[k]) !== JSON.stringify((c as unknown as Record<string, unknown>)[k]),
      );
      if (keys.length) {
        const repeats = keys.includes("repeats") ? ` (repeats ${c.repeats} vs ${seen.config.repeats})` : "";
        throw new UserError(
          `${s.dir}: planned ${c.id} with another ${keys.join(", ")} than ${seen.dir}${repeats} — run every shard with the same options (--repeats), then merge`,
        );
      }
    }
  }
}

/**
 * Copy the journal files of configuration `id` with `repeats` planned repeats (format/layout.ts
 * isJournalFileName) from results folder `from` to `to`; nothing else.
 */
function copyJournal(from: string, to: string, id: string, repeats: number): void {
  for (const [sub, src, dst] of [
    [RESULTS_FOLDERS.journal, journalDir(from, id), journalDir(to, id)],
    [RESULTS_FOLDERS.logs, logDir(from, id), logDir(to, id)],
  ] as const) {
    if (!existsSync(src)) continue;
    const names = readdirSync(src).filter((n) => isJournalFileName(sub, n, repeats) && !n.endsWith(".tmp"));
    if (names.length) mkdirSync(dst, { recursive: true });
    for (const n of names) copyFileSync(join(src, n), join(dst, n));
  }
}

/**
 * Merge results folders `dirs` into `out`. Every input run file is read (and checked) before
 * anything is written, so a bad one names its own folder and leaves `out` as it was. When `out`
 * already holds results, the merged ones are written beside (`out/.wirecost-next/`) and swapped in
 * once complete (runner/results/swap.ts): a crash part way leaves the old ones; only files a
 * journal names are replaced or removed.
 * @param fresh replace `out` even when it holds results of configurations no input folder ran
 * @throws UserError when no folder is given, `out` is one of `dirs`, a folder is not a finished
 *   results folder or one of its files is malformed (named: a run record, a per-message or anomalies table included), folders differ in matrix sha256,
 *   a folder was written by another wirecost version than this one (named), a configuration
 *   appears in two folders (named with both folders), or `out` holds results of configurations
 *   no input folder ran (without `fresh`: merging fewer shards than before is refused, as
 *   `run --only` and `run --shard` refuse it)
 */
export function mergeResults(dirs: readonly string[], out: string, command = "wirecost merge", fresh = false): MergeReport {
  if (dirs.length === 0) throw new UserError("merge: no results folder given — pass the shard folders: npx wirecost merge DIR… --results OUT");
  if (dirs.some((d) => resolve(d) === resolve(out))) throw new UserError(`--results ${out}: is also an input folder — merge into a new folder`);
  const shards = dirs.map((dir) => ({ dir, ...readShard(dir) }));
  const held = existsSync(out) ? resultKindOf(out) : undefined;
  if (held !== undefined && held !== "wire")
    throw new UserError(`--results ${out}: holds ${resultKind(held).noun} results — merge bytes shards into a folder of their own`);
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    if (s.plan.matrix.sha256 !== first.plan.matrix.sha256)
      throw new UserError(
        `${s.dir}: ran another matrix than ${first.dir} (sha256 ${s.plan.matrix.sha256.slice(0, 12)}… vs ${first.plan.matrix.sha256.slice(0, 12)}…) — merge only shards of one matrix file`,
      );
  }
  refuseDifferentRuns(shards);
  const version = toolInfo().version;
  for (const s of shards) {
    const written = [s.plan.tool.version, s.provenance.tool.version].find((v) => v !== version);
    if (written !== undefined)
      throw new UserError(
        `${s.dir}: written by wirecost ${written}, this is ${version} — rerun the shard with this wirecost (${runCommandLine({ supports: BYTES_SUPPORT }, s.plan.matrix.file, { shard: s.plan.shard, results: s.dir })}), or merge with the version that wrote it`,
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
  const repeatsIn = (plan: ResultsPlan, id: string) => plan.configurations.find((c) => c.id === id)?.repeats ?? 0;
  for (const s of shards)
    for (const id of s.plan.selected) {
      readRuns(s.dir, id, repeatsIn(s.plan, id)); // throws naming the shard's file
      checkRunTables(s.dir, id, repeatsIn(s.plan, id));
    }
  const old = fresh ? undefined : readPlan(out);
  // Configurations `out` holds runs of (a merged folder also plans those no shard ran) that no input folder ran.
  const lost = (old?.selected ?? []).filter((id) => !owner.has(id) && readRuns(out, id, repeatsIn(old!, id)).length > 0);
  if (lost.length)
    throw new UserError(
      `--results ${out}: holds results of ${lost.length} configuration(s) no folder given ran (e.g. ${lost[0]}, from ${old!.matrix.file}) and would drop them — pass every shard folder again, merge into a new folder, or pass --fresh to drop them`,
    );
  discardStaging(out);
  const target = writeTarget(out);
  for (const s of shards) for (const id of s.plan.selected) copyJournal(s.dir, target, id, repeatsIn(s.plan, id));
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
  writePlan(target, plan);
  rebuildResults(target, plan, provenance);
  if (target !== out) swapIn(out, plan);
  return { configurations: configurations.length, missing, plan };
}
