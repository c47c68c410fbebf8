import { join } from "node:path";
import { UserError } from "../../format/errors.js";
import { refuseForeignFolder, refuseOddEntries } from "../../format/files.js";
import { resultKind, resultKindOf } from "../../format/kinds.js";
import { shellQuote } from "../../format/shell.js";
import type { Matrix } from "../matrix/types.js";
import { killAllTargets } from "../targets/process.js";
import { reapTargets, recordTargetsIn } from "../targets/watch.js";
import { lockResults } from "../results/lock.js";
import { bytesMode } from "./bytes.js";
import { percallMode } from "./percall.js";
import { timingMode } from "./timing.js";
import { runCommandLine } from "./commands.js";
import type { ModeRunOptions, RunMode } from "./types.js";

export type { ModeRunOptions, ModeSupport, RunMode } from "./types.js";
export { runCommandLine, type CommandParts } from "./commands.js";
export { bytesMode };

/** Run modes, in the order asked; the last (bytes) claims every matrix the others leave. */
export const RUN_MODES: readonly RunMode[] = [percallMode, timingMode, bytesMode];

/**
 * The mode that runs `matrix`.
 * @throws UserError from a mode's own reading of `measures:` (an unknown measure)
 */
export function modeOf(matrix: Matrix): RunMode {
  return RUN_MODES.find((m) => m.claims(matrix)) ?? bytesMode;
}

/**
 * The mode whose results a folder holds (format/kinds.ts resultKindOf), undefined when none.
 * @throws UserError when the folder holds two kinds of results
 */
export function modeOfResults(dir: string): RunMode | undefined {
  const kind = resultKindOf(dir);
  return RUN_MODES.find((m) => m.kind === kind);
}

/**
 * Refuse the options of `o` that `mode` does not support, in one line naming the option, the
 * mode and what to do instead; and `--resume` with `--fresh`, which contradict each other.
 * @throws UserError
 */
export function checkModeOptions(
  mode: RunMode,
  file: string,
  o: Pick<ModeRunOptions, "shard" | "resume" | "fresh" | "jobs" | "results" | "only" | "strict">,
): void {
  if (o.resume === true && o.fresh === true)
    throw new UserError(`--resume and --fresh contradict each other: --resume keeps the runs already in ${o.results}, --fresh drops them — pass one of them`);
  const given: [flag: string, on: boolean, supported: boolean][] = [
    ["--shard", o.shard !== undefined, mode.supports.shard],
    ["--resume", o.resume === true, mode.supports.resume],
    ["--jobs", o.jobs !== undefined, mode.supports.jobs],
    ["--strict", o.strict === true, mode.supports.strict],
  ];
  for (const [flag, on, supported] of given) {
    if (on && !supported) {
      throw new UserError(
        `${flag}: ${file} is a ${resultKind(mode.kind).noun} matrix (it measures ${mode.measures}), ${flag === "--strict" ? "which counts no bytes" : "which runs its configurations one at a time in one process"} — drop ${flag}; to run part of it: ${runCommandLine(mode, file, { only: ["<id>"], results: o.results })}`,
      );
    }
  }
}

/** The abort signal of a process that runs targets, and how to stop listening (see {@link handleInterrupts}). */
export interface InterruptHandling {
  /** Aborted by the first ^C or SIGTERM when `graceful`. */
  signal: AbortSignal;
  /**
   * Stop listening for the signals. After an interrupt the process must end at once: when
   * something still keeps the event loop alive a second later (a timer of a library that was
   * not cleared), the process exits with its exit code (130 unless set) instead of sitting idle.
   */
  dispose(): void;
}

/**
 * The one signal handling of every command that runs targets (`wirecost run` in each mode,
 * `wirecost verify`). SIGHUP (the terminal or ssh session closed) is handled as SIGTERM is. The
 * first ^C or SIGTERM aborts the returned signal when `graceful` (the
 * caller stops, writes what finished and prints how to go on), or kills every target group,
 * prints `note` and exits 130 when not; a second one kills every target group, prints `again`
 * and exits 130 at once. Targets left alive at exit are killed (an `exit` listener).
 * @param o `graceful`: how the first signal acts; `note`: what was kept, printed on an immediate
 *   interrupt; `again`: what was kept, printed on a second signal
 */
export function handleInterrupts(o: { graceful: boolean; note?: string; again: string }): InterruptHandling {
  const ac = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (++signals === 1 && o.graceful) {
      ac.abort(sig);
      return;
    }
    killAllTargets();
    process.stderr.write(`\n${sig}${signals > 1 ? " again" : ""}: stopped every target; ${signals === 1 ? (o.note ?? "") : o.again}\n`);
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("exit", killAllTargets);
  return {
    signal: ac.signal,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      process.off("SIGHUP", onSignal);
      process.off("exit", killAllTargets);
      if (ac.signal.aborted) {
        killAllTargets();
        setTimeout(() => process.exit(process.exitCode ?? 130), 1000).unref();
      }
    },
  };
}

/**
 * For a command that now holds the lock of results folder `dir`: stop the targets a dead writer
 * of the folder left running (runner/targets/watch.ts reapTargets; a `note:` line names them) and
 * record the targets started from now on in the folder.
 */
export function takeOverTargets(dir: string): void {
  const reaped = reapTargets(dir);
  if (reaped.length > 0)
    process.stderr.write(
      `note: ${dir}: stopped ${reaped.length} target process group(s) left running by an earlier wirecost run that died (pid ${reaped.join(", ")})\n`,
    );
  recordTargetsIn(dir);
}

/**
 * Refuse to run `mode` into a folder that holds results of another kind (format/kinds.ts): its
 * files would stand beside the others' and neither would read.
 * @throws UserError naming the folder, what it holds and the fix
 */
function refuseOtherKind(results: string, mode: RunMode, file: string): void {
  const held = resultKindOf(results);
  if (held === undefined || held === mode.kind) return;
  throw new UserError({
    file: results,
    problem: `holds ${resultKind(held).noun} results, and ${file} is a ${resultKind(mode.kind).noun} matrix`,
    fix: `give --results a folder of its own, e.g. ${runCommandLine(mode, file, { results: join(results, "<name>") })}`,
  });
}

/**
 * Run `matrix` with its mode: check the options, lock the results folder (a second run into it is
 * refused naming this one's pid; runner/results/lock.ts), then run with the one signal handling of
 * {@link handleInterrupts}: the first ^C or SIGTERM aborts a graceful mode (it writes what finished
 * and prints how to resume) or kills the targets and exits 130 for an immediate one; a second
 * kills every target group and exits 130 at once. The lock goes on every way out.
 * @returns the exit code the mode returned
 * @throws UserError as {@link checkModeOptions} and the mode's run; when the results folder is
 *   locked by another live run, or cannot be created or written
 */
export async function runWithMode(matrix: Matrix, file: string, o: Omit<ModeRunOptions, "signal" | "command">): Promise<number> {
  const mode = modeOf(matrix);
  checkModeOptions(mode, file, o);
  // Each word quoted as a shell needs it, so the recorded command runs as printed (format/shell.ts).
  const command = ["wirecost", ...process.argv.slice(2)].map(shellQuote).join(" ");
  const interrupts = handleInterrupts({
    graceful: mode.interrupt === "graceful",
    note: mode.interruptNote,
    again: `finished runs are in ${o.results}/`,
  });
  try {
    const lock = lockResults(o.results, { option: "--results", command });
    try {
      refuseOddEntries(o.results);
      refuseForeignFolder(o.results, "--results");
      refuseOtherKind(o.results, mode, file);
      takeOverTargets(o.results);
      return await mode.run(matrix, file, { ...o, signal: interrupts.signal, command });
    } finally {
      recordTargetsIn(undefined);
      lock.release();
    }
  } finally {
    interrupts.dispose();
  }
}
