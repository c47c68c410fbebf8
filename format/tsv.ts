/**
 * The results folder's TSV files, read and written here only: tab-separated, first line the
 * header, no quoting (cells hold no tab or line break: the writer folds them to spaces), LF line
 * ends (the reader drops a trailing CR). Writing goes through csv-stringify.
 */
import { stringify } from "csv-stringify/sync";
import { UserError, readResultsFile } from "./errors.js";

/** A cell value as the writer takes it: booleans become `yes`/`no`, undefined an empty cell. */
export type TsvCell = string | number | boolean | undefined;

/** One TSV cell: tabs and line breaks in text become spaces so a row stays one line. */
function cell(v: TsvCell): string {
  if (v === undefined) return "";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v).replace(/[\t\r\n]+/g, " ");
}

/** Serialise rows to TSV text with a header line and a trailing newline. */
export function toTsv(header: readonly string[], rows: TsvCell[][]): string {
  return stringify([header as string[], ...rows.map((r) => r.map(cell))], { delimiter: "\t", quote: "", record_delimiter: "unix" });
}

/** Serialise rows (no header) to TSV lines, each ending in a newline; "" for no rows. */
export function tsvLines(rows: TsvCell[][]): string {
  return rows.length
    ? stringify(
        rows.map((r) => r.map(cell)),
        { delimiter: "\t", quote: "", record_delimiter: "unix" },
      )
    : "";
}

/** One data row: its 1-based line number in the file and its fields, in header order. */
export interface TsvRow {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  /** Fields in header order; always exactly as many as header columns. */
  fields: readonly string[];
}

/** A parsed TSV file. */
export interface TsvTable {
  /** Path of the file as read (used in error messages). */
  file: string;
  /** Column names from line 1. */
  header: readonly string[];
  /** Data rows in file order. */
  rows: readonly TsvRow[];
}

/**
 * Read and split a TSV file, checking every row has as many fields as the header.
 * @param file path of the file
 * @param missingFix the fix printed when the file does not exist
 * @throws UserError naming the file when it is missing, empty or has a repeated column name,
 *   and naming `file:line` when a row has the wrong number of fields
 */
export function readTsv(file: string, missingFix: string): TsvTable {
  const text = readResultsFile(file, missingFix);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const headerLine = lines[0];
  if (headerLine === undefined || headerLine === "") {
    throw new UserError({ file, line: 1, problem: "no header line", fix: missingFix });
  }
  const header = headerLine.split("\t");
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) {
      throw new UserError({
        file,
        line: 1,
        key: name,
        problem: `column \`${name}\` appears twice in the header`,
        fix: "regenerate the file with `npx wirecost run`, or remove the repeated column",
      });
    }
    seen.add(name);
  }
  const rows: TsvRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const fields = (lines[i] ?? "").split("\t");
    if (fields.length !== header.length) {
      throw new UserError({
        file,
        line: i + 1,
        problem: `expected ${header.length} tab-separated fields (as in the header), found ${fields.length}`,
        fix: "make the row match the header (one tab between fields, no blank lines), or regenerate the file with `npx wirecost run`",
      });
    }
    rows.push({ line: i + 1, fields });
  }
  return { file, header, rows };
}

/**
 * Find the index of each named column.
 * @returns a function giving a column's index by name
 * @throws UserError naming `file:1` and the first missing column
 */
export function columnIndex(table: TsvTable, names: readonly string[]): (name: string) => number {
  const index = new Map(table.header.map((name, i) => [name, i] as const));
  for (const name of names) {
    if (!index.has(name)) {
      throw new UserError({
        file: table.file,
        line: 1,
        key: name,
        problem: `missing column \`${name}\` in the header`,
        fix: `regenerate the file with \`npx wirecost run\` (expected columns include ${names.join(", ")})`,
      });
    }
  }
  return (name) => {
    const i = index.get(name);
    if (i === undefined) throw new Error(`column ${name} was not checked`);
    return i;
  };
}

/**
 * One field of a row by column index (the reader guarantees every index below the header's
 * length exists).
 */
export function field(row: TsvRow, index: number): string {
  const value = row.fields[index];
  if (value === undefined) throw new Error(`row ${row.line} has no field ${index}`);
  return value;
}

/**
 * Rows of a TSV file as header-keyed records (for callers that read a few columns by name).
 * @param missingFix the fix printed when the file does not exist
 * @throws UserError as {@link readTsv}
 */
export function readTsvRecords(file: string, missingFix: string): Record<string, string>[] {
  const table = readTsv(file, missingFix);
  return table.rows.map((row) => Object.fromEntries(table.header.map((name, i) => [name, field(row, i)])));
}
