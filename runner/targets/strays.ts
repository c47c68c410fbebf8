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

/** Pids of every process in /proc but this one; none where /proc cannot be read. */
function otherPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return [];
  }
}

/** Pids of the processes (other than this one) holding any of `pipes` (as {@link stdioPipes} names them) open. */
export function pipeHolders(pipes: readonly string[]): number[] {
  if (pipes.length === 0) return [];
  const wanted = new Set(pipes);
  const out: number[] = [];
  for (const pid of otherPids()) {
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

/**
 * The environment variable every target process carries (runner/targets/process.ts startTarget),
 * its value a random token of that one target: every process it starts inherits it, one that
 * double-forked or left its session (`( setsid CMD & )`, re-parented to pid 1 or a subreaper)
 * included, unless it clears its environment on purpose.
 */
export const TARGET_TOKEN_VAR = "WIRECOST_TARGET_TOKEN";

/** A token as {@link TARGET_TOKEN_VAR} holds it: 32 hex digits. */
export const TARGET_TOKEN = /^[0-9a-f]{32}$/;

/**
 * Pids of the live processes (other than this one) whose initial environment
 * (`/proc/<pid>/environ`) holds `WIRECOST_TARGET_TOKEN=<token>` for one of `tokens`: what a target
 * started, wherever it was re-parented. Only this user's processes can be read; none elsewhere
 * than Linux. One pass over /proc for all tokens.
 */
export function tokenHolders(tokens: readonly string[]): number[] {
  const wanted = new Set(tokens.filter((t) => TARGET_TOKEN.test(t)).map((t) => `${TARGET_TOKEN_VAR}=${t}`));
  if (wanted.size === 0) return [];
  const out: number[] = [];
  for (const pid of otherPids()) {
    try {
      if (
        readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .some((kv) => wanted.has(kv))
      )
        out.push(pid);
    } catch {
      /* gone, or another user's */
    }
  }
  return out;
}

/** The inodes of the sockets process `pid` holds open (`/proc/<pid>/fd/*` naming `socket:[INODE]`); none when it is gone. */
export function socketInodes(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.push(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}
