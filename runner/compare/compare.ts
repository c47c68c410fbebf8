/**
 * `wirecost compare BASE HEAD` (README, "What changed?"): two results folders of one report kind,
 * configuration by configuration. Wire folders: the change of every count column's median, and
 * its causes from the first ok repeat's capture logs (causes.ts). Timing and per-call folders:
 * per configuration and metric, the ratio of medians and a rank test over the trials (and kept
 * samples) (stats.ts); a change that is not significant is `~`. Configurations present in one
 * folder only are listed; a different matrix, tool version or machine is noted.
 */
import { UserError } from "../../format/errors.js";
import { COUNT_COLUMNS } from "../count/count-row.js";
import { glob } from "../matrix/expand.js";
import { byteChangeCauses, type ByteChange } from "./causes.js";
import { readResultSet, type ResultSet, type SetContext } from "./sets.js";
import type { ResultKind } from "../../format/kinds.js";
import { rankTest, type RankTest } from "./stats.js";

/** One count column's change in one configuration (medians over ok repeats). */
export interface ColumnChange {
  column: string;
  base: number;
  head: number;
  /** head − base, in the column's unit. */
  delta: number;
}

/** The byte changes of one configuration of a wire folder. */
export interface ConfigBytes {
  config: string;
  /** The columns whose median changed (all columns of COUNT_COLUMNS present in both). */
  changes: ColumnChange[];
  /** Causes found in the first ok repeat of each side (absent when no log is kept on a side). */
  causes?: ByteChange;
  /** Why no causes were found, when so. */
  note?: string;
}

/** One metric of one configuration of a timing or per-call folder. */
export interface MetricChange extends RankTest {
  config: string;
  metric: string;
}

/** Everything `wirecost compare` found. */
export interface Comparison {
  kind: ResultKind;
  base: { dir: string; context: SetContext };
  head: { dir: string; context: SetContext };
  /** Differences of how the two were made (matrix, tool version, machine), one line each. */
  notes: string[];
  /** Configurations compared (in both, selected by --only). */
  compared: string[];
  /** Configurations only the base or only the head has (selected by --only). */
  onlyBase: string[];
  onlyHead: string[];
  /**
   * Configurations in both folders whose every run (trial) failed in the base, or in the head:
   * nothing to compare, so listed, and a `--fail-on` rule trips on one that ran ok on the other
   * side (rules.ts).
   */
  failedBase: string[];
  failedHead: string[];
  /** Wire: the configurations with a change, in id order. */
  bytes: ConfigBytes[];
  /**
   * Wire: count columns with a median on one side only, for configurations ok on both (`side`: the
   * side that counted it), in id order. A column counted in the base and not in the head cannot be
   * compared: a `--fail-on` rule on it trips.
   */
  uncounted: { config: string; column: string; side: "base" | "head" }[];
  /** Timing and per-call: every metric compared, in config then metric order. */
  metrics: MetricChange[];
}

/** Options of {@link compareResults}. */
export interface CompareOptions {
  /** Configuration id globs (`*` any text); none: all. */
  only?: readonly string[];
}

/**
 * Compare two results folders.
 * @throws UserError when a folder is not a results folder, the kinds differ, a file is
 *   malformed, or --only matches no configuration of either
 */
export function compareResults(baseDir: string, headDir: string, opts: CompareOptions = {}): Comparison {
  const base = readResultSet(baseDir);
  const head = readResultSet(headDir);
  if (base.kind !== head.kind)
    throw new UserError(`${headDir}: a ${head.kind} results folder, but ${baseDir} is a ${base.kind} one; fix: compare two folders of the same report kind`);
  const res = (opts.only ?? []).map(glob);
  const pick = (id: string) => res.length === 0 || res.some((r) => r.test(id));
  const idsA = [...base.configs.keys()].filter(pick).sort();
  const idsB = [...head.configs.keys()].filter(pick).sort();
  if (res.length > 0 && idsA.length + idsB.length === 0)
    throw new UserError(
      `--only ${(opts.only ?? []).join(" ")}: matches no configuration of ${baseDir} or ${headDir}; fix: give a glob over configuration ids (see summary.tsv)`,
    );
  const inB = new Set(idsB);
  const inA = new Set(idsA);
  const compared = idsA.filter((id) => inB.has(id));
  const out: Comparison = {
    kind: base.kind,
    base: { dir: baseDir, context: base.context },
    head: { dir: headDir, context: head.context },
    notes: contextNotes(base.context, head.context),
    compared,
    onlyBase: idsA.filter((id) => !inB.has(id)),
    onlyHead: idsB.filter((id) => !inA.has(id)),
    failedBase: [],
    failedHead: [],
    bytes: [],
    uncounted: [],
    metrics: [],
  };
  out.failedBase = compared.filter((id) => !ranOk(base, id));
  out.failedHead = compared.filter((id) => !ranOk(head, id));
  if (base.kind === "wire" && head.kind === "wire") {
    out.bytes = compareWire(base, head, compared);
    out.uncounted = uncountedColumns(base, head, compared);
    out.notes.push(...uncountedNotes(out.uncounted));
  } else if (base.kind !== "wire" && head.kind !== "wire")
    for (const id of compared) {
      const ma = base.configs.get(id)!;
      const mb = head.configs.get(id)!;
      for (const metric of [...ma.keys()].filter((m) => mb.has(m)).sort())
        out.metrics.push({ config: id, metric, ...rankTest(ma.get(metric)!, mb.get(metric)!) });
    }
  return out;
}

/** Whether configuration `id` of `set` has an ok run (wire) or an ok trial's metric (timing, per-call). */
function ranOk(set: ResultSet, id: string): boolean {
  return set.kind === "wire" ? set.configs.get(id)!.ok : set.configs.get(id)!.size > 0;
}

function contextNotes(a: SetContext, b: SetContext): string[] {
  const notes: string[] = [];
  if (a.matrix !== b.matrix || a.matrixSha256 !== b.matrixSha256)
    notes.push(
      `different matrix: base ${a.matrix || "?"} (sha256 ${a.matrixSha256.slice(0, 12) || "?"}), head ${b.matrix || "?"} (sha256 ${b.matrixSha256.slice(0, 12) || "?"})`,
    );
  if (a.tool !== b.tool) notes.push(`different wirecost version: base ${a.tool || "?"}, head ${b.tool || "?"}`);
  if (a.machine !== b.machine) notes.push(`different machine: base ${a.machine || "?"}, head ${b.machine || "?"}`);
  return notes;
}

/** The count columns with a median in one folder only, for the configurations ok in both. */
function uncountedColumns(
  base: Extract<ResultSet, { kind: "wire" }>,
  head: Extract<ResultSet, { kind: "wire" }>,
  ids: readonly string[],
): Comparison["uncounted"] {
  const out: Comparison["uncounted"] = [];
  for (const id of ids) {
    const a = base.configs.get(id)!;
    const b = head.configs.get(id)!;
    if (!a.ok || !b.ok) continue;
    for (const column of COUNT_COLUMNS) {
      const inA = a.medians[column] !== undefined;
      const inB = b.medians[column] !== undefined;
      if (inA !== inB) out.push({ config: id, column, side: inA ? "base" : "head" });
    }
  }
  return out;
}

/** One note per column and side: `total_bytes counted in the base only, for 3 configurations (e.g. …)`. */
function uncountedNotes(uncounted: Comparison["uncounted"]): string[] {
  const groups = new Map<string, string[]>();
  for (const u of uncounted) groups.set(`${u.column}\t${u.side}`, [...(groups.get(`${u.column}\t${u.side}`) ?? []), u.config]);
  return [...groups].map(([key, ids]) => {
    const [column, side] = key.split("\t") as [string, string];
    return `${column} counted in the ${side} only, for ${ids.length} configuration${ids.length === 1 ? "" : "s"} (e.g. ${ids[0]}): not compared`;
  });
}

function compareWire(base: Extract<ResultSet, { kind: "wire" }>, head: Extract<ResultSet, { kind: "wire" }>, ids: readonly string[]): ConfigBytes[] {
  const out: ConfigBytes[] = [];
  for (const id of ids) {
    const a = base.configs.get(id)!;
    const b = head.configs.get(id)!;
    const changes: ColumnChange[] = [];
    for (const column of COUNT_COLUMNS) {
      const va = a.medians[column];
      const vb = b.medians[column];
      if (va === undefined || vb === undefined || va === vb) continue;
      changes.push({ column, base: va, head: vb, delta: vb - va });
    }
    if (changes.length === 0) continue;
    const entry: ConfigBytes = { config: id, changes };
    if (a.log === undefined || b.log === undefined) entry.note = `no capture log kept in ${a.log === undefined ? base.dir : head.dir} for ${id}`;
    else if (a.transport !== b.transport) entry.note = `transport changed (${a.transport} → ${b.transport})`;
    else entry.causes = byteChangeCauses({ log: a.log, transport: a.transport }, { log: b.log, transport: b.transport });
    out.push(entry);
  }
  return out;
}
