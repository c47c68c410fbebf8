/**
 * Registry of run modes, by what a matrix's `measures:` asks for. Adding a mode is one file and
 * one entry. Every `wirecost run` goes through {@link runWithMode}: one place that refuses options
 * a mode does not support, handles ^C and SIGTERM, and builds the commands printed back.
 */
import { existsSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { resultsFile } from "../../format/layout.js";
import type { Matrix } from "../matrix/types.js";
import { killAllTargets } from "../targets/process.js";
import { bytesMode } from "./bytes.js";
import { percallMode } from "./percall.js";
import { timingMode } from "./timing.js";
import { runCommandLine } from "./commands.js";
import type { ModeRunOptions, RunMode } from "./types.js";

export type { ModeRunOptions, ModeSupport, RunMode } from "./types.js";
export { runCommandLine, type CommandParts } from "./commands.js";

/** Run modes, in the order asked; the last (bytes) claims every matrix the others leave. */
export const RUN_MODES: readonly RunMode[] = [percallMode, timingMode, bytesMode];

/**
 * The mode that runs `matrix`.
 * @throws UserError from a mode's own reading of `measures:` (an unknown measure)
 */
export function modeOf(matrix: Matrix): RunMode {
  return RUN_MODES.find((m) => m.claims(matrix)) ?? bytesMode;
}

/** The mode whose results a folder holds (by its marker file), undefined when none. */
export function modeOfResults(dir: string): RunMode | undefined {
  return RUN_MODES.find((m) => existsSync(resultsFile(dir, m.marker)));
}

/**
 * Refuse the options of `o` that `mode` does not support, in one line naming the option, the
 * mode and what to do instead.
 * @throws UserError
 */
export function checkModeOptions(mode: RunMode, file: string, o: Pick<ModeRunOptions, "shard" | "resume" | "jobs" | "results" | "only">): void {
  const given: [flag: string, on: boolean, supported: boolean][] = [
    ["--shard", o.shard !== undefined, mode.supports.shard],
    ["--resume", o.resume === true, mode.supports.resume],
    ["--jobs", o.jobs !== undefined, mode.supports.jobs],
  ];
  for (const [flag, on, supported] of given) {
    if (on && !supported) {
      throw new UserError(
        `${flag}: ${file} is a ${mode.name} matrix (it measures ${mode.measures}), which runs its configurations one at a time in one process — drop ${flag}; to run part of it: ${runCommandLine(mode, file, { only: ["<id>"], results: o.results })}`,
      );
    }
  }
}

/**
 * Run `matrix` with its mode: check the options, then run with one signal handling for all
 * modes. The first ^C or SIGTERM aborts a graceful mode (it writes what finished and prints how
 * to resume) or kills the targets and exits 130 for an immediate one; a second kills every
 * target group and exits 130 at once.
 * @returns the exit code the mode returned
 * @throws UserError as {@link checkModeOptions} and the mode's run
 */
export async function runWithMode(matrix: Matrix, file: string, o: Omit<ModeRunOptions, "signal" | "command">): Promise<number> {
  const mode = modeOf(matrix);
  checkModeOptions(mode, file, o);
  const ac = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (++signals === 1 && mode.interrupt === "graceful") {
      ac.abort(sig);
      return;
    }
    killAllTargets();
    process.stderr.write(`\n${sig}: stopped every target; ${signals === 1 ? (mode.interruptNote ?? "") : `finished runs are in ${o.results}/`}\n`);
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", killAllTargets);
  try {
    return await mode.run(matrix, file, { ...o, signal: ac.signal, command: ["wirecost", ...process.argv.slice(2)].join(" ") });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", killAllTargets);
  }
}
