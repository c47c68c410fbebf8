/**
 * Processes a target started that its process group does not hold: a child that left the group
 * (`setsid`, `setpgid`: its own session or group), which stopping the group does not reach and
 * which, holding the target's stdout open, would keep wirecost waiting for the end of that pipe.
 * Found two ways, both read from Linux's /proc (elsewhere: none found, the group is all there is):
 *
 * - the target's descendants, walked from its leader by `/proc/<pid>/task/<tid>/children` while
 *   the leader lives (a child whose parent has died is re-parented and lost to this walk);
 * - every process holding one of the target's stdio pipes (`/proc/<pid>/fd/*` naming the same
 *   `socket:[INODE]` or `pipe:[INODE]`: Node gives a child's stdio as socket pairs), whoever its
 *   parent is now: what inherited the target's stdin, stdout or stderr.
 *
 * wirecost's own process holds the other ends of those pipes and is never counted.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Pids of the children of process `pid` (every thread's), from /proc; none when it is gone. */
function childrenOf(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tids) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/)) if (c) out.push(Number(c));
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

/** Pids of every descendant of process `pid` (children, their children, …), without `pid` itself. */
export function descendants(pid: number): number[] {
  const seen = new Set<number>();
  const todo = [pid];
  while (todo.length > 0) {
    for (const c of childrenOf(todo.pop()!)) {
      if (c === pid || seen.has(c)) continue;
      seen.add(c);
      todo.push(c);
    }
  }
  return [...seen];
}

/** A stdio pipe as /proc names it: `socket:[123456]` (a socket pair, what Node gives a child) or `pipe:[123456]`. */
export const STDIO_PIPE = /^(?:socket|pipe):\[\d+\]$/;

/**
 * The pipes among the standard streams (fd 0, 1, 2) of process `pid`, as /proc names them
 * ({@link STDIO_PIPE}); none when it is gone or they are not pipes (a file, a terminal, /dev/null).
 */
export function stdioPipes(pid: number): string[] {
  const out: string[] = [];
  for (const fd of [0, 1, 2]) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (STDIO_PIPE.test(link)) out.push(link);
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

/** Pids of the processes (other than this one) holding any of `pipes` (as {@link stdioPipes} names them) open. */
export function pipeHolders(pipes: readonly string[]): number[] {
  if (pipes.length === 0) return [];
  const wanted = new Set(pipes);
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of pids) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) {
          out.push(pid);
          break;
        }
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return out;
}

/**
 * SIGKILL each process of `pids`; a process already gone is skipped.
 * @returns how many were signalled
 */
export function killEach(pids: Iterable<number>): number {
  let n = 0;
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      process.kill(pid, "SIGKILL");
      n++;
    } catch {
      /* gone */
    }
  }
  return n;
}
