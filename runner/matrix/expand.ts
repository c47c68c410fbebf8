/**
 * Expand a matrix into configurations: the cartesian product of the axes in declared order,
 * minus cells a target cannot serve (excluded, with the reason). Ids join each axis' id part
 * with "-", so adding a value to an axis never changes an existing id.
 */
import { UserError } from "../errors.js";
import type { Configuration, ExcludedCell, Matrix } from "./types.js";

/** Result of expansion: configurations to run, and cells left out with their reasons. */
export interface Expansion {
  configurations: Configuration[];
  excluded: ExcludedCell[];
}

/** Id of the cell with these axis values. */
export function configId(m: Matrix, values: Record<string, string>): string {
  return m.axes
    .filter((a) => a.id !== "")
    .map((a) => a.id.replaceAll("{}", values[a.name]!))
    .join("-");
}

/** Why a target cannot serve a cell, or undefined when it can. */
function exclusion(m: Matrix, v: Record<string, string>): string | undefined {
  const t = m.targets[v.target!]!;
  const tr = v.transport;
  if (tr !== undefined && (tr === "stdio" || tr === "http") && !t.commands[tr]) return `target ${t.name} declares no ${tr} command`;
  if (v.revision !== undefined && t.revisions && !t.revisions.includes(v.revision)) return `target ${t.name} does not speak revision ${v.revision} (revisions: ${t.revisions.join(", ")})`;
  return undefined;
}

/**
 * Expand `m`. Order: the first axis varies slowest.
 * @throws UserError when two cells get the same id (fix the id templates) or nothing is left to run
 */
export function expand(m: Matrix): Expansion {
  const configurations: Configuration[] = [];
  const excluded: ExcludedCell[] = [];
  const ids = new Set<string>();
  const n = m.axes.length;
  const idx = new Array<number>(n).fill(0);
  for (;;) {
    const values: Record<string, string> = {};
    m.axes.forEach((a, i) => (values[a.name] = a.values[idx[i]!]!));
    const id = configId(m, values);
    if (ids.has(id)) throw new UserError(`${m.file}: two configurations get the id "${id}" — give the axes id templates that tell their values apart`);
    ids.add(id);
    const reason = exclusion(m, values);
    if (reason) excluded.push({ id, values, reason });
    else configurations.push({ id, values, repeats: m.repeats });
    let i = n - 1;
    while (i >= 0 && ++idx[i]! === m.axes[i]!.values.length) idx[i--] = 0;
    if (i < 0) break;
  }
  if (configurations.length === 0) throw new UserError(`${m.file}: the matrix expands to no configuration${excluded.length ? ` (all ${excluded.length} cells excluded, e.g. ${excluded[0]!.reason})` : ""} — add axis values a target can serve`);
  return { configurations, excluded };
}
