/**
 * The tool catalog files of a `wirecost measure` results folder: what the server's tool catalog
 * costs a model's context.
 *
 * `tools.tsv`: one row per tool definition of the tools/list answer, per configuration (its first
 * ok repeat's capture log). Columns: `config transport revision tool definition_bytes`, then
 * `tokens_<encoding>` per encoding of format/tokens.ts (tokens of the definition's exact text; the
 * tokenizers and their package versions are named in provenance.json, `tokenizers`), then `note`.
 * A configuration whose answer could not be read (none in the log, its text split by framing) has
 * one row with `tool` and the counts empty and the reason in `note`; a token cell is empty where
 * the text was not tokenized (runner/count/tokens.ts says when).
 *
 * `tools-changes.tsv`: the changes along the `revision` axis, each configuration against the same
 * one at the previous revision it speaks, in the columns of `changes.tsv` (format/changes.ts, its
 * owner: {@link changesTsv}, {@link readChanges}), causes named by `wirecost compare`'s cause finder.
 *
 * `findings.tsv`: what the run found about the server beside the counts, one sentence per row.
 * Columns: `config repeat finding`: a tool call answered `isError: true` (a counted run: MCP,
 * "Tools" → "Error Handling"), with the answer's first text, or with a JSON-RPC error (a counted
 * run too), with its code and message; repeats that differ (the server's state), naming the repeat
 * and the message; a configuration with no ok repeat whose catalog rows come from a failed run's
 * log, naming the run and why it failed. The sentences hold text from the wire: escape them.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "./errors.js";
import { ENCODINGS, tokenColumn, type EncodingName } from "./tokens.js";
import { columnIndex, field, readTsv, toTsv, type TsvCell } from "./tsv.js";
import { readChanges, type ChangeRow } from "./changes.js";

export { changesTsv } from "./changes.js";

/** The catalog file, in the results folder. */
export const TOOLS_FILE = "tools.tsv";

/** The changes along the revision axis (columns of changes.tsv), in the results folder. */
export const TOOL_CHANGES_FILE = "tools-changes.tsv";

/** The columns of tools.tsv, in order. */
export const TOOL_COLUMNS = ["config", "transport", "revision", "tool", "definition_bytes", ...ENCODINGS.map(tokenColumn), "note"] as const;

/** One row of tools.tsv. */
export interface ToolRow {
  config: string;
  /** `stdio` or `http`. */
  transport: string;
  /** The revision asked for (and checked on the wire). */
  revision: string;
  /** The tool's name as the server sent it ("" on a row that says why there is no catalog). */
  tool: string;
  /** Bytes of the definition (the JSON object as sent); undefined on a `note` row. */
  definitionBytes: number | undefined;
  /** Tokens of the same text per encoding; undefined where not counted. */
  tokens: Readonly<Record<EncodingName, number>> | undefined;
  /** Why the configuration has no catalog; "" on a tool's row. */
  note: string;
}

/** tools.tsv text for `rows`, in the order given. */
export function toolsTsv(rows: readonly ToolRow[]): string {
  return toTsv(
    TOOL_COLUMNS,
    rows.map((r): TsvCell[] => [r.config, r.transport, r.revision, r.tool, r.definitionBytes, ...ENCODINGS.map((e) => r.tokens?.[e]), r.note]),
  );
}

const FIX = "measure the server again with `npx wirecost measure`";

/** The findings file, in the results folder. */
export const FINDINGS_FILE = "findings.tsv";

/** The columns of findings.tsv, in order. */
export const FINDING_COLUMNS = ["config", "repeat", "finding"] as const;

/** One row of findings.tsv. */
export interface FindingRow {
  config: string;
  /** The repeat it was found in, from 1; undefined where it is about the repeats together. */
  repeat: number | undefined;
  /** One sentence (text from the wire in it: escape it). */
  finding: string;
}

/** findings.tsv text for `rows`, in the order given. */
export function findingsTsv(rows: readonly FindingRow[]): string {
  return toTsv(
    FINDING_COLUMNS,
    rows.map((r): TsvCell[] => [r.config, r.repeat, r.finding]),
  );
}

/**
 * The findings of a results folder.
 * @returns the rows, empty when the folder has no findings.tsv
 * @throws UserError (file, line, column) when a column is missing or a repeat is not a whole number
 */
export function readFindings(dir: string): FindingRow[] {
  const file = join(dir, FINDINGS_FILE);
  if (!existsSync(file)) return [];
  const table = readTsv(file, FIX);
  const col = columnIndex(table, FINDING_COLUMNS);
  return table.rows.map((row): FindingRow => {
    const repeat = field(row, col("repeat"));
    if (repeat !== "" && !/^[0-9]+$/.test(repeat))
      throw new UserError({ file, line: row.line, key: "repeat", problem: `expected a whole number, found \`${repeat}\``, fix: FIX });
    return { config: field(row, col("config")), repeat: repeat === "" ? undefined : Number(repeat), finding: field(row, col("finding")) };
  });
}

/**
 * The tool catalog of a results folder.
 * @returns undefined when the folder has no tools.tsv (results not written by `wirecost measure`)
 * @throws UserError (file, line, column) when a column is missing or a count is not a whole number
 */
export function readToolCatalog(dir: string): { tools: ToolRow[]; changes: ChangeRow[] } | undefined {
  const file = join(dir, TOOLS_FILE);
  if (!existsSync(file)) return undefined;
  const table = readTsv(file, FIX);
  const col = columnIndex(table, TOOL_COLUMNS);
  const tools = table.rows.map((row): ToolRow => {
    const int = (name: string): number | undefined => {
      const text = field(row, col(name));
      if (text === "") return undefined;
      if (!/^[0-9]+$/.test(text)) throw new UserError({ file, line: row.line, key: name, problem: `expected a whole number, found \`${text}\``, fix: FIX });
      return Number(text);
    };
    const counts = ENCODINGS.map((e) => int(tokenColumn(e)));
    return {
      config: field(row, col("config")),
      transport: field(row, col("transport")),
      revision: field(row, col("revision")),
      tool: field(row, col("tool")),
      definitionBytes: int("definition_bytes"),
      tokens: counts.every((n) => n !== undefined) ? (Object.fromEntries(ENCODINGS.map((e, i) => [e, counts[i]!])) as Record<EncodingName, number>) : undefined,
      note: field(row, col("note")),
    };
  });
  return { tools, changes: readChanges(join(dir, TOOL_CHANGES_FILE)) ?? [] };
}
