/**
 * The bytes results format's history: every change made to its files since the first folder, in
 * the order the changes landed, each with a number, and how a file written before it reads. Each
 * reader of a changed file (format/summary.ts, format/messages.ts, format/provenance.ts) passes
 * what it read through {@link migrateTable} or {@link migrateProvenance} first and then reads the
 * current shape only; nothing else in wirecost knows an older shape.
 *
 * The bytes schema kept version 1 through these changes (format/schema.ts `SCHEMA_VERSION`), each
 * one adding columns or keys, so what a file holds, not its version number, says which changes it
 * predates. A TSV file's changes are in order: one that holds a later change's columns but lacks an
 * earlier change's, or holds part of one change's columns, was not written by any wirecost and is
 * refused (provenance.json: part of one change's keys). A change that cannot be read by filling in (a column whose meaning changes) bumps the
 * version instead.
 */
import { UserError } from "./errors.js";
import type { TsvTable } from "./tsv.js";

/**
 * Who a bytes report is when its results do not say (folders written before `report` was
 * recorded, change 1): every such report was the MCP one.
 */
export const LEGACY_REPORT: Readonly<{ title: string; slug: string }> = { title: "MCP on the wire", slug: "mcp-on-the-wire" };

/** The bytes-folder files whose columns changed (format/layout.ts names them). */
export type ChangedTable = "summary" | "messages";

/** A column a change added to a TSV file, and the cell a row written before the change reads with. */
export interface AddedColumn {
  /** Column name as the writer writes it. */
  name: string;
  /** The cell an older row reads with (`""`: not recorded; `"0"` where the older counter's figure was 0 by construction). */
  olderCell: string;
}

/** A key a change added to provenance.json, and the value a file written before it reads with. */
export interface AddedKey {
  /** Top-level key of provenance.json. */
  key: string;
  /**
   * The value an older file reads with; undefined: the key stays absent, and the reader's view says
   * it was not recorded (format/provenance.ts says how each such key reads).
   */
  olderValue?: unknown;
}

/** One change to the bytes results format. */
export interface WireChange {
  /** 1-based, in the order the changes landed. */
  number: number;
  /** The commit that made it (the repository's history has the why). */
  commit: string;
  /** What the change added, in words. */
  adds: string;
  /** Columns added per TSV file, in the writer's order. */
  columns: Partial<Record<ChangedTable, readonly AddedColumn[]>>;
  /** Keys added to provenance.json. */
  keys: readonly AddedKey[];
}

/** The bytes format's changes, in landing order (numbers 1…n, none ever renumbered). */
export const WIRE_CHANGES: readonly WireChange[] = [
  {
    number: 1,
    commit: "79f9ebf1",
    adds: "provenance.json records the report's title and slug (`report`) and each client's protocol (`clients`)",
    columns: {},
    // Every report before it was the MCP one, and every client spoke MCP (format/provenance.ts reads an absent `clients` so).
    keys: [{ key: "report", olderValue: LEGACY_REPORT }, { key: "clients" }],
  },
  {
    number: 2,
    commit: "555b2385",
    adds: "messages.tsv records each HTTP head's header names and its Content-Type",
    columns: {
      messages: [
        { name: "header_names", olderCell: "" },
        { name: "content_type", olderCell: "" },
      ],
    },
    keys: [],
  },
  {
    number: 3,
    commit: "c914b506",
    adds: "anomalies are counted: summary.tsv and messages.tsv carry `anomalies`, messages.tsv `unattributed_bytes`",
    columns: {
      summary: [{ name: "anomalies", olderCell: "" }],
      // Before it the counter stopped on a wire shape it could not attribute, so an ok run's rows left no byte unattributed.
      messages: [
        { name: "anomalies", olderCell: "" },
        { name: "unattributed_bytes", olderCell: "0" },
      ],
    },
    keys: [],
  },
  {
    number: 4,
    commit: "d2f1b614",
    adds: "messages.tsv records the member paths of each client-to-server JSON-RPC message (`json_fields`)",
    columns: { messages: [{ name: "json_fields", olderCell: "" }] },
    keys: [],
  },
  {
    number: 5,
    commit: "f474c43e",
    adds: "provenance.json records the flows the configurations ran (`flows`)",
    columns: {},
    keys: [{ key: "flows" }],
  },
  {
    number: 6,
    commit: "6b530cef",
    adds: "messages.tsv counts each JSON-RPC message's tokens; provenance.json names the tokenizers",
    columns: {
      messages: [
        { name: "tokens_o200k_base", olderCell: "" },
        { name: "tokens_cl100k_base", olderCell: "" },
      ],
    },
    keys: [{ key: "tokenizers", olderValue: [] }],
  },
];

/** A table brought to the current shape, and the numbers of the changes its file predates. */
export interface MigratedTable {
  /** The table with every column the changes added (an older row's cells as {@link AddedColumn} says). */
  table: TsvTable;
  /** Numbers of the changes the file was written before; empty for a current file. */
  predates: ReadonlySet<number>;
}

const FIX = "regenerate the file with `npx wirecost recount --results DIR` (or `npx wirecost run`)";

/**
 * The changes' numbers a file predates, given which of each change's names it holds; refuses a
 * shape no wirecost wrote (part of one change; with `ordered`, a later change without an earlier one).
 */
function predatedChanges(
  file: string,
  what: string,
  changes: ReadonlyArray<{ number: number; names: readonly string[] }>,
  has: (name: string) => boolean,
  ordered: boolean,
): Set<number> {
  const predates = new Set<number>();
  let lastHeld: { number: number; name: string } | undefined;
  for (const change of changes) {
    const held = change.names.filter(has);
    if (held.length > 0 && held.length < change.names.length) {
      const lacking = change.names.filter((n) => !has(n));
      throw new UserError({
        file,
        key: lacking[0],
        problem: `has ${what} \`${held[0]}\` of change ${change.number} but not \`${lacking[0]}\`, which came with it`,
        fix: FIX,
      });
    }
    if (held.length > 0) lastHeld = { number: change.number, name: held[0]! };
    else predates.add(change.number);
  }
  const earliestLacking = Math.min(...predates);
  if (ordered && lastHeld !== undefined && earliestLacking < lastHeld.number) {
    const lacking = changes.find((c) => c.number === earliestLacking)!.names[0]!;
    throw new UserError({
      file,
      key: lacking,
      problem: `has ${what} \`${lastHeld.name}\` of change ${lastHeld.number} but lacks \`${lacking}\` of the earlier change ${earliestLacking}: no wirecost wrote that shape`,
      fix: FIX,
    });
  }
  return predates;
}

/**
 * Bring a TSV file of a bytes folder to the current shape: the columns of every change it predates
 * are appended, each older row reading with the change's {@link AddedColumn.olderCell}.
 * @param kind which file it is
 * @param table the file as read (format/tsv.ts readTsv)
 * @throws UserError naming the file and column when it holds part of one change's columns, or a
 *   later change's columns without an earlier one's
 */
export function migrateTable(kind: ChangedTable, table: TsvTable): MigratedTable {
  const changes = WIRE_CHANGES.flatMap((c) => {
    const cols = c.columns[kind];
    return cols ? [{ number: c.number, names: cols.map((col) => col.name), cols }] : [];
  });
  const header = new Set(table.header);
  const predates = predatedChanges(table.file, "column", changes, (n) => header.has(n), true);
  if (predates.size === 0) return { table, predates };
  const added = changes.filter((c) => predates.has(c.number)).flatMap((c) => c.cols);
  return {
    table: {
      file: table.file,
      header: [...table.header, ...added.map((c) => c.name)],
      rows: table.rows.map((r) => ({ line: r.line, fields: [...r.fields, ...added.map((c) => c.olderCell)] })),
    },
    predates,
  };
}

/**
 * Bring a parsed provenance.json to the current shape: each key of a change it predates is set to
 * its {@link AddedKey.olderValue} (when the change gives one). Its changes are read one by one, not
 * in order: `wirecost recount` records the tokenizers it counted with (change 6) in a file written
 * before change 1.
 * @param file path, for messages
 * @param record the parsed JSON object (not changed)
 * @returns a shallow copy with the added keys, and the changes the file predates
 * @throws UserError naming the file and key when it holds part of one change's keys
 */
export function migrateProvenance(file: string, record: Record<string, unknown>): { record: Record<string, unknown>; predates: ReadonlySet<number> } {
  const changes = WIRE_CHANGES.filter((c) => c.keys.length > 0).map((c) => ({ number: c.number, names: c.keys.map((k) => k.key), keys: c.keys }));
  const predates = predatedChanges(file, "key", changes, (k) => record[k] !== undefined, false);
  const out = { ...record };
  for (const change of changes)
    if (predates.has(change.number)) for (const k of change.keys) if (k.olderValue !== undefined) out[k.key] = structuredClone(k.olderValue);
  return { record: out, predates };
}

/** The change that added a column to a TSV file (for a reader that says what its file predates). */
export function changeAdding(kind: ChangedTable, column: string): number {
  const change = WIRE_CHANGES.find((c) => c.columns[kind]?.some((col) => col.name === column));
  if (change === undefined) throw new Error(`no change added \`${column}\` to ${kind}`);
  return change.number;
}
