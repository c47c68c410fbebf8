/**
 * The one error the wire parsers (HTTP/1.1, SSE) and the counters throw for bytes that do not
 * follow the expected wire format.
 */
import { UserError } from "../../format/errors.js";

/**
 * Bytes on a stream do not follow the wire format the counter expects (HTTP/1.1 framing, JSON,
 * newline-delimited JSON-RPC), or the counted bytes do not add up to the logged bytes.
 * The message is one line: `LABEL at byte OFFSET: DETAIL`, e.g.
 * `conn 2 s2c at byte 1234: expected chunk-size line (hex digits then CRLF), got "zz\r\n"`.
 * It is a {@link UserError}: the capture is at fault, not wirecost, so the CLI prints one line.
 */
export class WireFormatError extends UserError {
  override name = "WireFormatError";
  /**
   * @param label the stream, e.g. `conn 2 s2c` or `stdio c2s`
   * @param offset byte offset within that stream (reassembled, from 0); undefined when the
   *   problem concerns the whole stream
   * @param detail what was expected and what was found
   */
  constructor(
    readonly label: string,
    readonly offset: number | undefined,
    readonly detail: string,
  ) {
    super(offset === undefined ? `${label}: ${detail}` : `${label} at byte ${offset}: ${detail}`);
  }
}

/**
 * Show up to `max` bytes of `buf[at, end)` as a JSON string literal for an error message
 * (`"zz\r\n"`, with `…` after the quote when cut), or `nothing` (default `end of stream`) when
 * the range is empty.
 */
export function describeBytes(buf: Buffer, at: number, end = buf.length, max = 24, nothing = "end of stream"): string {
  if (at >= end) return nothing;
  const stop = Math.min(end, at + max);
  return JSON.stringify(buf.toString("utf8", at, stop)) + (stop < end ? "…" : "");
}
