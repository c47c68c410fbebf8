/**
 * Writes a capture log (see log.ts): assigns `seq` (one counter over all connections) and
 * appends one JSON line per chunk or end of stream.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { formatRecord, type Direction } from "./log.js";

/** Appends capture records to a file as they happen. */
export class CaptureWriter {
  private seq = 0;
  private readonly out: WriteStream;
  /** Bytes logged so far per direction (application bytes, not log bytes). */
  readonly bytes: Record<Direction, number> = { c2s: 0, s2c: 0 };

  /** @param path log file, created or truncated */
  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  /** Log a chunk; `conn` undefined for stdio. The buffer is encoded at once, so it may be reused. */
  chunk(conn: number | undefined, dir: Direction, data: Buffer): void {
    this.bytes[dir] += data.length;
    this.out.write(formatRecord({ conn, seq: ++this.seq, dir, b64: data.toString("base64") }));
  }

  /** Log the end of one direction. */
  eof(conn: number | undefined, dir: Direction): void {
    this.out.write(formatRecord({ conn, seq: ++this.seq, dir, eof: true }));
  }

  /** Flush and close the file. */
  close(): Promise<void> {
    return new Promise((res, rej) => this.out.end((err?: Error | null) => (err ? rej(err) : res())));
  }
}
