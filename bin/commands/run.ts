/**
 * `wirecost run`: run a matrix with its mode (runner/modes/): the mode checks the options, runs,
 * and prints what failed with the command to rerun it; ^C and SIGTERM are handled there.
 */
import { loadMatrix } from "../../runner/matrix/parse.js";
import { runWithMode } from "../../runner/modes/index.js";

/** Options of `wirecost run` as commander parses them. */
export interface RunCommandOptions {
  only: string[];
  repeats?: number;
  jobs?: number;
  results: string;
  shard?: string;
  resume?: boolean;
  fresh?: boolean;
  skipMissingToolchains?: boolean;
  strict?: boolean;
}

/** Run `file`; exit code 1 when any run was not ok, 130 when interrupted. */
export async function runCommand(file: string, o: RunCommandOptions): Promise<void> {
  process.exitCode = await runWithMode(loadMatrix(file), file, o);
}
