/**
 * Atomic file writes and TSV serialisation for results (csv-stringify, tab-delimited).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { stringify } from "csv-stringify/sync";

/** Write `data` to `path` atomically: a temp file in the same folder, then rename. Creates folders. */
export function writeAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** One TSV cell: tabs and line breaks in text become spaces so a row stays one line. */
function cell(v: string | number | boolean | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v).replace(/[\t\r\n]+/g, " ");
}

/** Serialise rows to TSV text with a header line and a trailing newline. */
export function toTsv(header: readonly string[], rows: (string | number | boolean | undefined)[][]): string {
  return stringify([header as string[], ...rows.map((r) => r.map(cell))], { delimiter: "\t", quote: "", record_delimiter: "unix" });
}

/** Serialise rows (no header) to TSV lines, each ending in a newline; "" for no rows. */
export function tsvLines(rows: (string | number | boolean | undefined)[][]): string {
  return rows.length ? stringify(rows.map((r) => r.map(cell)), { delimiter: "\t", quote: "", record_delimiter: "unix" }) : "";
}
