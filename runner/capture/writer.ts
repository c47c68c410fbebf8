/**
 * Writes a capture log (see log.ts): assigns `seq` (one counter over all connections) and
 * appends one JSON line per chunk or end of stream, in the order the calls are made.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { formatRecord, type Direction } from "./log.js";

/** Appends capture records to a file as they happen. */
export class CaptureWriter {
  private seq = 0;
  private readonly out: WriteStream;
  private closed?: Promise<void>;
  private error: Error | undefined;
  /** Bytes logged so far per direction (application bytes, not log bytes). */
  readonly bytes: Record<Direction, number> = { c2s: 0, s2c: 0 };
  /** Records offered after close() (a socket event racing shutdown); they are not in the file. */
  dropped = 0;

  /** @param path log file, created or truncated */
  constructor(path: string) {
    this.out = createWriteStream(path);
    // A write error (disk full, path gone) is kept and reported by close(), never left unhandled.
    this.out.on("error", (e: NodeJS.ErrnoException) => {
      // write(2) errors (a full disk) come without a path: name the log, so the message can.
      if (e.path === undefined) e.path = path;
      this.error ??= e;
    });
  }

  /** Log a chunk; `conn` undefined for stdio. The buffer is encoded at once, so it may be reused. */
  chunk(conn: number | undefined, dir: Direction, data: Buffer): void {
    if (this.closed) {
      this.dropped++;
      return;
    }
    this.bytes[dir] += data.length;
    this.out.write(formatRecord({ conn, seq: ++this.seq, dir, b64: data.toString("base64") }));
  }

  /** Log the end of one direction. */
  eof(conn: number | undefined, dir: Direction): void {
    if (this.closed) {
      this.dropped++;
      return;
    }
    this.out.write(formatRecord({ conn, seq: ++this.seq, dir, eof: true }));
  }

  /**
   * Flush and close the file; later records are dropped (counted in {@link dropped}). Safe to call twice.
   * @throws the first write error of the file, if any
   */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((res, rej) => {
      this.out.end((err?: Error | null) => {
        const e = this.error ?? err;
        if (e) rej(e);
        else res();
      });
      this.out.once("error", (e) => rej(this.error ?? e));
    });
    return this.closed;
  }
}
