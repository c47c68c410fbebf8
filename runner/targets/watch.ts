/**
 * Targets never outlive wirecost (README, "What wirecost promises"). Two guards, for every target
 * language and every way a target is started (runner/targets/process.ts startTarget, the Python
 * fork servers included):
 *
 * 1. A watchdog on a pipe: the first target a wirecost process starts also starts one small
 *    watchdog process (`runner/targets/watchdog.ts`, in a session of its own, so no terminal
 *    signal or process-group kill meant for wirecost reaches it) whose stdin is a pipe from
 *    wirecost. wirecost writes `+PGID START PIPES TOKEN` for each target process group it starts
 *    (PIPES: its stdio pipes as /proc names them, comma-separated, `-` for none; TOKEN: the
 *    target's WIRECOST_TARGET_TOKEN, `-` for none) and `-PGID` when it has stopped it. When the
 *    pipe's write end closes — wirecost exited in any way, `kill -9` included: the kernel closes
 *    it — the watchdog SIGKILLs every group still listed, every process still holding one of its
 *    pipes and every process carrying its token (what left the group, a double-forked daemon
 *    too: runner/targets/strays.ts), and exits. A leader whose pid now belongs to another process (its start time differs) is
 *    left alone.
 * 2. Pid files: while a command holds a results folder's lock, each target it starts is recorded
 *    as `.wirecost-targets/<pid>.json` in the folder (format/layout.ts TARGETS_DIR) and removed
 *    when stopped. The next `run` of that folder (a `--resume` too) stops the groups a dead
 *    writer left (the watchdog killed as well, a reboot) before it starts anything, with the
 *    carriers of their tokens and the holders of their stdio pipes when the machine has not restarted since (pipe numbers start
 *    again at boot): {@link reapTargets}; again only a leader whose start time matches is signalled.
 *
 * Process start times are field 22 of /proc/<pid>/stat (clock ticks since boot): Linux. Where
 * /proc is missing the start time is unknown and a recorded pid is taken as it is.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS_DIR } from "../../format/layout.js";
import { STDIO_PIPE, TARGET_TOKEN, killEach, pipeHolders, tokenHolders } from "./strays.js";

/** The watchdog's script (compiled), started with this Node. */
const WATCHDOG_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "watchdog.js");

/**
 * Start time of process `pid` in clock ticks since boot (/proc/<pid>/stat field 22), undefined
 * when there is no such process or no /proc.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * SIGKILL process group `pgid` unless its leader's pid now names another process: when a process
 * `pgid` lives with another start time than `start`, the group is gone and the pid reused, and
 * nothing is sent. (While any member of the group lives the kernel does not reuse the number for
 * a new process, so a group whose leader is gone is still the target's.)
 * @param start the leader's start time when it was started; undefined: unknown, signal as it is
 * @returns true when the signal was sent to a live group
 */
export function killGroupIfSame(pgid: number, start: string | undefined): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  const now = processStart(pgid);
  if (now !== undefined && start !== undefined && now !== start) return false;
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

let watchdog: ChildProcess | undefined;

/** Send one line to the watchdog, starting it on first use. */
function tell(line: string): void {
  if (!watchdog) {
    // Its own session (detached) and an empty environment: nothing aimed at wirecost's process
    // group or marked by its environment is the watchdog's.
    watchdog = spawn(process.execPath, [WATCHDOG_SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true, env: {} });
    watchdog.on("error", () => {});
    watchdog.stdin!.on("error", () => {});
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  }
  watchdog.stdin!.write(`${line}\n`);
}

/** The results folder whose TARGETS_DIR records the targets started now; undefined: none. */
let recordDir: string | undefined;

/**
 * Record each target started from now on in `dir`'s `.wirecost-targets/` (the results folder
 * this process holds the lock of), or stop recording (`undefined`; the folder is removed when
 * empty). Call it after taking the lock and after {@link reapTargets}.
 */
export function recordTargetsIn(dir: string | undefined): void {
  if (recordDir !== undefined) removeIfEmpty(join(recordDir, TARGETS_DIR));
  recordDir = dir;
}

function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    /* not empty (a target still running) or gone */
  }
}

/** This boot of the machine (/proc/sys/kernel/random/boot_id), undefined where unknown. */
function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}

/** What a pid file holds. */
interface TargetRecord {
  pid: number;
  /** Its start time (/proc/<pid>/stat field 22); absent where unknown. */
  start?: string;
  command: string;
  /** Its stdio pipes (runner/targets/strays.ts stdioPipes), absent where unknown; the boot the record belongs to (/proc/sys/kernel/random/boot_id). */
  pipes?: string[];
  boot?: string;
  /** Its WIRECOST_TARGET_TOKEN (runner/targets/strays.ts), carried by every process it started. */
  token?: string;
}

/**
 * A target process group was started (its leader `pid`): tell the watchdog, and write its pid
 * file when recording. Never throws: a pid file that cannot be written leaves the watchdog as
 * the guard.
 * @param command the target's command line, for the pid file
 * @param pipes its stdio pipes (runner/targets/strays.ts stdioPipes): their holders are killed with the group
 * @param token its WIRECOST_TARGET_TOKEN (32 hex digits): the processes carrying it are killed with the group
 */
export function watchTarget(pid: number, command: string, pipes: readonly string[] = [], token?: string): void {
  const start = processStart(pid);
  const named = pipes.filter((p) => STDIO_PIPE.test(p));
  const tok = token !== undefined && TARGET_TOKEN.test(token) ? token : undefined;
  tell(`+${pid} ${start ?? "-"} ${named.length > 0 ? named.join(",") : "-"} ${tok ?? "-"}`);
  if (recordDir === undefined) return;
  const boot = bootId();
  const rec: TargetRecord = {
    pid,
    ...(start !== undefined ? { start } : {}),
    command,
    ...(boot ? { boot } : {}),
    ...(named.length > 0 && boot ? { pipes: named } : {}),
    ...(tok ? { token: tok } : {}),
  };
  try {
    mkdirSync(join(recordDir, TARGETS_DIR), { recursive: true });
    writeFileSync(join(recordDir, TARGETS_DIR, `${pid}.json`), `${JSON.stringify(rec)}\n`);
  } catch {
    /* the watchdog still guards it */
  }
}

/** The target group `pid` was stopped: tell the watchdog, remove its pid file. */
export function unwatchTarget(pid: number): void {
  if (watchdog) tell(`-${pid}`);
  if (recordDir === undefined) return;
  try {
    unlinkSync(join(recordDir, TARGETS_DIR, `${pid}.json`));
  } catch {
    /* not recorded here */
  }
  removeIfEmpty(join(recordDir, TARGETS_DIR));
}

/**
 * Stop the targets a dead writer of results folder `dir` left running: for each pid file
 * `dir/.wirecost-targets/<pid>.json` of this boot that names its pid and its leader's start time,
 * SIGKILL the process group whose leader is the process recorded (same start time) or gone (its
 * group may live on), the processes carrying its recorded token (a double-forked daemon of the
 * target too) and the processes holding its recorded stdio pipes; then remove those files
 * (other files there are left) and the folder when empty. Call it only while holding the
 * folder's lock: every pid file there is then a dead writer's.
 * @returns the pids of the groups signalled
 */
export function reapTargets(dir: string): number[] {
  const folder = join(dir, TARGETS_DIR);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const reaped: number[] = [];
  const boot = bootId();
  for (const name of names) {
    // Only the files wirecost writes there (<pid>.json); anything else is left alone.
    const named = /^(\d+)\.json$/.exec(name);
    if (!named) continue;
    const file = join(folder, name);
    let rec: Partial<TargetRecord> | undefined;
    try {
      rec = JSON.parse(readFileSync(file, "utf8")) as Partial<TargetRecord>;
    } catch {
      rec = undefined;
    }
    // A record of this boot, naming the pid of its file name and the leader's start time: one a run
    // here wrote. A record copied from another machine or boot, or forged without them, signals nothing.
    const trusted = rec !== undefined && rec.pid === Number(named[1]) && typeof rec.start === "string" && boot !== undefined && rec.boot === boot;
    if (trusted && killGroupIfSame(rec!.pid!, rec!.start)) reaped.push(rec!.pid!);
    if (trusted && typeof rec!.token === "string") killEach(tokenHolders([rec!.token]));
    if (trusted && Array.isArray(rec!.pipes)) killEach(pipeHolders(rec!.pipes.filter((p) => typeof p === "string" && STDIO_PIPE.test(p))));
    try {
      unlinkSync(file);
    } catch {
      /* gone */
    }
  }
  removeIfEmpty(folder);
  return reaped.sort((a, b) => a - b);
}
