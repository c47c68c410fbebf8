/**
 * Start and stop target processes (execa). Each target runs in its own process group so that
 * stopping it (TERM, then KILL after a grace period) also stops anything it started.
 */
import { createServer, connect } from "node:net";
import { execa, type ResultPromise } from "execa";
import { substitute } from "../matrix/placeholders.js";
import type { TargetCommand } from "../matrix/types.js";

/** Process group ids (= leader pids) of targets started and not yet stopped. */
const liveGroups = new Set<number>();

/**
 * SIGKILL every target process group still alive, synchronously (for exit paths: a second ^C,
 * an uncaught error). @returns how many groups were signalled
 */
export function killAllTargets(): number {
  let n = 0;
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, "SIGKILL");
      n++;
    } catch {
      /* already gone */
    }
  }
  liveGroups.clear();
  return n;
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
  /** Last `lines` lines of the child's stderr, for failure reports. */
  stderrTail(lines?: number): string;
  /** Exit code or signal name once exited, else undefined. */
  exit(): string | undefined;
  /** Why the process could not be started (e.g. `spawn nod ENOENT`), once known; else undefined. */
  spawnError(): string | undefined;
  /** Stop the process group: SIGTERM, then SIGKILL after `graceMs`. Resolves when the child is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Ask the OS for a free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((res, rej) => srv.once("error", rej).listen(0, "127.0.0.1", () => res()));
  const addr = srv.address();
  await new Promise<void>((res) => srv.close(() => res()));
  if (typeof addr !== "object" || !addr) throw new Error("no port from the OS");
  return addr.port;
}


/**
 * Start a target.
 * @param cmd argv/env from the matrix; argv[0] `node` means this Node binary
 * @param values axis values plus `port`, substituted into argv and env; every value is also in the
 *   environment as `WIRECOST_<AXIS>` (upper case) so targets can read pass-through axes
 * @param cwd working folder (the matrix file's folder)
 */
export function startTarget(cmd: TargetCommand, values: Record<string, string>, cwd: string): TargetProcess {
  const argv = cmd.argv.map((a) => substitute(a, values));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) env[`WIRECOST_${k.toUpperCase()}`] = v;
  for (const [k, v] of Object.entries(cmd.env)) env[k] = substitute(v, values);
  const file = argv[0] === "node" ? process.execPath : argv[0]!;
  const child = execa(file, argv.slice(1), {
    cwd,
    env,
    buffer: false,
    encoding: "buffer",
    detached: true,
    reject: false,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString("utf8")).slice(-8192);
  });
  let exited: string | undefined;
  let spawnError: string | undefined;
  const pid = child.pid ?? -1;
  if (pid > 0) liveGroups.add(pid);
  const done = child.then((r) => {
    exited = r.signal ?? String(r.exitCode ?? "");
    if (r.failed && r.exitCode === undefined && r.signal === undefined) {
      spawnError = (r as { cause?: unknown }).cause instanceof Error ? ((r as { cause?: Error }).cause!.message) : r.shortMessage;
      exited ||= "not started";
    }
  });
  // Without a pid there is no process group to stop: never signal a non-positive pid (−1 and 0 mean "every process").
  const killGroup = (sig: NodeJS.Signals) => {
    if (pid <= 0) return;
    try {
      process.kill(-pid, sig);
    } catch {
      /* already gone */
    }
  };
  return {
    pid,
    child,
    stderrTail: (lines = 10) => stderr.split("\n").filter((l) => l.trim()).slice(-lines).join("\n"),
    exit: () => exited,
    spawnError: () => spawnError,
    async stop(graceMs = 2000) {
      if (exited === undefined) {
        killGroup("SIGTERM");
        const t = setTimeout(() => killGroup("SIGKILL"), graceMs);
        await done;
        clearTimeout(t);
      }
      killGroup("SIGKILL"); // anything left in the group
      liveGroups.delete(pid);
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
