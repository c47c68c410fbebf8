/**
 * Which target entry serves a configuration. A target that lists package versions (`versions:`,
 * README "Package versions as an axis") is parsed into one entry per version, keyed
 * `<target>@<version>` in `Matrix.targets` (its own build folder, commands and checked version);
 * the cell's `version` axis value picks it. Any other target is its own entry.
 */
import type { Matrix, Target } from "./types.js";

/** The built-in axis whose values are package versions of versioned targets. */
export const VERSION_AXIS = "version";

/**
 * The key in `m.targets` of the entry that serves a cell: `<target>@<version>` when the target
 * lists versions, else the target's name.
 * @param values the cell's axis values (a `target` value is required)
 */
export function targetKey(m: Matrix, values: Record<string, string>): string {
  const name = values.target!;
  const version = values[VERSION_AXIS];
  return m.targets[name]?.versions && version !== undefined ? versionedName(name, version) : name;
}

/** The entry that serves a cell (see {@link targetKey}); undefined when the matrix has none. */
export function targetOf(m: Matrix, values: Record<string, string>): Target | undefined {
  return m.targets[targetKey(m, values)];
}

/** The name of one version's entry of a versioned target: `<target>@<version>`. */
export function versionedName(target: string, version: string): string {
  return `${target}@${version}`;
}
