/**
 * Stdio tap: sits between a driver and a target's stdin/stdout, copies bytes unchanged and logs
 * each chunk (capture-log format, no `conn`). stderr is not logged: the runner keeps it apart.
 * Errors of the pipes (EPIPE when the target is gone, a destroyed stdout) never escape as
 * unhandled `error` events: a read then fails with the reason.
 */
import type { Readable, Writable } from "node:stream";
import { CaptureLimitExceeded, CaptureWriter, type CaptureLimit } from "./writer.js";
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

/** Bytes read from a stream and not yet taken, as received, split into lines on demand. */
class LineBuffer {
  /** Unread bytes as received; no newline in any of them except possibly the last. */
  private parts: Buffer[] = [];

  /** Add bytes as they arrive. */
  push(bytes: Buffer): void {
    this.parts.push(bytes);
  }

  /** Take the first complete line (its newline dropped), or undefined when none is complete. */
  takeLine(): Buffer | undefined {
    const parts = this.parts;
    for (let i = 0; i < parts.length; i++) {
      const nl = parts[i]!.indexOf(10);
      if (nl < 0) continue;
      const before = parts.slice(0, i);
      const head = parts[i]!;
      const line = before.length ? Buffer.concat([...before, head.subarray(0, nl)]) : head.subarray(0, nl);
      const rest = head.subarray(nl + 1);
      this.parts = rest.length ? [rest, ...parts.slice(i + 1)] : parts.slice(i + 1);
      return line;
    }
    return undefined;
  }

  /** Bytes not yet taken (a partial line). */
  bytes(): number {
    return this.parts.reduce((n, p) => n + p.length, 0);
  }
}

/**
 * Tap `stdin`/`stdout` of a child process, logging to `logPath` (created or truncated).
 * Every stdout chunk is logged (s2c) as it arrives, whether or not the driver reads it; `send`
 * logs (c2s) then writes. One `readLine` at a time.
 * @param limit the log's limit of application bytes (writer.ts): past it `limit.onLimit` is called,
 *   the target's stdout is no longer read (destroyed) and reads fail with the limit's message
 *   (default: 64 MiB, no callback)
 */
export function startTap(stdin: Writable, stdout: Readable, logPath: string, limit?: CaptureLimit): Tap {
  let failure: Error | undefined;
  const log = new CaptureWriter(logPath, limit?.limitBytes, (e) => {
    failure ??= e;
    limit?.onLimit(e);
    stdout.destroy();
    wake();
  });
  const unread = new LineBuffer();
  let ended = false;
  let stdinEnded = false;
  let waiter: (() => void) | undefined;
  const wake = () => waiter?.();
  stdout.on("data", (d: Buffer) => {
    log.chunk(undefined, "s2c", d);
    unread.push(d);
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

  return {
    send(bytes) {
      if (stdinEnded) throw new Error("send after end(): the target's stdin is closed");
      log.chunk(undefined, "c2s", bytes);
      stdin.write(bytes);
    },
    async readLine(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = unread.takeLine();
        if (line) return line;
        const partial = unread.bytes();
        const note = partial ? ` (${partial} bytes of a partial line)` : "";
        if (ended) throw new Error("target closed stdout before a complete line" + note);
        if (failure instanceof CaptureLimitExceeded) throw failure;
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

/** A stdio tap between a client's pipes and a server's (see {@link startPipeTap}). */
export interface PipeTap {
  /** Resolves when both directions are done: the server's stdout ended and the client's bytes were all passed on (or the client's side failed). */
  done: Promise<void>;
  /** Application bytes passed so far per direction (what the log holds), bytes. */
  bytes(): { c2s: number; s2c: number };
  /** Flush and close the log; records offered later are dropped. Safe to call twice. @throws the log's first write error */
  close(): Promise<void>;
}

/**
 * Stdio tap for `wirecost capture -- CMD`: passes the client's bytes (`clientIn`, e.g. this
 * process's stdin) to the server's stdin and the server's stdout to the client (`clientOut`),
 * unchanged, chunk by chunk as read, each chunk logged first (capture-log format, no `conn`: c2s
 * and s2c), with back-pressure (a side that cannot take more pauses the other's reading). The end
 * of either input is logged (`eof`) and passed on by ending the other side's output. stderr is not
 * this tap's: the caller keeps it apart.
 * A failing output (the client gone: EPIPE; the server's stdin closed) never throws: the bytes
 * still read from that direction are logged and dropped, so the log keeps what each side sent.
 * @param logPath capture log, created or truncated
 * @param limit the log's limit of application bytes (writer.ts): past it `limit.onLimit` is called
 *   and both inputs are destroyed, so nothing more passes either way (default: 64 MiB, no callback)
 */
export function startPipeTap(clientIn: Readable, clientOut: Writable, serverIn: Writable, serverOut: Readable, logPath: string, limit?: CaptureLimit): PipeTap {
  const log = new CaptureWriter(logPath, limit?.limitBytes, (e) => {
    limit?.onLimit(e);
    serverOut.destroy();
    clientIn.destroy();
  });
  const pass = (from: Readable, to: Writable, dir: "c2s" | "s2c") =>
    new Promise<void>((res) => {
      let broken = false;
      to.on("error", () => {
        broken = true;
        from.resume();
      });
      from.on("data", (d: Buffer) => {
        log.chunk(undefined, dir, d);
        if (broken || to.destroyed || to.writableEnded) return;
        if (!to.write(d)) {
          from.pause();
          to.once("drain", () => from.resume());
        }
      });
      from.on("end", () => {
        log.eof(undefined, dir);
        if (!broken && !to.destroyed && !to.writableEnded) to.end();
        res();
      });
      from.on("error", () => res());
      from.on("close", () => res());
    });
  const s2c = pass(serverOut, clientOut, "s2c");
  void pass(clientIn, serverIn, "c2s");
  return {
    done: s2c,
    bytes: () => ({ ...log.bytes }),
    close: () => log.close(),
  };
}
