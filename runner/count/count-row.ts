/**
 * What a count is: the columns of one counted capture log (ARCHITECTURE.md, "What a byte count
 * means"), the counts beside them, and the result that holds them with the per-message table
 * (message-table.ts) that says where the bytes went.
 */
import { MessageTable } from "./message-table.js";

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

/** A count in progress: the row, the breakdown and the message table, added to stream by stream. */
export interface Count {
  row: CountRow;
  breakdown: CountBreakdown;
  messages: MessageTable;
}

/** A count of nothing yet. */
export function newCount(): Count {
  return {
    row: emptyCountRow(),
    breakdown: { http_requests: 0, http_responses: 0, open_http_messages: 0, partial_line_bytes: 0 },
    messages: new MessageTable(),
  };
}
