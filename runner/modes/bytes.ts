/**
 * Mode `bytes` (a matrix without timing or per-call measures): every configuration × repeat is
 * run, `--jobs` at a time, through the relay or tap, and counted (runner/execute/run-matrix.ts
 * orchestrates, runner/results/ writes). Supports resume, shard, jobs and verify; ^C stops
 * gracefully and prints the command that resumes.
 */
import { runMatrix } from "../execute/run-matrix.js";
import { ownAndChildrenCpuSeconds } from "../measure/cpu.js";
import type { RunRecord } from "../results/schema.js";
import type { RunMode } from "./types.js";
import { runCommandLine } from "./commands.js";

/** A one-screen summary of failed runs: at most `max` lines, grouped by configuration. */
export function failureSummary(failed: readonly RunRecord[], max = 12): string[] {
  const lines = failed
    .slice(0, max)
    .map((f) => `  ${f.status} ${f.config} #${f.repeat}${f.exit ? ` (exit ${f.exit})` : ""}: ${f.error.length > 160 ? f.error.slice(0, 157) + "…" : f.error}`);
  if (failed.length > max) lines.push(`  … and ${failed.length - max} more (see runs.tsv)`);
  return lines;
}

/** The bytes mode. */
export const bytesMode: RunMode = {
  name: "bytes",
  measures: "byte counts",
  marker: "summary",
  claims: () => true,
  supports: { resume: true, shard: true, jobs: true, verify: true, strict: true },
  interrupt: "graceful",
  async run(matrix, file, o) {
    const started = Date.now();
    const { runs, failed, skippedTargets, interrupted, left, written } = await runMatrix(matrix, o);
    const again = { repeats: o.repeats, shard: o.shard, results: o.results, resume: true, skipMissingToolchains: o.skipMissingToolchains };
    if (interrupted && !written) {
      // Stopped while targets were built: the folder is as it was, so the same command starts again.
      process.stderr.write(`interrupted before the first run (while building targets): nothing written to ${o.results}/\n`);
      process.stderr.write(`run again: ${runCommandLine(this, file, { ...again, only: o.only, resume: o.resume === true, fresh: o.fresh })}\n`);
      return 130;
    }
    if (interrupted) {
      process.stderr.write(`interrupted: ${runs.length} runs written to ${o.results}/, ${left} left\n`);
      process.stderr.write(`resume: ${runCommandLine(this, file, { ...again, only: o.only })}\n`);
      return 130;
    }
    const cpu = ownAndChildrenCpuSeconds();
    const cpuNote = cpu
      ? ` in ${((Date.now() - started) / 1000).toFixed(1)} s (CPU: wirecost ${cpu.own.toFixed(1)} s, the targets it started ${cpu.children.toFixed(1)} s)`
      : "";
    const skipped = runs.filter((r) => r.status === "skipped").length;
    process.stderr.write(
      `${runs.length - failed.length - skipped} of ${runs.length} runs ok${skipped ? `, ${skipped} skipped` : ""}${cpuNote}; results in ${o.results}/\n`,
    );
    for (const why of skippedTargets.values()) process.stderr.write(`  skipped: ${why}\n`);
    if (!failed.length) return 0;
    for (const line of failureSummary(failed)) process.stderr.write(line + "\n");
    process.stderr.write(`rerun them: ${runCommandLine(this, file, { ...again, only: [...new Set(failed.map((f) => f.config))] })}\n`);
    return 1;
  },
};
