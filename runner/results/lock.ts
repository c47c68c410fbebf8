/**
 * The lock of a results folder: one wirecost process writes a folder at a time. The writer
 * creates `.wirecost-lock` (format/layout.ts) inside the folder atomically (O_CREAT | O_EXCL)
 * before it writes anything, with its pid, host, start time and command; a second writer is
 * refused with the first one's pid. The lock goes when its process ends, ^C and process.exit
 * included (an `exit` listener). A lock whose process is gone (killed with SIGKILL, the machine
 * rebooted) is stale: the next writer takes it over and says so. A pid that was reused by another
 * process is told apart by the process start time the lock records (Linux, /proc).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { fileSystemError, UserError } from "../../format/errors.js";
import { makeFolder } from "../../format/files.js";
import { lockPath } from "../../format/layout.js";
import { processStart as procStart } from "../targets/watch.js";

/** What `.wirecost-lock` holds (JSON). */
export interface LockRecord {
  pid: number;
  host: string;
  /** When the writer started, ISO 8601 UTC. */
  startedAt: string;
  /** The writer's command line, for the message that refuses a second writer. */
  command: string;
  /** The writer's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); absent off Linux. */
  procStart?: string;
}

/** A held lock. */
export interface ResultsLock {
  /** The lock file. */
  path: string;
  /** Remove the lock (only while it is still this process's), and the folder when this lock created it and it is still empty. Safe to call twice. */
  release(): void;
}

/** Is `pid` a live process (not a zombie)? Another user's process counts as live. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: kill(0) said it is there
  }
}

/**
 * Is the writer that left `rec` still running? A lock of another host cannot be checked and
 * counts as live; a lock that does not parse counts as stale.
 */
export function lockHolderAlive(rec: LockRecord | undefined): boolean {
  if (!rec || !Number.isInteger(rec.pid) || rec.pid <= 0) return false;
  if (rec.host !== hostname()) return true;
  if (!pidAlive(rec.pid)) return false;
  const now = procStart(rec.pid);
  return rec.procStart === undefined || now === undefined || now === rec.procStart;
}

/** The lock record of this process (pid, host, start time now, `command`, its /proc start time where known). */
export function thisProcessLockRecord(command: string): LockRecord {
  const started = procStart(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command,
    ...(started !== undefined ? { procStart: started } : {}),
  };
}

/**
 * The record of the lock at `path`; undefined when it is absent, does not parse, or is not a plain
 * file (opened without waiting and without following a link: a FIFO there would keep a reader
 * waiting forever, deaf to ^C, since the read blocks the event loop).
 */
export function readLock(path: string): LockRecord | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    return JSON.parse(readFileSync(fd, "utf8")) as LockRecord;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * What the entry at `path` is when it is neither a plain file nor a folder (`a symbolic link`,
 * `a FIFO`, `a socket`, `a device`); undefined for a plain file, a folder or nothing.
 */
function oddLockEntry(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    if (st.isFile() || st.isDirectory()) return undefined;
    return st.isSymbolicLink() ? "a symbolic link" : st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : "a device";
  } catch {
    return undefined;
  }
}

/**
 * Lock results folder `dir` for this process, creating the folder when it is missing.
 * @param o `option`: how the user named the folder (`--results`, `--scratch`), for the messages;
 *   `command`: this process's command line, recorded in the lock; `note`: where the line that a
 *   stale lock was taken over goes (default stderr)
 * @returns the held lock; it is also released when the process exits
 * @throws UserError when another live wirecost process holds the folder (naming its pid, start
 *   time and command), when `.wirecost-lock` is a symbolic link, FIFO, socket or device (never
 *   read, never removed), or the folder or the lock cannot be created or written (read-only, no
 *   permission, a file in the way, a full disk: one line naming the option, the path and the fix;
 *   a lock this call created is removed, and the folders this call created, while empty)
 */
export function lockResults(dir: string, o: { option: string; command: string; note?: (line: string) => void }): ResultsLock {
  const named = { option: o.option, path: dir };
  let made: string[];
  try {
    made = makeFolder(dir);
  } catch (e) {
    throw fileSystemError(e, named) ?? e;
  }
  const path = lockPath(dir);
  const rec = thisProcessLockRecord(o.command);
  const text = `${JSON.stringify(rec, null, 2)}\n`;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw fileSystemError(e, named) ?? e;
      const odd = oddLockEntry(path);
      if (odd !== undefined) {
        // Not a lock wirecost wrote: never read (a FIFO blocks), never removed (not ours).
        throw new UserError({
          file: path,
          problem: `${odd} where wirecost keeps the folder's lock, not a lock it wrote`,
          fix: `remove it, or pass ${o.option} another folder`,
        });
      }
      const held = readLock(path);
      if (lockHolderAlive(held) || attempt > 0) {
        const by = held
          ? `wirecost pid ${held.pid}${held.host !== rec.host ? ` on ${held.host}` : ""}, started ${held.startedAt}: ${held.command}`
          : "another wirecost run";
        throw new UserError(
          `${o.option} ${dir}: is being written by ${by} — wait for it to finish, or pass ${o.option} another folder (if no such run is left, remove ${path})`,
        );
      }
      // Stale: its writer is gone. Take it over, unless it changed since it was read (another
      // writer took it over first; the next attempt then sees that writer's lock).
      const again = readLock(path);
      if (JSON.stringify(again) === JSON.stringify(held)) {
        try {
          unlinkSync(path);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw fileSystemError(err, named) ?? err;
        }
        (o.note ?? ((l: string) => process.stderr.write(`${l}\n`)))(
          `note: ${dir}: took over the lock of wirecost pid ${held?.pid ?? "?"}${held?.startedAt ? ` (started ${held.startedAt})` : ""}, which is no longer running`,
        );
      }
      continue;
    }
    try {
      writeSync(fd, text);
    } catch (e) {
      // A full disk: the empty lock goes (this process made it), and the folder when this call made it.
      closeSync(fd);
      removeLock(path, made);
      const err = e as NodeJS.ErrnoException;
      err.path ??= path; // a write on a descriptor carries no path
      throw fileSystemError(err, named) ?? err;
    }
    closeSync(fd);
    break;
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readLock(path)?.pid !== process.pid) return; // not ours any more (removed by hand and taken)
    removeLock(path, made);
  };
  process.on("exit", release);
  return { path, release };
}

/**
 * Remove lock file `path`, then the folders `made` (outermost first) from the innermost out while
 * each is empty; quiet (on the way out, or after a failed write).
 */
function removeLock(path: string, made: readonly string[]): void {
  try {
    unlinkSync(path);
    for (const dir of [...made].reverse()) {
      if (readdirSync(dir).length !== 0) break;
      rmdirSync(dir);
    }
  } catch {
    /* gone already, or the folder was made read-only meanwhile: nothing to do on the way out */
  }
}
