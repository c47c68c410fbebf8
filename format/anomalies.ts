/**
 * Anomalies as results: what the counter found odd on the wire of one run, kept beside its
 * capture log as `logs/<config>/<repeat>.anomalies.tsv` (format/layout.ts), one row per anomaly:
 * `code conn dir offset bytes detail` — the anomaly's code (README, "Anomalies"), the connection
 * (0 on stdio) and direction, the stream byte offset where it starts, the bytes it covers, and a
 * one-line detail (e.g. the content type of a JSON-RPC body that was not declared JSON). A run
 * without anomalies has no such file. `runs.tsv` and `summary.tsv` carry the codes with their
 * counts in an `anomalies` column (see {@link anomalySummary}).
 */
import { existsSync } from "node:fs";
import { UserError } from "./errors.js";
import { columnIndex, field, readTsv, toTsv } from "./tsv.js";
import { parseCount, parseDirection } from "./values.js";

/** Each anomaly code with its meaning (runner/count/anomalies.ts says what the counter does with the bytes of each; pages may show the meanings). */
export const ANOMALY_CODES = {
  "empty-log": "the log holds no bytes",
  "log-truncated": "the log ends while a message is still arriving (no eof record), or holds no eof record at all: counted as it stands",
  "stdio-non-jsonrpc-line": "a stdio line that holds no JSON-RPC message: the line and its newline are unattributed",
  "stdio-crlf-line": "a stdio line ended by CRLF: the CR is a line byte outside the message",
  "stdio-partial-line": "bytes after the last newline of a stdio stream that ended: unattributed",
  "truncated-head": "an HTTP head cut by the end of the connection",
  "truncated-body": "an HTTP body or event stream cut by the end of the connection: counted as it stands",
  "http-malformed": "bytes that do not parse as HTTP/1.1: unattributed to the end of the stream",
  "length-mismatch": "a declared length that disagrees with the bytes",
  "protocol-switch": "101 Switching Protocols or a 2xx answer to CONNECT: the bytes after the head are unattributed",
  "compressed-body": "a content-coded JSON or event-stream body: its JSON-RPC messages are not looked for",
  "invalid-json": "a JSON body or SSE event data that is not JSON: body bytes, no JSON-RPC message",
  "jsonrpc-in-non-json-body": "JSON-RPC in a body whose content type is not JSON: counted",
  "sse-event-unterminated": "an SSE event never ended by a blank line: not dispatched, its message not counted",
  "unsolicited-response": "a response with no request logged before it: counted, not a round trip",
  "extra-response": "a second response to a request: counted, not a round trip",
  "null-id-request": 'a JSON-RPC request with "id": null',
  "id-type-mismatch": 'a JSON-RPC response id of another JSON type than its request\'s ("1" and 1): not paired',
} as const;

/** An anomaly code (kebab-case; see {@link ANOMALY_CODES}). */
export type AnomalyCode = keyof typeof ANOMALY_CODES;

/**
 * Whether `code` is one of {@link ANOMALY_CODES}.
 */
export function isAnomalyCode(code: string): code is AnomalyCode {
  return Object.hasOwn(ANOMALY_CODES, code);
}

/**
 * The one-line problem for an anomaly code no wirecost writes, or undefined when `code` is known.
 */
export function unknownAnomalyCode(code: string): string | undefined {
  return isAnomalyCode(code) ? undefined : `\`${code}\` is no anomaly code wirecost writes (README, "Anomalies")`;
}

/** One anomaly of one run, as the file holds it. */
export interface AnomalyRow {
  /** Kebab-case code, e.g. `stdio-non-jsonrpc-line`. */
  code: string;
  /** Connection number (0 on stdio). */
  conn: number;
  /** `c2s` or `s2c`. */
  dir: string;
  /** Stream byte offset where the anomaly starts, bytes. */
  offset: number;
  /** Bytes the anomaly covers (0 for one that covers none, e.g. an id of the wrong type). */
  bytes: number;
  /** One line of detail, "" when none. */
  detail: string;
}

/** Columns of an anomalies.tsv file, in order. */
export const ANOMALY_COLUMNS = ["code", "conn", "dir", "offset", "bytes", "detail"] as const;

const REGEN = "regenerate it with `npx wirecost recount --results DIR`";

/** The anomalies.tsv text of a run: header and one row per anomaly, in the order given. */
export function anomaliesTsv(rows: readonly AnomalyRow[]): string {
  return toTsv(
    ANOMALY_COLUMNS,
    rows.map((a) => [a.code, a.conn, a.dir, a.offset, a.bytes, a.detail]),
  );
}

/**
 * Read one anomalies.tsv file.
 * @returns [] when the file does not exist (a run without anomalies)
 * @throws UserError (file:line) when a column is missing, a number is not an integer or a code is
 *   none of {@link ANOMALY_CODES}
 */
export function readAnomaliesFile(file: string): AnomalyRow[] {
  if (!existsSync(file)) return [];
  const table = readTsv(file, REGEN);
  const col = columnIndex(table, ANOMALY_COLUMNS);
  return table.rows.map((row) => {
    const n = (name: string): number => parseCount(field(row, col(name)), file, row.line, name, REGEN);
    const code = field(row, col("code"));
    const problem = unknownAnomalyCode(code);
    if (problem) throw new UserError({ file, line: row.line, key: "code", problem, fix: REGEN });
    const dir = parseDirection(field(row, col("dir")), file, row.line, "dir", REGEN);
    return {
      code,
      conn: n("conn"),
      dir,
      offset: n("offset"),
      bytes: n("bytes"),
      detail: field(row, col("detail")),
    };
  });
}

/** The `anomalies` cell of runs.tsv and summary.tsv: `code:count` pairs sorted by code, joined by `,`; "" for none. */
export function anomalySummary(counts: ReadonlyMap<string, number> | Readonly<Record<string, number>>): string {
  const entries = counts instanceof Map ? [...counts.entries()] : Object.entries(counts);
  return entries
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, n]) => `${code}:${n}`)
    .join(",");
}

/**
 * Parse an `anomalies` cell back into code → count.
 * @throws Error naming the cell when a pair is not `code:count`, its code is none of
 *   {@link ANOMALY_CODES}, or its count is 0, has a leading zero or is past 2^53−1
 */
export function parseAnomalySummary(cell: string): Map<string, number> {
  const out = new Map<string, number>();
  if (cell === "") return out;
  for (const pair of cell.split(",")) {
    const m = /^([a-z0-9-]+):([0-9]+)$/.exec(pair);
    if (!m) throw new Error(`anomalies cell \`${cell}\`: \`${pair}\` is not code:count`);
    if (/^0[0-9]/.test(m[2]!)) throw new Error(`anomalies cell \`${cell}\`: \`${pair}\` has a count with a leading zero, which no wirecost writes`);
    const count = Number(m[2]);
    if (!Number.isSafeInteger(count) || count === 0)
      throw new Error(`anomalies cell \`${cell}\`: \`${pair}\` is no count wirecost writes (a whole number from 1 to ${Number.MAX_SAFE_INTEGER})`);
    const unknown = unknownAnomalyCode(m[1]!);
    if (unknown) throw new Error(`anomalies cell \`${cell}\`: ${unknown}`);
    out.set(m[1]!, (out.get(m[1]!) ?? 0) + count);
  }
  return out;
}
