/**
 * `wirecost run`: run a matrix; print what failed with the command to rerun it. The first ^C
 * (SIGINT) or SIGTERM stops scheduling, stops the running targets, writes the finished runs and
 * prints the command that resumes (exit 130); a second one kills every target group at once.
 */
import { runMatrix } from "../../runner/execute/run-matrix.js";
import { killAllTargets } from "../../runner/targets/process.js";
import { ownAndChildrenCpuSeconds } from "../../runner/measure/cpu.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { runTimingCommand, timingOptions } from "../../runner/execute/measure-run.js";
import type { RunRecord } from "../../runner/results/schema.js";
import { percallOptions } from "../../runner/percall/options.js";
import { runPercallCommand } from "../../runner/percall/command.js";
import { shellQuote as sh } from "../../runner/results/shell.js";

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
}

/** The options that select the same runs again (matrix, repeats, shard, results). */
function sameRun(file: string, o: RunCommandOptions): string[] {
  return [file, ...(o.repeats !== undefined ? ["--repeats", String(o.repeats)] : []), ...(o.shard ? ["--shard", o.shard] : []), "--results", o.results];
}

/** A one-screen summary of failed runs: at most `max` lines, grouped by configuration. */
export function failureSummary(failed: readonly RunRecord[], max = 12): string[] {
  const lines = failed.slice(0, max).map((f) => `  ${f.status} ${f.config} #${f.repeat}${f.exit ? ` (exit ${f.exit})` : ""}: ${f.error.length > 160 ? f.error.slice(0, 157) + "…" : f.error}`);
  if (failed.length > max) lines.push(`  … and ${failed.length - max} more (see runs.tsv)`);
  return lines;
}

/** Run `file`; exit code 1 when any run was not ok, 130 when interrupted. */
export async function runCommand(file: string, o: RunCommandOptions): Promise<void> {
  const m = loadMatrix(file);
  const percall = percallOptions(m);
  if (percall) return void (process.exitCode = await runPercallCommand(m, percall, file, o)); // measures: [percall]: runner/percall/
  if (timingOptions(m)) return void (process.exitCode = await runTimingCommand(m, o)); // timing runs: runner/execute/measure-run.ts
  const started = Date.now();
  const ac = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (++signals === 1) {
      ac.abort(sig);
      return;
    }
    killAllTargets();
    process.stderr.write(`\n${sig} again: killed every target; finished runs are in ${o.results}/runs/\n`);
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", killAllTargets);
  try {
    const { runs, failed, skippedTargets, interrupted, left } = await runMatrix(m, { ...o, signal: ac.signal, command: ["wirecost", ...process.argv.slice(2)].join(" ") });
    if (interrupted) {
      process.stderr.write(`interrupted: ${runs.length} runs written to ${o.results}/, ${left} left\n`);
      process.stderr.write(`resume: npx wirecost run ${[...sameRun(file, o), ...o.only.flatMap((p) => ["--only", p]), "--resume"].map(sh).join(" ")}\n`);
      process.exitCode = 130;
      return;
    }
    const cpu = ownAndChildrenCpuSeconds();
    const cpuNote = cpu ? ` in ${((Date.now() - started) / 1000).toFixed(1)} s (CPU: wirecost ${cpu.own.toFixed(1)} s, the targets it started ${cpu.children.toFixed(1)} s)` : "";
    const skipped = runs.filter((r) => r.status === "skipped").length;
    process.stderr.write(`${runs.length - failed.length - skipped} of ${runs.length} runs ok${skipped ? `, ${skipped} skipped` : ""}${cpuNote}; results in ${o.results}/\n`);
    for (const why of skippedTargets.values()) process.stderr.write(`  skipped: ${why}\n`);
    if (failed.length) {
      for (const line of failureSummary(failed)) process.stderr.write(line + "\n");
      const ids = [...new Set(failed.map((f) => f.config))];
      process.stderr.write(`rerun them: npx wirecost run ${[...sameRun(file, o), ...ids.flatMap((i) => ["--only", i]), "--resume"].map(sh).join(" ")}\n`);
      process.exitCode = 1;
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
