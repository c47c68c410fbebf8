/**
 * Writes a capture log (see log.ts): assigns `seq` (one counter over all connections) and
 * appends one JSON line per chunk or end of stream, in the order the calls are made, up to a
 * limit of application bytes per log (a target that floods its output cannot fill the disk).
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { formatRecord, type Direction } from "./log.js";

/** Application bytes one run's capture log holds at most unless the matrix says otherwise (`captureLimitMiB:`), bytes: 64 MiB. */
export const DEFAULT_CAPTURE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A capture passed its limit of application bytes: the chunk that crossed it and everything after
 * are not logged, and the run that wrote it fails with this message.
 */
export class CaptureLimitExceeded extends Error {
  override name = "CaptureLimitExceeded";
  /** @param limitBytes the limit, bytes */
  constructor(readonly limitBytes: number) {
    super(
      `the capture passed its limit of ${limitBytes / (1024 * 1024)} MiB of application bytes in one run: it stopped there and the run is failed (captureLimitMiB: in the matrix raises the limit)`,
    );
  }
}

/** The limit of a capture log: `limitBytes` application bytes (both directions together), then `onLimit` once. */
export interface CaptureLimit {
  /** Bytes, > 0. */
  limitBytes: number;
  /** Called once, with the error, when a chunk would pass the limit; that chunk and all later ones are not logged. */
  onLimit(e: CaptureLimitExceeded): void;
}

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
  /** Set once a chunk passed the limit: no later record is written. */
  overLimit: CaptureLimitExceeded | undefined;

  private readonly limitBytes: number;

  /**
   * @param path log file, created or truncated
   * @param limitBytes application bytes the log holds at most (undefined: {@link DEFAULT_CAPTURE_LIMIT_BYTES})
   * @param onLimit called once when a chunk would pass the limit (the capture's own reaction, then the caller's)
   */
  constructor(
    path: string,
    limitBytes: number | undefined = undefined,
    private readonly onLimit: (e: CaptureLimitExceeded) => void = () => undefined,
  ) {
    this.limitBytes = limitBytes ?? DEFAULT_CAPTURE_LIMIT_BYTES;
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
    if (this.closed || this.overLimit) {
      this.dropped++;
      return;
    }
    if (this.bytes.c2s + this.bytes.s2c + data.length > this.limitBytes) {
      this.overLimit = new CaptureLimitExceeded(this.limitBytes);
      this.dropped++;
      this.onLimit(this.overLimit);
      return;
    }
    this.bytes[dir] += data.length;
    this.out.write(formatRecord({ conn, seq: ++this.seq, dir, b64: data.toString("base64") }));
  }

  /** Log the end of one direction. */
  eof(conn: number | undefined, dir: Direction): void {
    if (this.closed || this.overLimit) {
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
      // A write error (a full disk) may have destroyed the stream already: it cannot be ended then.
      if (this.out.destroyed) {
        if (this.error) rej(this.error);
        else this.out.once("close", () => (this.error ? rej(this.error) : res()));
        return;
      }
      this.out.end((err?: Error | null) => {
        // Destroyed meanwhile by a write error whose event is still to come: wait for it.
        if (!this.error && (err as NodeJS.ErrnoException | null | undefined)?.code === "ERR_STREAM_DESTROYED" && !this.out.closed)
          this.out.once("close", () => rej(this.error ?? err));
        else if (this.error ?? err) rej(this.error ?? err);
        else res();
      });
      this.out.once("error", (e) => rej(this.error ?? e));
    });
    return this.closed;
  }
}
