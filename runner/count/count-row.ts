/**
 * What a count is: the columns of one counted capture log (DESIGN.md, "What a byte count
 * means"), and the per-message rows that say where the bytes went.
 */
import type { Direction } from "../capture/log.js";
import type { MessageTable } from "./message-table.js";

/**
 * One counted capture log. Every field is a non-negative integer. For HTTP,
 * `request_head_bytes + request_body_bytes + response_head_bytes + response_body_bytes +
 * chunk_framing_bytes = total_bytes`; for stdio the HTTP columns are 0.
 */
export interface CountRow {
  /** JSON-RPC messages client to server (a batch counts its members), messages. */
  jsonrpc_c2s: number;
  /** JSON-RPC messages server to client, including server requests on SSE streams, messages. */
  jsonrpc_s2c: number;
  /**
   * HTTP requests that got a final (non-1xx) response, a 202 to a notification included; the
   * response's head is enough (an SSE stream still open at the end of the log counts). Round trips.
   */
  http_round_trips: number;
  /** Request lines, header lines and blank lines of HTTP requests, bytes. */
  request_head_bytes: number;
  /** HTTP request bodies without chunk framing, bytes. */
  request_body_bytes: number;
  /** Status lines, header lines and blank lines of HTTP responses (1xx included), bytes. */
  response_head_bytes: number;
  /** HTTP response bodies without chunk framing, bytes. */
  response_body_bytes: number;
  /** Chunked-coding framing in both directions (size lines, CRLFs after data, last chunk, trailers), bytes. */
  chunk_framing_bytes: number;
  /** Server-sent events dispatched (an event needs a `data` field; see runner/wire/sse.ts), events. */
  sse_events: number;
  /** `_meta` values in client-to-server JSON-RPC params (requests, notifications) and results, bytes. */
  meta_bytes: number;
  /** Stdio: newline bytes ending complete lines, both directions (one per message line); 0 for HTTP. Bytes. */
  newline_bytes: number;
  /** Every logged byte client to server, bytes. */
  c2s_bytes: number;
  /** Every logged byte server to client, bytes. */
  s2c_bytes: number;
  /** Every logged application byte, `c2s_bytes + s2c_bytes`, bytes. */
  total_bytes: number;
}

/** A column of {@link CountRow}. */
export type CountColumn = keyof CountRow;

/** The columns of a {@link CountRow} in the order tables and TSV files show them. */
export const COUNT_COLUMNS = [
  "jsonrpc_c2s",
  "jsonrpc_s2c",
  "http_round_trips",
  "request_head_bytes",
  "request_body_bytes",
  "response_head_bytes",
  "response_body_bytes",
  "chunk_framing_bytes",
  "sse_events",
  "meta_bytes",
  "newline_bytes",
  "c2s_bytes",
  "s2c_bytes",
  "total_bytes",
] as const satisfies readonly CountColumn[];

/** Unit and one-line meaning of each column, for table headers and page footnotes. */
export const COUNT_COLUMN_DOCS: Record<CountColumn, { unit: "messages" | "round trips" | "events" | "bytes"; doc: string }> = {
  jsonrpc_c2s: { unit: "messages", doc: "JSON-RPC messages client to server; a batch counts its members" },
  jsonrpc_s2c: { unit: "messages", doc: "JSON-RPC messages server to client, server requests on SSE streams included" },
  http_round_trips: { unit: "round trips", doc: "HTTP requests that got a final response, a 202 to a notification included" },
  request_head_bytes: { unit: "bytes", doc: "HTTP request lines, headers and the blank line ending each head" },
  request_body_bytes: { unit: "bytes", doc: "HTTP request bodies, chunk framing excluded" },
  response_head_bytes: { unit: "bytes", doc: "HTTP status lines, headers and the blank line ending each head, 1xx included" },
  response_body_bytes: { unit: "bytes", doc: "HTTP response bodies, chunk framing excluded" },
  chunk_framing_bytes: { unit: "bytes", doc: "chunk-size lines, CRLFs after chunk data, last chunk, trailers, both directions" },
  sse_events: { unit: "events", doc: "server-sent events dispatched (blocks with a data field)" },
  meta_bytes: { unit: "bytes", doc: "_meta values (key excluded) in client-to-server params and results, as sent" },
  newline_bytes: { unit: "bytes", doc: "stdio: newline bytes ending complete lines, one per message line" },
  c2s_bytes: { unit: "bytes", doc: "every logged byte client to server" },
  s2c_bytes: { unit: "bytes", doc: "every logged byte server to client" },
  total_bytes: { unit: "bytes", doc: "every logged application byte, both directions" },
};

/** A CountRow of zeros. */
export function emptyCountRow(): CountRow {
  const row = {} as CountRow;
  for (const c of COUNT_COLUMNS) row[c] = 0;
  return row;
}

/**
 * What a {@link MessageRow} is. A JSON-RPC message (`request`, `notification`, `result`, `error`);
 * `http-only`: one HTTP message's own bytes (head, chunk framing, and body bytes outside the
 * JSON-RPC messages it carries: SSE field names and blank lines, batch brackets, whitespace, or a
 * whole body without JSON-RPC); `line-only`: stdio bytes outside JSON-RPC messages (a batch's
 * brackets, blank or whitespace lines, a trailing partial line, and then the line's newline).
 */
export type MessageKind = "request" | "notification" | "result" | "error" | "http-only" | "line-only";

/**
 * One place the bytes went. Summed over all rows, `headBytes`, `bodyBytes`, `framingBytes` and
 * `newlineBytes` add up to `total_bytes`; per direction, to that direction's columns. A JSON-RPC
 * row's `bodyBytes` is the object's own text (`{` to `}`); inside a multi-line SSE event that
 * text includes the "\n" joining the data lines.
 */
export interface MessageRow {
  /** Connection (0 for stdio without one). */
  conn: number;
  dir: Direction;
  /** Order of the row in the log, from 1: by the log `seq` of the chunk holding its first byte, then connection, direction, offset. */
  seq: number;
  /** Log `seq` of the chunk holding the row's first byte. */
  logSeq: number;
  /** Stream offset of the row's first byte, bytes. */
  offset: number;
  kind: MessageKind;
  /** JSON-RPC method; for a result or error, that of the request with the same id sent the other way before it, when known. */
  method?: string;
  /** JSON-RPC id as canonical JSON text. */
  id?: string;
  /** HTTP rows: the request or status line. */
  startLine?: string;
  /** HTTP head bytes (http-only rows), bytes. */
  headBytes: number;
  /** Body bytes: a JSON-RPC object's text, or an HTTP body's / stdio line's bytes outside JSON-RPC objects. */
  bodyBytes: number;
  /** HTTP chunk framing (http-only rows), bytes. */
  framingBytes: number;
  /** Stdio newline ending the line (1 on the line's only message, or on its line-only row), bytes. */
  newlineBytes: number;
  /** `_meta` value bytes of this message (both directions; the meta_bytes column sums c2s only). */
  metaBytes: number;
  /** True for a JSON-RPC message carried in a server-sent event. */
  sse?: boolean;
  /** True when the HTTP message was still open at the end of the log (counted as it stands), or a stdio partial line. */
  incomplete?: boolean;
}

/** Counts that are not columns, for the curious and for checks. */
export interface CountBreakdown {
  /** HTTP requests seen (head complete), requests. */
  http_requests: number;
  /** HTTP responses seen, interim 1xx included (head complete), responses. */
  http_responses: number;
  /** HTTP messages still open at the end of the log, counted as they stand (e.g. an SSE stream not closed), messages. */
  open_http_messages: number;
  /** Stdio: bytes after the last newline of each direction, not a message, bytes (in the direction's total). */
  partial_line_bytes: number;
}

/** The result of counting one capture log. */
export interface CountResult {
  row: CountRow;
  /** The per-message rows, finished (in log order; `toRows()` gives them as {@link MessageRow} objects). */
  messages: MessageTable;
  breakdown: CountBreakdown;
}
