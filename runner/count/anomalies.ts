/**
 * Anomalies: the shapes on the wire that the counter counts and names instead of stopping on
 * (ARCHITECTURE.md, "What a byte count means"). By default a count holds every byte of the log:
 * what can be attributed to a layer is, what cannot becomes `unattributed_bytes`, and each such
 * place is an {@link Anomaly} with its code, stream, offset and size. With `strict` the first
 * anomaly is thrown instead, as a WireFormatError (`reportAnomaly` in count-row.ts).
 *
 * The codes, each with what the counter did with the bytes (README.md, "What a byte count means",
 * repeats it for users; the codes as data, with a short meaning each, are format/anomalies.ts
 * `ANOMALY_CODES`, which the results readers check cells against):
 *
 * | code | meaning |
 * | --- | --- |
 * | `empty-log` | the log holds no bytes (no records, or only `eof` records) |
 * | `log-truncated` | the log ends while a message is still arriving on a stream that has no `eof` record, or the log holds no `eof` record at all: counted as it stands, the totals may be short |
 * | `stdio-non-jsonrpc-line` | a complete, non-blank stdio line that holds no JSON-RPC message (not JSON, or JSON that is not JSON-RPC): the line and its newline are unattributed |
 * | `stdio-crlf-line` | a stdio line ended by CRLF: its message is counted, the CR is a byte of the line outside the message |
 * | `stdio-partial-line` | bytes after the last newline of a stdio stream that ended: not a message, unattributed |
 * | `truncated-head` | an HTTP head cut by the end of the connection: head bytes once its start line is complete, else unattributed |
 * | `truncated-body` | an HTTP body or event stream cut by the end of the connection: counted as it stands (body, framing, the events dispatched so far; an unfinished JSON body holds no message) |
 * | `http-malformed` | bytes that do not parse as HTTP/1.1 (start line, header line, chunk-size line, Content-Length or Transfer-Encoding value, obsolete line folding, an over-long line): unattributed from there (from the start of a head not yet complete) to the end of the stream |
 * | `length-mismatch` | a declared length that disagrees with the bytes: a chunk's data not followed by CRLF at its declared size, or no start line right after a Content-Length body: unattributed from there to the end of the stream; or a Content-Length body cut by the end of the connection that is one whole JSON text: counted, its messages too (any other body so cut is `truncated-body`) |
 * | `protocol-switch` | a `101 Switching Protocols` or a 2xx answer to CONNECT: the head is counted, the bytes after it are not HTTP/1.1 and are unattributed |
 * | `compressed-body` | a JSON or event-stream body with a content coding: body bytes, its JSON-RPC messages are not looked for |
 * | `invalid-json` | a JSON body, or the data of an SSE event that starts with `{` or `[`, that is not one JSON text: body bytes, no JSON-RPC message |
 * | `jsonrpc-in-non-json-body` | JSON-RPC messages in a body whose content type is not JSON (`detail` names the type): counted |
 * | `sse-event-unterminated` | an event-stream body that ends inside an event (no blank line after it): never dispatched, its bytes stay body bytes, its message is not counted |
 * | `unsolicited-response` | an HTTP response with no request logged before it on its connection, or a JSON-RPC response whose id no request sent the other way before it has: counted, not a round trip |
 * | `extra-response` | an HTTP response on a connection whose requests logged before it are all answered: a second response to a request; counted, not a round trip |
 * | `null-id-request` | a JSON-RPC request with `"id": null`: counted |
 * | `id-type-mismatch` | a JSON-RPC response whose id equals a request's only when JSON types are ignored (`"1"` and `1`): never paired |
 */
import type { AnomalyCode } from "../../format/anomalies.js";
import type { Direction } from "../capture/log.js";

/** One anomaly found in a capture log. */
export interface Anomaly {
  code: AnomalyCode;
  /** Connection (0 for stdio without one, and for `empty-log`). */
  conn: number;
  dir: Direction;
  /** Offset in the reassembled stream of the anomaly's first byte (the stream's length for one that covers no byte), bytes. */
  offset: number;
  /** Bytes it covers (body bytes for one inside a chunked body; 0 for one about what is missing), bytes. */
  bytes: number;
  /** What was expected and found, one line. */
  detail?: string;
}

/** The anomalies' codes with how many times each occurs, codes in sorted order (none when there are none). */
export function anomalyCounts(anomalies: readonly Anomaly[]): Partial<Record<AnomalyCode, number>> {
  const counts = new Map<AnomalyCode, number>();
  for (const a of anomalies) counts.set(a.code, (counts.get(a.code) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) as Partial<Record<AnomalyCode, number>>;
}

/** How a stream is named in anomaly details and errors: `conn 2 s2c`, or `stdio c2s` for conn 0. */
export function streamLabel(conn: number, dir: Direction, stdio = false): string {
  return stdio && conn === 0 ? `stdio ${dir}` : `conn ${conn} ${dir}`;
}

/** Sort anomalies by connection, direction (c2s first), offset, then code: one order whatever order connections were counted in. */
export function sortAnomalies(anomalies: Anomaly[]): Anomaly[] {
  return anomalies.sort(
    (a, b) => a.conn - b.conn || (a.dir === b.dir ? 0 : a.dir === "c2s" ? -1 : 1) || a.offset - b.offset || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
