/**
 * Builders for hand-made capture logs whose counts are known by construction: every expected
 * number in the count tests is a length of a literal byte string.
 */
import type { CaptureRecord, Direction } from "../../runner/capture/log.js";

/** Bytes of a string (UTF-8). */
export function b(s: string): Buffer {
  return Buffer.from(s, "utf8");
}

/** Byte length of a string (UTF-8). */
export function len(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** Cut `bytes` at the given offsets (ascending) into consecutive pieces. */
export function chop(bytes: Buffer, cuts: number[]): Buffer[] {
  const out: Buffer[] = [];
  let s = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(bytes.subarray(s, c));
    s = c;
  }
  return out;
}

/** A chunked body from its chunk payloads: `hex-size[ext]\r\n data \r\n`… `0\r\n trailers \r\n`. */
export function chunked(chunks: { data: string; ext?: string }[], trailers = ""): { wire: string; framing: number; body: string } {
  let wire = "";
  let body = "";
  for (const c of chunks) {
    wire += `${len(c.data).toString(16)}${c.ext ?? ""}\r\n${c.data}\r\n`;
    body += c.data;
  }
  wire += `0\r\n${trailers}\r\n`;
  return { wire, framing: len(wire) - len(body), body };
}

/** An SSE event block with one data line per entry of `data`. */
export function sseEvent(data: string[], extra = "", nl = "\n"): string {
  return extra + data.map((d) => `data: ${d}${nl}`).join("") + nl;
}

/**
 * Builds a capture log in time order: each `send` appends its pieces as records with the next
 * seq numbers; `eof` appends an end-of-direction record.
 */
export class LogBuilder {
  readonly records: CaptureRecord[] = [];
  private seq = 0;

  /** Append bytes (one record per piece; a string or Buffer is one piece). */
  send(conn: number | undefined, dir: Direction, ...pieces: (string | Buffer)[]): this {
    for (const p of pieces) {
      const bytes = typeof p === "string" ? b(p) : p;
      const r: CaptureRecord = { seq: ++this.seq, dir, b64: bytes.toString("base64") };
      if (conn !== undefined) r.conn = conn;
      this.records.push(r);
    }
    return this;
  }

  /** Append an end-of-direction record. */
  eof(conn: number | undefined, dir: Direction): this {
    const r: CaptureRecord = { seq: ++this.seq, dir, eof: true };
    if (conn !== undefined) r.conn = conn;
    this.records.push(r);
    return this;
  }

  /** Close both directions of `conn`. */
  close(conn: number): this {
    return this.eof(conn, "c2s").eof(conn, "s2c");
  }
}

/** An HTTP/1.1 POST of a JSON body with the given extra header lines. */
export function post(body: string, headers: string[] = [], target = "/mcp"): { wire: string; head: string } {
  const head =
    [
      `POST ${target} HTTP/1.1`,
      "Host: 127.0.0.1:3000",
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      ...headers,
      `Content-Length: ${len(body)}`,
    ].join("\r\n") + "\r\n\r\n";
  return { wire: head + body, head };
}
