/**
 * Stdio tap: sits between a driver and a target's stdin/stdout, copies bytes unchanged and logs
 * each chunk (capture-log format, no `conn`). stderr is not logged: the runner keeps it apart.
 * Errors of the pipes (EPIPE when the target is gone, a destroyed stdout) never escape as
 * unhandled `error` events: a read then fails with the reason.
 */
import type { Readable, Writable } from "node:stream";
import { CaptureWriter } from "./writer.js";
import { ResponseTimeout } from "../errors.js";

/** The driver's side of a tapped stdio pair. */
export interface StdioChannel {
  /** Write bytes to the target's stdin (logged as c2s). */
  send(bytes: Buffer): void;
  /** Next newline-terminated line from the target's stdout (the newline excluded). @throws ResponseTimeout when none comes within `timeoutMs` (ms); Error at end of stream or a stdio failure */
  readLine(timeoutMs: number): Promise<Buffer>;
  /** End the target's stdin (logged as c2s eof). */
  end(): void;
}

/** A tap with its log. */
export interface Tap extends StdioChannel {
  /** Flush and close the log; call after the target has exited. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Tap `stdin`/`stdout` of a child process, logging to `logPath` (created or truncated).
 * Every stdout chunk is logged (s2c) as it arrives, whether or not the driver reads it; `send`
 * logs (c2s) then writes. One `readLine` at a time.
 */
export function startTap(stdin: Writable, stdout: Readable, logPath: string): Tap {
  const log = new CaptureWriter(logPath);
  /** Unread stdout bytes as received; no newline in any of them except possibly the last. */
  let parts: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let stdinEnded = false;
  let waiter: (() => void) | undefined;
  const wake = () => waiter?.();
  stdout.on("data", (d: Buffer) => {
    log.chunk(undefined, "s2c", d);
    parts.push(d);
    wake();
  });
  stdout.on("end", () => {
    log.eof(undefined, "s2c");
    ended = true;
    wake();
  });
  stdout.on("error", (e: Error) => {
    failure ??= e;
    wake();
  });
  stdin.on("error", (e: Error) => {
    failure ??= e;
    wake();
  });

  /** Take the first complete line out of `parts`, or undefined. */
  function takeLine(): Buffer | undefined {
    for (let i = 0; i < parts.length; i++) {
      const nl = parts[i]!.indexOf(10);
      if (nl < 0) continue;
      const before = parts.slice(0, i);
      const head = parts[i]!;
      const line = before.length ? Buffer.concat([...before, head.subarray(0, nl)]) : head.subarray(0, nl);
      const rest = head.subarray(nl + 1);
      parts = rest.length ? [rest, ...parts.slice(i + 1)] : parts.slice(i + 1);
      return line;
    }
    return undefined;
  }

  return {
    send(bytes) {
      if (stdinEnded) throw new Error("send after end(): the target's stdin is closed");
      log.chunk(undefined, "c2s", bytes);
      stdin.write(bytes);
    },
    async readLine(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = takeLine();
        if (line) return line;
        const partial = parts.reduce((n, p) => n + p.length, 0);
        const note = partial ? ` (${partial} bytes of a partial line)` : "";
        if (ended) throw new Error("target closed stdout before a complete line" + note);
        if (failure) throw new Error(`target's stdio failed: ${failure.message}${note}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new ResponseTimeout(`no line from the target's stdout within ${timeoutMs} ms${note}`);
        await new Promise<void>((res) => {
          const t = setTimeout(() => {
            waiter = undefined;
            res();
          }, left);
          waiter = () => {
            clearTimeout(t);
            waiter = undefined;
            res();
          };
        });
      }
    },
    end() {
      if (stdinEnded) return;
      stdinEnded = true;
      log.eof(undefined, "c2s");
      stdin.end();
    },
    close: () => log.close(),
  };
}
