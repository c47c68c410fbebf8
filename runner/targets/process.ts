/**
 * Start and stop target processes (execa). Each target runs in its own process group so that
 * stopping it (TERM, then KILL after a grace period) also stops anything it started; what left
 * the group (`setsid`) is found and killed too (runner/targets/strays.ts), and a stop never
 * waits on a pipe a stray holds open; every group is watched so that it dies with wirecost,
 * `kill -9` included (runner/targets/watch.ts).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { createServer, connect } from "node:net";
import { execa, type ResultPromise } from "execa";
import { substitute } from "../matrix/placeholders.js";
import type { TargetCommand } from "../matrix/types.js";
import { checkBindsLoopbackOnly, checkLoopbackOnly } from "./binds.js";
import { descendants, killEach, pipeHolders, stdioPipes, tokenHolders, TARGET_TOKEN_VAR } from "./strays.js";
import { unwatchTarget, watchTarget } from "./watch.js";

/**
 * Process group ids (= leader pids) of targets started and not yet stopped → their stdio pipes
 * (runner/targets/strays.ts) and whether the leader has exited (its pid may then name another
 * process: its descendants are not walked).
 */
const liveGroups = new Map<number, { pipes: string[]; token: string; exited: () => boolean }>();

/**
 * SIGKILL every target process group still alive, with the processes that left a group
 * (descendants, holders of a target's stdio pipes, carriers of its token: runner/targets/strays.ts), synchronously (for
 * exit paths: a second ^C, an uncaught error). @returns how many groups were signalled
 */
export function killAllTargets(): number {
  let n = 0;
  const strays: number[] = [];
  for (const [pgid, { exited }] of liveGroups) {
    if (!exited()) strays.push(...descendants(pgid));
    try {
      process.kill(-pgid, "SIGKILL");
      n++;
    } catch {
      /* already gone */
    }
  }
  // One pass over /proc for every group's pipes (a pass reads every process's descriptors), one for their tokens.
  const groups = [...liveGroups.values()];
  killEach([...strays, ...pipeHolders(groups.flatMap((g) => g.pipes)), ...tokenHolders(groups.map((g) => g.token))]);
  for (const pgid of liveGroups.keys()) unwatchTarget(pgid);
  liveGroups.clear();
  return n;
}

/**
 * How long a stop waits for a target's stdout and stderr to end once its process group is dead,
 * ms, before it kills what holds them open (runner/targets/strays.ts) and then closes its own ends.
 */
const STDIO_END_MS = 500;

/** Resolves with true when `p` settles within `ms`, false otherwise. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p.then(() => true),
    new Promise<boolean>((res) => {
      t = setTimeout(() => res(false), ms);
    }),
  ]).finally(() => clearTimeout(t));
}

/** How many target process groups are started and not yet stopped. */
export function liveTargetCount(): number {
  return liveGroups.size;
}

/** A started target process. */
export interface TargetProcess {
  pid: number;
  /** stdin/stdout of the child (stdio transport). */
  child: ResultPromise<{ buffer: false; encoding: "buffer"; detached: true; reject: false }>;
  /** One-line excerpt of the child's stderr for failure reasons ({@link stderrExcerpt}); "" when it wrote none. */
  stderrExcerpt(): string;
  /** The target's first whole stderr line starting `listening on ` (e.g. `listening on 127.0.0.1:4100 loop=uvloop http=httptools`), once its line end is written; else undefined. */
  listeningLine(): string | undefined;
  /** Exit code or signal name once exited, else undefined. */
  exit(): string | undefined;
  /**
   * Whether it had exited before {@link TargetProcess.stop} was first called (its exit seen, or
   * its leader already a zombie in /proc: exited, its status not yet read): false while it has not
   * been stopped and is running, or when stop found it running. A target that exits 0 on SIGTERM
   * (most do) reads `exit()` "0" after a stop: this tells that exit from one of its own.
   */
  exitedBeforeStop(): boolean;
  /**
   * Check what the target and every process it started (its group's leader, its descendants, the
   * carriers of its token and the holders of its stdio pipes, runner/targets/strays.ts) have bound: loopback only
   * (runner/targets/binds.ts checkBindsLoopbackOnly); with `port`, also that whatever listens on
   * `port` listens on loopback only, in the same reading. Linux only.
   * @throws Error naming the first TCP listener or UDP socket on another address, and its process
   */
  checkBinds(port?: number): void;
  /** Why the process could not be started (e.g. `spawn nod ENOENT`), once known; else undefined. */
  spawnError(): string | undefined;
  /**
   * Stop the process group: SIGTERM, then SIGKILL after `graceMs`; then SIGKILL what left the
   * group (its descendants found before, every process carrying its token — a double-forked
   * daemon too — and any process still holding its stdio pipes a moment after: runner/targets/strays.ts). Resolves when the child is gone and its stdout and stderr
   * are closed (ended, or closed by wirecost when something unkillable holds them).
   */
  stop(graceMs?: number): Promise<void>;
}

/** Is process `pid` a zombie (exited, not yet reaped: state Z in /proc/<pid>/stat)? False where /proc cannot tell. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false;
  }
}

/** Can something listen on 127.0.0.1:`port` now? (listen, then close at once) */
function canListen(port: number): Promise<boolean> {
  const srv = createServer();
  return new Promise((res) => {
    srv.once("error", () => res(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => res(true)));
  });
}

/**
 * The ports {@link freePort} hands out: the 12,000 below the kernel's ephemeral range
 * (`/proc/sys/net/ipv4/ip_local_port_range`, 32768–60999 by default, so 20768–32767). The OS
 * gives ports of that range to `listen(0)` and outgoing connections of every process; a port
 * taken from it, closed and handed to a target could be taken by another socket before the target
 * binds it (seen: a run failing with "Address already in use", or its relay reaching another
 * process's listener). Undefined where the file cannot be read or leaves no room below it.
 */
function portRange(): [number, number] | undefined {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (!Number.isInteger(low) || low - 1 < 1024 + 1000) return undefined;
    return [Math.max(1024, low - 12_000), low - 1];
  } catch {
    return undefined;
  }
}

const PORTS = portRange();
/** Next candidate port: a random start per process (two wirecost processes rarely walk the same ports), then one by one. */
let nextPort = PORTS ? PORTS[0] + Math.floor(Math.random() * (PORTS[1] - PORTS[0] + 1)) : 0;

/**
 * A free TCP port on 127.0.0.1 for a target or a relay: the next port of {@link portRange} that
 * can be listened on now (each port once per lap of the range, so never one this process handed
 * out recently), or one the OS picks where there is no such range.
 * @throws Error when no port of the range can be listened on
 */
export async function freePort(): Promise<number> {
  if (PORTS) {
    const [lo, hi] = PORTS;
    for (let tried = 0; tried <= hi - lo; tried++) {
      const port = nextPort;
      nextPort = port >= hi ? lo : port + 1;
      if (await canListen(port)) return port;
    }
    throw new Error(`no free TCP port on 127.0.0.1 in ${lo}-${hi}`);
  }
  const srv = createServer();
  await new Promise<void>((res, rej) => srv.once("error", rej).listen(0, "127.0.0.1", () => res()));
  const addr = srv.address();
  await new Promise<void>((res) => srv.close(() => res()));
  if (typeof addr !== "object" || !addr) throw new Error("no port from the OS");
  return addr.port;
}

/** An error line as Node and most runtimes print it: `Error: boom`, `TypeError: …`, `Error [ERR_X]: …`, `FooException: …`. */
const ERROR_LINE = /^(?:Uncaught )?(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?: \[[^\]]*\])?:(?: |$)/;

/**
 * One-line excerpt of a target's stderr for a failure reason: the first error line (`Error: boom`)
 * and the last line (`… | ` between them when lines were left out), or, without an error line, the
 * last `lines` lines. Lines are trimmed, their whitespace runs (tabs, CR) made one space, cut to
 * `maxLineChars` characters (ending in `…`), and joined with ` | `; empty lines are skipped.
 * @param stderr the stderr text (its end, as kept)
 * @returns the excerpt, at most about `lines × (maxLineChars + 3)` characters; "" when there is no text
 */
export function stderrExcerpt(stderr: string, lines = 3, maxLineChars = 200): string {
  const all = stderr
    .split("\n")
    .map((l) => l.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .map((l) => (l.length > maxLineChars ? `${l.slice(0, maxLineChars - 1)}…` : l));
  const e = all.findIndex((l) => ERROR_LINE.test(l));
  if (e < 0 || e >= all.length - lines) return all.slice(-lines).join(" | ");
  return [all[e]!, ...(e < all.length - 2 ? ["…"] : []), all[all.length - 1]!].join(" | ");
}

/**
 * A target's environment: `WIRECOST_<AXIS>` for each axis value, the command's own `env` (placeholders
 * substituted), the token that names its processes, and `SHLVL` where wirecost has none.
 */
function targetEnv(cmd: TargetCommand, values: Record<string, string>, token: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) env[`WIRECOST_${k.toUpperCase()}`] = v;
  for (const [k, v] of Object.entries(cmd.env)) env[k] = substitute(v, values);
  env[TARGET_TOKEN_VAR] = token;
  // bash runs ~/.bashrc when its stdin is a socket (a child's stdio here is a socket pair) and SHLVL,
  // after its own increment, is below 2: it takes itself for a command of the remote shell daemon
  // (bash(1), INVOCATION). A wirecost started with SHLVL unset or 0 (a detached `( cmd & )`, cron, a
  // service) then ran the user's bashrc in every `bash -c` of a target command: seen, pyenv's
  // rehash waiting on its lock through every probe. A target starts as a shell's child would.
  if (!(Number(process.env.SHLVL) >= 1) && cmd.env.SHLVL === undefined) env.SHLVL = "1";
  return env;
}

/** What a target's stderr said: its last 8 KiB, and its `listening on …` line once a whole one came (within its first 64 KiB). */
function watchStderr(stderr: Readable | null | undefined): { tail: string; listening: string | undefined } {
  const seen = { tail: "", listening: undefined as string | undefined };
  let head = "";
  stderr?.on("data", (d: Buffer) => {
    seen.tail = (seen.tail + d.toString("utf8")).slice(-8192);
    if (seen.listening === undefined && head.length < 65536) {
      head += d.toString("utf8");
      // Only a whole line: a chunk may end inside it (seen: `listening on 127.0.0.1:` before the port).
      seen.listening = /^(listening on [^\n]*)\r?\n/m.exec(head)?.[1]?.trim();
    }
  });
  return seen;
}

/** Start a target's process as the leader of a group of its own (detached), its stdio piped, its output not buffered. */
function spawnTarget(file: string, args: string[], cwd: string, env: Record<string, string>) {
  return execa(file, args, { cwd, env, buffer: false, encoding: "buffer", detached: true, reject: false, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
}

/** Signal a target's process group; without a pid there is no group to stop: never a non-positive pid (−1 and 0 mean "every process"). */
export function killProcessGroup(pid: number, sig: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, sig);
  } catch {
    /* already gone */
  }
}

/**
 * Start a target.
 * @param cmd argv/env from the matrix; argv[0] `node` means this Node binary
 * @param values axis values plus `port`, substituted into argv and env; every value is also in the
 *   environment as `WIRECOST_<AXIS>` (upper case) so targets can read pass-through axes, and
 *   `WIRECOST_TARGET_TOKEN` holds a random token of this start (runner/targets/strays.ts), by
 *   which whatever the target starts is found and stopped with it
 * @param cwd working folder (the matrix file's folder)
 */
export function startTarget(cmd: TargetCommand, values: Record<string, string>, cwd: string): TargetProcess {
  const argv = cmd.argv.map((a) => substitute(a, values));
  const token = randomBytes(16).toString("hex");
  const env = targetEnv(cmd, values, token);
  const file = argv[0] === "node" ? process.execPath : argv[0]!;
  const child = spawnTarget(file, argv.slice(1), cwd, env);
  const err = watchStderr(child.stderr);
  let exited: string | undefined;
  let exitedBeforeStop: boolean | undefined;
  let spawnError: string | undefined;
  const pid = child.pid ?? -1;
  // The pipes of its stdin, stdout and stderr, read while it surely holds them (spawn returns after exec).
  const pipes = pid > 0 ? stdioPipes(pid) : [];
  if (pid > 0) {
    liveGroups.set(pid, { pipes, token, exited: () => exited !== undefined });
    watchTarget(pid, [file, ...argv.slice(1)].join(" "), pipes, token);
  }
  // The leader's exit, which comes even while a process that left its group holds stdout open.
  const leaderExit = new Promise<void>((res) =>
    child.once("exit", (code, signal) => {
      exited ??= signal ?? String(code ?? "");
      res();
    }),
  );
  const done = child.then((r) => {
    exited ??= r.signal ?? String(r.exitCode ?? "");
    if (r.failed && r.exitCode === undefined && r.signal === undefined) {
      spawnError = (r as { cause?: unknown }).cause instanceof Error ? (r as { cause?: Error }).cause!.message : r.shortMessage;
      exited ||= "not started";
    }
  });
  const killGroup = (sig: NodeJS.Signals) => killProcessGroup(pid, sig);
  return {
    pid,
    child,
    stderrExcerpt: () => stderrExcerpt(err.tail),
    listeningLine: () => err.listening,
    exit: () => exited,
    exitedBeforeStop: () => exitedBeforeStop ?? false,
    spawnError: () => spawnError,
    checkBinds(port?: number) {
      if (pid <= 0) return port === undefined ? undefined : checkLoopbackOnly(port);
      // A fork server's child serves in the launcher's place: it holds the launcher's stdio pipes.
      checkBindsLoopbackOnly(
        [...new Set([...(exited === undefined ? [pid, ...descendants(pid)] : []), ...tokenHolders([token]), ...pipeHolders(pipes)])],
        port,
      );
    },
    async stop(graceMs = 2000) {
      exitedBeforeStop ??= exited !== undefined || (pid > 0 && isZombie(pid));
      // Its descendants, while the leader lives to be walked from (not yet reaped, so its pid is
      // still its own): one in a session of its own is out of the group's reach.
      const tree = pid > 0 && exited === undefined ? descendants(pid) : [];
      if (exited === undefined) {
        killGroup("SIGTERM");
        const t = setTimeout(() => killGroup("SIGKILL"), graceMs);
        await Promise.race([leaderExit, done]);
        clearTimeout(t);
      }
      killGroup("SIGKILL"); // anything left in the group
      killEach([...tree, ...tokenHolders([token])]);
      if (!(await within(done, STDIO_END_MS))) {
        // Something still holds its stdout or stderr open: a process that left the group.
        killEach(pipeHolders(pipes));
        if (!(await within(done, STDIO_END_MS))) {
          // Held by what cannot be killed: close wirecost's ends rather than wait for theirs.
          for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy();
          await within(done, STDIO_END_MS);
        }
      }
      if (liveGroups.delete(pid)) unwatchTarget(pid);
    },
  };
}

/**
 * Wait until something accepts TCP connections on 127.0.0.1:`port`.
 * @throws Error when `timeoutMs` passes or `alive()` turns false first
 */
export async function waitForPort(port: number, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((res) => {
      const s = connect({ host: "127.0.0.1", port }, () => {
        s.destroy();
        res(true);
      });
      s.on("error", () => res(false));
    });
    if (ok) return;
    if (!alive()) throw new Error(`target exited before listening on port ${port}`);
    if (Date.now() > deadline) throw new Error(`target did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How many ports {@link startOnFreePort} tries when the target says its port is in use. */
const PORT_ATTEMPTS = 3;
/** A target's stderr saying its port was taken: Node, Python, Go, Rust wordings. */
const PORT_IN_USE = /address already in use|EADDRINUSE|os error 98/i;

/**
 * Start an HTTP target on a {@link freePort}, wait until it accepts connections and check that it
 * listens on loopback only and that nothing of it is bound elsewhere (TargetProcess.checkBinds with
 * the port: one reading of /proc/net). When the
 * target exits first saying its port is in use (taken between freePort's check and the target's
 * bind: another process, or a connection in TIME_WAIT for a bind without SO_REUSEADDR), it is
 * started again on another port, up to 3 tries; nothing has reached it yet.
 * @param start starts the target on the given port (startTarget, or a pinned variant)
 * @param timeoutMs how long each try may wait for the port
 * @param onStarted called with each process as soon as it is started (so the caller can stop it if the wait is abandoned)
 * @returns the process, its port and its start-up time (spawn to accepting, ms)
 * @throws Error from {@link waitForPort} (the target exited or did not listen in time) or
 *   checkBinds (it listens on an address that is not loopback), the target left stopped
 */
export async function startOnFreePort(
  start: (port: number) => TargetProcess,
  timeoutMs: number,
  onStarted: (proc: TargetProcess) => void = () => {},
): Promise<{ proc: TargetProcess; port: number; readyMs: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const spawned = performance.now();
    const proc = start(port);
    onStarted(proc);
    try {
      await waitForPort(port, timeoutMs, () => proc.exit() === undefined);
      const readyMs = performance.now() - spawned;
      proc.checkBinds(port);
      return { proc, port, readyMs };
    } catch (e) {
      await proc.stop();
      if (attempt >= PORT_ATTEMPTS || !PORT_IN_USE.test(proc.stderrExcerpt())) throw e;
    }
  }
}
