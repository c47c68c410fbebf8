/**
 * `wirecost capture`: the relay or the stdio tap of `wirecost run` as a command of its own, to
 * put between any client and any server and write the capture log (ARCHITECTURE.md,
 * "Capture-log format"), which `wirecost count` counts.
 *
 * - Relay: `wirecost capture --upstream 127.0.0.1:PORT [--listen 127.0.0.1:PORT] --log FILE`
 *   listens on 127.0.0.1, prints `listening on 127.0.0.1:PORT` on stdout, relays every connection
 *   to the upstream port (a connection to it that fails is named on stderr, once per error code), and ends on ^C (SIGINT) or SIGTERM: connections closed, log flushed,
 *   exit 0.
 * - Stdio tap: `wirecost capture --log FILE -- CMD [ARGS…]` starts CMD and passes this process's
 *   stdin to CMD's stdin and CMD's stdout to this process's stdout, byte for byte; CMD's stderr
 *   goes to this process's stderr, not into the log. It ends when CMD has exited and its stdout
 *   ended (exit: CMD's exit code, 0 when CMD was stopped by ^C, SIGTERM or the end of stdin,
 *   128 + the signal's number when another signal ended it: a crash, a SIGKILL from elsewhere),
 *   or on ^C / SIGTERM (CMD's stdin is ended, CMD gets {@link STOP_GRACE_MS} to exit, then
 *   SIGTERM, then SIGKILL), the log flushed.
 * - `--count` counts the log at the end (as `wirecost count`) and prints the row: on stdout for
 *   the relay, on stderr for the tap (its stdout belongs to the client). Both print a summary line
 *   (bytes each way, the log's path) on stderr at the end, unless `--quiet`.
 * - A limit of application bytes (`--limit-mib`, default 64 MiB, both ways together): past it
 *   nothing more is logged nor passed on, the relay's connections are closed or the tapped
 *   command is stopped, one line says so on stderr, and the exit code is 1.
 * Addresses are 127.0.0.1 only (wirecost never binds nor connects elsewhere).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { startRelay } from "../../runner/capture/relay.js";
import { startPipeTap } from "../../runner/capture/tap.js";
import { DEFAULT_CAPTURE_LIMIT_BYTES, type CaptureLimit, type CaptureLimitExceeded } from "../../runner/capture/writer.js";
import { fileSystemError, UserError } from "../../format/errors.js";
import { countCommand } from "./count.js";

/** Options of `wirecost capture` (commander's names). */
export interface CaptureCommandOptions {
  /** Capture log file (created or truncated). */
  log: string;
  /** Relay mode: `127.0.0.1:PORT` of the server. */
  upstream?: string;
  /** Relay mode: `127.0.0.1:PORT` (or `127.0.0.1:0`) to listen on; default 127.0.0.1 and a port the OS picks. */
  listen?: string;
  /** Count the log at the end and print the row. */
  count?: boolean;
  /** No summary line on stderr at the end (what a client's stderr would otherwise carry under `wirecost run`). */
  quiet?: boolean;
  /** The log's limit of application bytes, MiB (default 64). */
  limitMib?: number;
}

/** The capture's limit from `--limit-mib`; `reached` holds the error once it was passed, after its one line on stderr. */
function captureLimit(o: CaptureCommandOptions, onReached: () => void): CaptureLimit & { reached?: CaptureLimitExceeded } {
  const limit: CaptureLimit & { reached?: CaptureLimitExceeded } = {
    limitBytes: o.limitMib === undefined ? DEFAULT_CAPTURE_LIMIT_BYTES : o.limitMib * 1024 * 1024,
    onLimit: (e) => {
      limit.reached = e;
      process.stderr.write(`wirecost capture: ${e.message.replace("captureLimitMiB: in the matrix", "--limit-mib")}, log ${o.log}\n`);
      onReached();
    },
  };
  return limit;
}

/** How long a tapped command has to exit once its stdin ended after ^C or SIGTERM, milliseconds. */
export const STOP_GRACE_MS = 2000;

/**
 * The port of a loopback address given as `127.0.0.1:PORT` (or a bare `PORT`; `--upstream` also
 * takes `localhost:PORT`, reached on 127.0.0.1).
 * @param option the option's name, for the error
 * @param allowZero accept port 0 (let the OS pick: `--listen` only)
 * @throws UserError (one line) for any other host, 127.0.0.1 without a numeric port, or a port that is not 0–65535 (1–65535 unless `allowZero`)
 */
export function loopbackPort(text: string, option: string, allowZero: boolean): number {
  const m = /^(?:(.*):)?(\d{1,5})$/.exec(text);
  if (!m && /^127\.0\.0\.1(:.*)?$/.test(text))
    throw new UserError(`${option} ${text}: no port — give 127.0.0.1:PORT, PORT a number from ${allowZero ? 0 : 1} to 65535`);
  const host = m ? (m[1] ?? "127.0.0.1") : undefined;
  if (host !== "127.0.0.1" && !(host === "localhost" && option === "--upstream")) {
    const port = m?.[2] ?? "PORT";
    throw new UserError(`${option} ${text}: not a loopback address — wirecost listens and connects on 127.0.0.1 only; give 127.0.0.1:${port}`);
  }
  const port = Number(m![2]);
  if (port > 65535 || (port === 0 && !allowZero)) throw new UserError(`${option} ${text}: port must be from ${allowZero ? 0 : 1} to 65535`);
  return port;
}

/** Resolves on the first SIGINT or SIGTERM; the handlers stay, so a second ^C does not kill the process before the log is flushed. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((res) => {
    for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, () => res(s));
  });
}

/**
 * Run `wirecost capture` (see the module doc).
 * @param command the server command after `--` (tap mode); empty in relay mode
 * @returns the exit code
 * @throws UserError for a non-loopback address, `--upstream` together with a command, neither of
 *   them, `--listen` without `--upstream`, `--listen` on the `--upstream` port, a command that cannot be started, and (with `--count`)
 *   a log that cannot be counted; the file-system error of a `--log` path that cannot be created
 *   (before anything listens or starts)
 */
export async function captureCommand(command: string[], o: CaptureCommandOptions): Promise<number> {
  if (o.upstream !== undefined && command.length > 0)
    throw new UserError("capture takes either --upstream 127.0.0.1:PORT (relay) or -- CMD [ARGS…] (stdio tap), not both");
  if (o.upstream === undefined && command.length === 0)
    throw new UserError("capture needs --upstream 127.0.0.1:PORT (relay in front of an HTTP server) or -- CMD [ARGS…] (stdio tap around a server command)");
  if (o.upstream === undefined && o.listen !== undefined) throw new UserError("--listen is for the relay: give --upstream 127.0.0.1:PORT too");
  if (o.upstream !== undefined) loopbackPort(o.upstream, "--upstream", false);
  if (o.listen !== undefined && loopbackPort(o.listen, "--listen", true) === loopbackPort(o.upstream!, "--upstream", false))
    throw new UserError(
      `--listen ${o.listen} and --upstream ${o.upstream} are the same port: the relay would connect to itself — give --listen another port, or leave it out`,
    );
  // The log is created before anything listens or starts: a path that cannot be written fails
  // at once, not after a whole session relayed into nothing.
  // The log is the one file capture writes: a file-system error (a full disk, /dev/full) names it.
  const named = { option: "--log", path: o.log };
  try {
    closeSync(openSync(o.log, "w"));
    return await (o.upstream !== undefined ? relayMode(o.upstream, o) : tapMode(command, o));
  } catch (e) {
    throw (e instanceof UserError ? undefined : fileSystemError(e, named)) ?? e;
  }
}

/** What the summary says of the Host headers the relay rewrote: empty when none were. */
function hostLine(r: { requests: number; deltaBytes: number }, upstreamHost: string): string {
  if (r.requests === 0) return "";
  const delta = r.deltaBytes === 0 ? "" : ` (the server got ${Math.abs(r.deltaBytes)} bytes ${r.deltaBytes > 0 ? "more" : "fewer"} than logged)`;
  return `; ${r.requests} request(s) named the relay in Host, forwarded naming ${upstreamHost}${delta}`;
}

/** The relay: listen, print the address, relay until ^C or SIGTERM, then close, report and count. */
async function relayMode(upstream: string, o: CaptureCommandOptions): Promise<number> {
  const up = loopbackPort(upstream, "--upstream", false);
  const listen = o.listen === undefined ? 0 : loopbackPort(o.listen, "--listen", true);
  const stop = stopSignal();
  // A server that is not (yet) listening shows as the client's connection closed: say why, once per error code.
  const told = new Set<string>();
  const upstreamError = (conn: number, e: NodeJS.ErrnoException): void => {
    const code = e.code ?? e.message;
    if (told.has(code)) return;
    told.add(code);
    process.stderr.write(
      `wirecost capture: connection ${conn}: cannot connect to --upstream 127.0.0.1:${up} (${code}) — is the server listening there? (the client's connection was closed)\n`,
    );
  };
  let reached: () => void = () => undefined;
  const overLimit = new Promise<void>((res) => {
    reached = res;
  });
  const limit = captureLimit(o, () => reached());
  // Requests name the server as it was given (host-header.ts): a server given as localhost may check for that name.
  const hostName = o.upstream?.startsWith("localhost:") ? "localhost" : "127.0.0.1";
  const relay = await startRelay(up, o.log, listen, upstreamError, limit, hostName).catch((e: NodeJS.ErrnoException) => {
    throw new UserError(`--listen 127.0.0.1:${listen}: cannot listen (${e.code ?? e.message}) — give another port, or 127.0.0.1:0 for one the system picks`);
  });
  process.stdout.write(`listening on 127.0.0.1:${relay.port}\n`);
  await Promise.race([stop, overLimit]);
  await relay.close();
  if (!o.quiet)
    process.stderr.write(
      `wirecost capture: ${relay.connections()} connection(s), ${relay.bytes().c2s} bytes c2s, ${relay.bytes().s2c} bytes s2c, log ${o.log}${hostLine(relay.hostRewrites(), `${hostName}:${up}`)}\n`,
    );
  if (o.count) countCommand(o.log, { stdio: false }, process.stdout);
  return limit.reached ? 1 : 0;
}

/** The stdio tap around `command`: pass both ways until it exits (or ^C / SIGTERM / the end of stdin stop it), then report and count. */
async function tapMode(command: string[], o: CaptureCommandOptions): Promise<number> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const spawned = await new Promise<Error | undefined>((res) => {
    child.once("spawn", () => res(undefined));
    child.once("error", (e) => res(e));
  });
  if (spawned) throw new UserError(`cannot start ${command[0]}: ${(spawned as NodeJS.ErrnoException).code ?? spawned.message} — check the command after "--"`);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once("exit", (code, signal) => res({ code, signal })));
  let stopped = false;
  // Past the limit the tap stops passing bytes; the command is stopped as on ^C, its exit is the limit's 1.
  const limit = captureLimit(o, () => {
    child.stdin.end();
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS).unref();
  });
  const tap = startPipeTap(process.stdin, process.stdout, child.stdin, child.stdout, o.log, limit);
  void stopSignal().then(async () => {
    stopped = true;
    process.stdin.pause();
    child.stdin.end();
    const t = setTimeout(() => child.kill("SIGTERM"), STOP_GRACE_MS);
    const k = setTimeout(() => child.kill("SIGKILL"), 2 * STOP_GRACE_MS);
    await exited;
    clearTimeout(t);
    clearTimeout(k);
  });
  // The client closing our stdin is passed on (the tap ends CMD's stdin); CMD then normally exits.
  process.stdin.once("end", () => {
    const t = setTimeout(() => {
      stopped = true;
      child.kill("SIGTERM");
    }, STOP_GRACE_MS);
    void exited.then(() => clearTimeout(t));
  });
  const { code, signal } = await exited;
  // Its stdout ends with it, unless a process it started still holds it: that one is not waited for.
  const held = setTimeout(() => child.stdout.destroy(), STOP_GRACE_MS);
  await tap.done;
  clearTimeout(held);
  await tap.close();
  process.stdin.destroy();
  const b = tap.bytes();
  if (!o.quiet) process.stderr.write(`wirecost capture: ${b.c2s} bytes c2s, ${b.s2c} bytes s2c, log ${o.log}\n`);
  if (o.count) countCommand(o.log, { stdio: true }, process.stderr);
  if (limit.reached) return 1;
  if (stopped || signal === "SIGINT" || signal === "SIGTERM") return 0; // ^C typed on the terminal reaches CMD too
  if (signal) {
    // Killed by a signal nobody here sent (a crash, the OOM killer): not a clean end.
    process.stderr.write(`wirecost capture: ${command[0]} was ended by ${signal}\n`);
    return 128 + (osConstants.signals[signal] ?? 0);
  }
  return code ?? 0;
}
