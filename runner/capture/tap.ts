/**
 * Stdio tap: sits between a driver and a target's stdin/stdout, copies bytes unchanged and logs
 * each chunk (capture-log format, no `conn`). stderr is not logged: the runner keeps it apart.
 */
import type { Readable, Writable } from "node:stream";
import { CaptureWriter } from "./writer.js";

/** The driver's side of a tapped stdio pair. */
export interface StdioChannel {
  /** Write bytes to the target's stdin (logged as c2s). */
  send(bytes: Buffer): void;
  /** Next newline-terminated line from the target's stdout (the newline excluded). @throws on timeout or end of stream */
  readLine(timeoutMs: number): Promise<Buffer>;
  /** End the target's stdin (logged as c2s eof). */
  end(): void;
}

/** A tap with its log. */
export interface Tap extends StdioChannel {
  /** Flush and close the log; call after the target has exited. */
  close(): Promise<void>;
}

/**
 * Tap `stdin`/`stdout` of a child process, logging to `logPath`.
 */
export function startTap(stdin: Writable, stdout: Readable, logPath: string): Tap {
  const log = new CaptureWriter(logPath);
  let pending: Buffer = Buffer.alloc(0);
  let ended = false;
  let waiter: (() => void) | undefined;
  stdout.on("data", (d: Buffer) => {
    log.chunk(undefined, "s2c", d);
    pending = pending.length ? Buffer.concat([pending, d]) : d;
    waiter?.();
  });
  stdout.on("end", () => {
    log.eof(undefined, "s2c");
    ended = true;
    waiter?.();
  });
  return {
    send(bytes) {
      log.chunk(undefined, "c2s", bytes);
      stdin.write(bytes);
    },
    async readLine(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const nl = pending.indexOf(10);
        if (nl >= 0) {
          const line = pending.subarray(0, nl);
          pending = pending.subarray(nl + 1);
          return line;
        }
        if (ended) throw new Error("target closed stdout before a complete line" + (pending.length ? ` (${pending.length} bytes of a partial line)` : ""));
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no line from the target's stdout within ${timeoutMs} ms`);
        await new Promise<void>((res) => {
          const t = setTimeout(res, left);
          waiter = () => {
            clearTimeout(t);
            waiter = undefined;
            res();
          };
        });
      }
    },
    end() {
      log.eof(undefined, "c2s");
      stdin.end();
    },
    close: () => log.close(),
  };
}
