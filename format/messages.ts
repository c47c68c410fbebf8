/**
 * One run's per-message breakdown, `logs/<config>/<repeat>.messages.tsv` (format/layout.ts): a row
 * per JSON-RPC message and per HTTP message's own bytes, in log order, so a page shows where the
 * bytes went and what each HTTP head carried without reading a capture log. Byte columns are bytes.
 *
 * Columns, in order: `seq conn dir kind method id start_line head_bytes body_bytes framing_bytes
 * newline_bytes meta_bytes sse incomplete header_names content_type anomalies unattributed_bytes`. `header_names` and
 * `content_type` (since 0.1.1)
 * are filled on `http-only` rows only: the head's header field names as sent, in wire order,
 * joined by `,` (a field name is an RFC 9110 token, so it holds no comma), and the media type of
 * its Content-Type without parameters. `anomalies`: the codes of the anomalies the row is involved
 * in (format/anomalies.ts), joined by `,`; `unattributed_bytes`: the row's bytes that no layer
 * holds (kind `unattributed`). `json_fields` (a later column: files written before it read with it empty): on c2s JSON-RPC rows, the member paths
 * the message's JSON holds ({@link jsonFieldPaths}), as a JSON array of strings (so no path
 * separator can clash with a key); empty when the object's text could not be read whole (it was
 * split by chunk framing or SSE lines) and on every other row. `tokens_o200k_base`,
 * `tokens_cl100k_base` (later columns, format/tokens.ts): on JSON-RPC rows, the tokens of the
 * message's own text (the `body_bytes` of the row) under each encoding, the tokenizers named in
 * provenance.json (`tokenizers`); empty where the text could not be read whole (split by chunk
 * framing or SSE lines) or holds a run of one character class longer than the runner counts
 * (runner/count/tokens.ts `LONGEST_RUN_COUNTED`), and on every other row. A file written before a
 * column existed reads through format/migrations.ts (changes 2, 3, 4 and 6).
 */
import { UserError } from "./errors.js";
import { columnIndex, field, readTsv, toTsv } from "./tsv.js";
import { parseCount, parseDirection, parseOneOf, parseYesNo } from "./values.js";
import { unknownAnomalyCode } from "./anomalies.js";
import { ENCODINGS, tokenColumn, type EncodingName } from "./tokens.js";
import { existsSync } from "node:fs";
import { migrateTable } from "./migrations.js";

/**
 * What a {@link MessageRow} is. A JSON-RPC message (`request`, `notification`, `result`, `error`);
 * `http-only`: one HTTP message's own bytes (head, chunk framing, and body bytes outside the
 * JSON-RPC messages it carries: SSE field names and blank lines, batch brackets, whitespace, or a
 * whole body without JSON-RPC); `line-only`: stdio bytes outside JSON-RPC messages (a batch's
 * brackets, blank or whitespace lines, a CR before the newline, and then the line's newline);
 * `unattributed`: bytes attributed to no layer (`unattributedBytes`: a stdio line without
 * JSON-RPC, a partial stdio line, bytes that do not parse as HTTP/1.1), named by an anomaly.
 */
export const MESSAGE_KINDS = ["request", "notification", "result", "error", "http-only", "line-only", "unattributed"] as const;

/** A row's kind: one of {@link MESSAGE_KINDS}. */
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** One JSON-RPC message or HTTP-only part of a run, as the file holds it. */
export interface MessageRow {
  /** Order in the capture log (1-based). */
  seq: number;
  /** Connection number (0 on stdio). */
  conn: number;
  /** `c2s` or `s2c`. */
  dir: string;
  /** One of {@link MESSAGE_KINDS}. */
  kind: MessageKind;
  /** JSON-RPC method (results carry their request's method), empty when none. */
  method: string;
  /** JSON-RPC id as written, empty when none. */
  id: string;
  /** HTTP request or status line, empty when none. */
  startLine: string;
  /** HTTP head bytes (start line and headers). */
  headBytes: number;
  /** Body bytes of this part. */
  bodyBytes: number;
  /** Chunk framing bytes. */
  framingBytes: number;
  /** Newline bytes (stdio line ends). */
  newlineBytes: number;
  /** `_meta` value span bytes. */
  metaBytes: number;
  /** Whether the message came in an SSE event. */
  sse: boolean;
  /** Whether the capture ended inside this part. */
  incomplete: boolean;
  /** `http-only` rows: the head's header names as sent, in wire order; empty otherwise. */
  headerNames: readonly string[];
  /** `http-only` rows: Content-Type's media type without parameters (`text/event-stream`), "" when none. */
  contentType: string;
  /** Codes of the anomalies this row is involved in (README, "Anomalies"); empty when none. */
  anomalies: readonly string[];
  /** Bytes of this row attributed to no layer (`unattributed` rows: a stray stdio line, bytes that are not HTTP/1.1); 0 otherwise. */
  unattributedBytes: number;
  /** c2s JSON-RPC rows: the member paths of the message ({@link jsonFieldPaths}); empty otherwise. */
  jsonFields: readonly string[];
  /**
   * JSON-RPC rows: tokens of the message's text per encoding; undefined where not counted (not a
   * JSON-RPC row, its text split by framing, or a file written before tokens were counted).
   */
  tokens?: Readonly<Record<EncodingName, number>>;
}

/** A key as a path step: `.name` for an identifier, else `["key"]` (JSON string quoting). */
function step(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * The member paths of a JSON value, in document order, each once: every leaf (a string, number,
 * boolean or null) and every empty object or array, written from the root as `.key` steps (or
 * `["key"]` for a key that is not an identifier) and `[]` for any array element, without the
 * leading dot: `{"params":{"capabilities":{"roots":{"listChanged":true}},"a":[1,2]}}` gives
 * `params.capabilities.roots.listChanged`, `params.a[]`.
 */
export function jsonFieldPaths(value: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) out.add(path);
      for (const x of v) walk(x, `${path}[]`);
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length === 0) out.add(path);
      for (const k of keys) walk((v as Record<string, unknown>)[k], path + step(k));
    } else out.add(path);
  };
  walk(value, "");
  return [...out].map((p) => (p.startsWith(".") ? p.slice(1) : p));
}

/** Columns of a messages.tsv file, in order. */
export const MESSAGE_COLUMNS = [
  "seq",
  "conn",
  "dir",
  "kind",
  "method",
  "id",
  "start_line",
  "head_bytes",
  "body_bytes",
  "framing_bytes",
  "newline_bytes",
  "meta_bytes",
  "sse",
  "incomplete",
  "header_names",
  "content_type",
  "anomalies",
  "unattributed_bytes",
  "json_fields",
  ...ENCODINGS.map(tokenColumn),
] as const;
const REGEN = "regenerate the breakdowns with `npx wirecost recount --results DIR`, or re-run with `npx wirecost run`";

/**
 * A `json_fields` cell: empty, or a JSON array of strings (the member paths).
 * @throws UserError naming `file:line (json_fields)` for anything else
 */
function jsonFieldsCell(cell: string, file: string, line: number): string[] {
  if (cell === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || !value.every((p) => typeof p === "string"))
    throw new UserError({
      file,
      line,
      key: "json_fields",
      problem: `expected a JSON array of member paths (strings), found \`${cell.slice(0, 60)}\``,
      fix: REGEN,
    });
  return value as string[];
}

/** The messages.tsv text of a run: header and one row per message, in log order. */
export function messagesTsv(rows: readonly MessageRow[]): string {
  return toTsv(
    MESSAGE_COLUMNS,
    rows.map((m) => [
      m.seq,
      m.conn,
      m.dir,
      m.kind,
      m.method,
      m.id,
      m.startLine,
      m.headBytes,
      m.bodyBytes,
      m.framingBytes,
      m.newlineBytes,
      m.metaBytes,
      m.sse,
      m.incomplete,
      m.headerNames.join(","),
      m.contentType,
      m.anomalies.join(","),
      m.unattributedBytes,
      m.jsonFields.length ? JSON.stringify(m.jsonFields) : "",
      ...ENCODINGS.map((e) => m.tokens?.[e] ?? ""),
    ]),
  );
}

/**
 * Read one messages.tsv file, an older one through format/migrations.ts.
 * @returns undefined when the file does not exist
 * @throws UserError (file:line) when a column is missing (or the columns are no shape a wirecost
 *   wrote, format/migrations.ts), a count is not a non-negative integer, a `dir`, `kind`, `sse` or
 *   `incomplete` cell holds no value a wirecost writes, or an anomaly code is unknown
 */
export function readMessagesFile(file: string): MessageRow[] | undefined {
  if (!existsSync(file)) return undefined;
  const { table } = migrateTable("messages", readTsv(file, REGEN));
  const col = columnIndex(table, MESSAGE_COLUMNS);
  return table.rows.map((row) => {
    const get = (name: string): string => field(row, col(name));
    const n = (name: string): number => parseCount(get(name), file, row.line, name, REGEN);
    const anomalies = get("anomalies") === "" ? [] : get("anomalies").split(",");
    for (const code of anomalies) {
      const problem = unknownAnomalyCode(code);
      if (problem) throw new UserError({ file, line: row.line, key: "anomalies", problem, fix: REGEN });
    }
    const names = get("header_names");
    const tokenCells = ENCODINGS.map((e) => get(tokenColumn(e)));
    if (tokenCells.some((t) => t !== "" && !/^[0-9]+$/.test(t)))
      throw new UserError({ file, line: row.line, key: "tokens", problem: `expected token counts, found \`${tokenCells.join(" ")}\``, fix: REGEN });
    const tokens = tokenCells.every((t) => t !== "")
      ? (Object.fromEntries(ENCODINGS.map((e, i) => [e, Number(tokenCells[i])])) as Record<EncodingName, number>)
      : undefined;
    return {
      seq: n("seq"),
      conn: n("conn"),
      dir: parseDirection(get("dir"), file, row.line, "dir", REGEN),
      kind: parseOneOf(get("kind"), MESSAGE_KINDS, file, row.line, "kind", REGEN),
      method: get("method"),
      id: get("id"),
      startLine: get("start_line"),
      headBytes: n("head_bytes"),
      bodyBytes: n("body_bytes"),
      framingBytes: n("framing_bytes"),
      newlineBytes: n("newline_bytes"),
      metaBytes: n("meta_bytes"),
      sse: parseYesNo(get("sse"), file, row.line, "sse", REGEN),
      incomplete: parseYesNo(get("incomplete"), file, row.line, "incomplete", REGEN),
      headerNames: names === "" ? [] : names.split(","),
      contentType: get("content_type"),
      anomalies,
      unattributedBytes: n("unattributed_bytes"),
      jsonFields: jsonFieldsCell(get("json_fields"), file, row.line),
      ...(tokens ? { tokens } : {}),
    };
  });
}
