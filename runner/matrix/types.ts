/** Types of a parsed matrix (see matrix.schema.json for the file format). */

/** One axis: its name, values in declared order, and id template (`{}` = the value). */
export interface Axis {
  name: string;
  values: string[];
  /** Id template, e.g. `s{}` → `s2048`; "" leaves the axis out of configuration ids. */
  id: string;
}

/** How to start a target for one transport; `{port}` and `{axis}` placeholders are substituted. */
export interface TargetCommand {
  argv: string[];
  env: Record<string, string>;
}

/** A server under test. */
export interface Target {
  name: string;
  label: string;
  /** npm package checked with semver and recorded in provenance. */
  package?: string;
  /** semver range the installed `package` must satisfy. */
  version?: string;
  /** Revisions it speaks; undefined = all. */
  revisions?: string[];
  commands: Partial<Record<"stdio" | "http", TargetCommand>>;
}

/** A validated matrix file. */
export interface Matrix {
  /** Absolute path of the file it came from. */
  file: string;
  /** sha256 hex of the file's bytes. */
  sha256: string;
  title: string;
  repeats: number;
  /** Wall-clock limit of one run, milliseconds. */
  timeoutMs: number;
  axes: Axis[];
  targets: Record<string, Target>;
}

/** One cell of the expanded matrix. */
export interface Configuration {
  /** Stable id: per-axis id parts joined by `-`, in axis order. */
  id: string;
  /** Axis name → value, every axis present. */
  values: Record<string, string>;
  repeats: number;
}

/** A cell that expansion left out, with the reason (e.g. "target mcp-ts-v1 does not speak revision 2026-07-28"). */
export interface ExcludedCell {
  id: string;
  values: Record<string, string>;
  reason: string;
}
