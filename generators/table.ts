/**
 * A table model built once from rows and column definitions; the markdown template only adds
 * the pipe syntax (hyperfine's exporter split). Cells are escaped here, headers are trusted.
 */
import { mdCell } from "../format/markdown.js";

/** One column: its header, its alignment and how a row yields the cell's plain text. */
export interface Column<Row> {
  /** Header as markdown source; a trusted constant, or text already passed through `mdCell`. */
  header: string;
  /** `right` for numbers, `left` for text. */
  align: "left" | "right";
  /** The cell's plain text (escaped by {@link tableView}); numbers already formatted. */
  cell(row: Row): string;
}

/** A table ready for `templates/sections/table.md.njk`: every string is markdown source. */
export interface TableView {
  /** Header cells. */
  headers: string[];
  /** Delimiter cells (`---` or `---:`), one per column. */
  delimiters: string[];
  /** Body rows, each with one escaped cell per column. */
  rows: string[][];
}

/** Build the view of `rows` under `columns`, escaping every cell with `mdCell`. */
export function tableView<Row>(columns: ReadonlyArray<Column<Row>>, rows: readonly Row[]): TableView {
  return {
    headers: columns.map((c) => c.header),
    delimiters: columns.map((c) => (c.align === "right" ? "---:" : "---")),
    rows: rows.map((row) => columns.map((c) => mdCell(c.cell(row)))),
  };
}
