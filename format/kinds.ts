/**
 * The kinds of results folder, declared once: each kind's one name, the word messages use for it,
 * and its marker file (format/layout.ts). Run modes (runner/modes), report kinds
 * (generators/reports), `compare`, `verify` and `render` key on {@link ResultKind}, and
 * {@link resultKindOf} is the one place a folder's kind is read from its files.
 */
import { existsSync } from "node:fs";
import { UserError } from "./errors.js";
import { RESULTS_FILES, resultsFile } from "./layout.js";

/** A kind of results folder: bytes on the wire, timing trials, or per-call overhead. */
export type ResultKind = "wire" | "timing" | "percall";

/** One kind's declaration. */
export interface ResultKindDeclaration {
  /** Its name (compare's JSON `kind`, the report kinds', the run modes'). */
  kind: ResultKind;
  /** The word messages use (`a bytes matrix`, `holds timing results`). */
  noun: string;
  /** The file whose presence marks a folder of this kind. */
  marker: keyof typeof RESULTS_FILES;
}

/** The kinds, in the order a folder is looked at. */
export const RESULT_KINDS: readonly ResultKindDeclaration[] = [
  { kind: "wire", noun: "bytes", marker: "summary" },
  { kind: "timing", noun: "timing", marker: "timingsSummary" },
  { kind: "percall", noun: "percall", marker: "percall" },
];

/** One kind's declaration by name. */
export function resultKind(kind: ResultKind): ResultKindDeclaration {
  return RESULT_KINDS.find((k) => k.kind === kind)!;
}

/**
 * The kind of results folder `dir` holds, by its marker file.
 * @returns undefined when it holds none
 * @throws UserError naming the folder and both files when it holds the markers of two kinds (no
 *   wirecost writes that: `run` writes one kind into a folder, `--fresh` replacing what it holds)
 */
export function resultKindOf(dir: string): ResultKind | undefined {
  const held = RESULT_KINDS.filter((k) => existsSync(resultsFile(dir, k.marker)));
  if (held.length > 1)
    throw new UserError({
      file: dir,
      problem: `holds the results of two kinds (${held.map((k) => `${RESULTS_FILES[k.marker]}: ${k.noun}`).join(", ")})`,
      fix: "keep one kind of results per folder: move one of them into a folder of its own",
    });
  return held[0]?.kind;
}

/** The marker files of every kind, for a message that names them (`summary.tsv, timings-summary.tsv or percall.tsv`). */
export function markerList(): string {
  const names = RESULT_KINDS.map((k) => RESULTS_FILES[k.marker]);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)!}`;
}
