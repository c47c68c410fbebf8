/**
 * `wirecost verify`: re-run (all or `--only`) configurations into a scratch folder, compare with
 * a results folder cell by cell, print the mismatches and `N of M cells reproduced`; exit 1 on
 * any mismatch, 130 when interrupted.
 */
import { killAllTargets } from "../../runner/targets/process.js";
import { verifyResults } from "../../runner/execute/verify.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { toTsv } from "../../runner/results/files.js";
import { percallOptions } from "../../runner/percall/options.js";
import { UserError } from "../../runner/errors.js";

/** Options of `wirecost verify` as commander parses them. */
export interface VerifyCommandOptions {
  only: string[];
  results: string;
  scratch?: string;
  repeats?: number;
  jobs?: number;
}

/**
 * Verify `opts.results` against a re-run of matrix `file`.
 * @throws UserError for a bad matrix, or a per-call matrix (timings, compared by eye: its rows print their reproduce command)
 */
export async function verifyCommand(file: string, o: VerifyCommandOptions): Promise<void> {
  const m = loadMatrix(file);
  if (percallOptions(m)) throw new UserError(`${file}: measures: [percall] measures time, which verify does not compare — re-measure one row with its command in the report's Reproduce table (npx wirecost run ${file} --only <id> --results /tmp/wirecost-<id>)`);
  const ac = new AbortController();
  const onSignal = () => (ac.signal.aborted ? (killAllTargets(), process.exit(130)) : ac.abort());
  process.on("SIGINT", onSignal);
  process.on("exit", killAllTargets);
  const r = await verifyResults(m, { ...o, signal: ac.signal });
  process.off("SIGINT", onSignal);
  if (r.run.interrupted) {
    process.stderr.write(`interrupted: nothing compared; the partial re-run is in ${r.scratch}/\n`);
    process.exitCode = 130;
    return;
  }
  if (r.mismatches.length) {
    process.stdout.write(toTsv(["config", "metric", "committed", "fresh", "reason"], r.mismatches.map((x) => [x.config, x.metric, x.committed, x.fresh, x.reason])));
  }
  process.stdout.write(`${r.reproduced} of ${r.cells} cells reproduced${r.uncompared ? ` (${r.uncompared} timing cells not compared: no tolerance declared)` : ""}; re-run in ${r.scratch}/\n`);
  if (r.mismatches.length) process.exitCode = 1;
}
