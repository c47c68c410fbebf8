/**
 * `wirecost verify`: re-run (all or `--only`) configurations into a scratch folder, compare with
 * a results folder cell by cell, print the mismatches and `N of M cells reproduced`; exit 1 on
 * any mismatch, 130 when interrupted. Only a mode that declares `verify` (bytes) is verified; for
 * the others, and for a results folder of another matrix, it prints the command that does work.
 */
import { resolve } from "node:path";
import { verifyResults } from "../../runner/execute/verify.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { handleInterrupts, modeOf, modeOfResults, runCommandLine } from "../../runner/modes/index.js";
import { resultKind } from "../../format/kinds.js";
import { lockResults } from "../../runner/results/lock.js";
import { recordedMatrix } from "../../format/layout.js";
import { shellQuote } from "../../format/shell.js";
import { toTsv } from "../../format/tsv.js";
import { UserError } from "../../format/errors.js";
import { refuseForeignFolder, refuseNestedFolders, refuseOddEntries } from "../../format/files.js";

/** Options of `wirecost verify` as commander parses them. */
export interface VerifyCommandOptions {
  only: string[];
  results: string;
  scratch?: string;
  repeats?: number;
  jobs?: number;
}

/**
 * Refuse a verification that cannot work, with the command that does.
 * @throws UserError when `o.results` holds results of another mode or another matrix, or the matrix's mode does not verify
 */
export function checkVerifiable(file: string, o: VerifyCommandOptions): void {
  const recorded = recordedMatrix(o.results);
  const held = modeOfResults(o.results);
  if (held !== undefined && !held.supports.verify) {
    const matrix = recorded ?? "MATRIX";
    throw new UserError(
      `${o.results}: holds ${resultKind(held.kind).noun} results (${held.measures}) of ${matrix}, which verify does not compare (it compares byte counts) — re-measure into a scratch folder and compare by eye: ${runCommandLine(held, matrix, { results: "/tmp/wirecost-remeasure" })}`,
    );
  }
  if (recorded !== undefined && resolve(recorded) !== resolve(file)) {
    throw new UserError(
      `${o.results}: was run from ${recorded}, not ${file} — verify it with its own matrix: npx wirecost verify ${shellQuote(recorded)} --results ${shellQuote(o.results)}`,
    );
  }
}

/**
 * Verify `opts.results` against a re-run of matrix `file`.
 * @throws UserError for a bad matrix, a matrix or results folder that verify does not compare (see checkVerifiable)
 */
export async function verifyCommand(file: string, o: VerifyCommandOptions): Promise<void> {
  refuseOddEntries(o.results);
  checkVerifiable(file, o);
  const m = loadMatrix(file);
  const mode = modeOf(m);
  if (!mode.supports.verify)
    throw new UserError(
      `${file}: a ${resultKind(mode.kind).noun} matrix (it measures ${mode.measures}), which verify does not compare — re-measure one row into a scratch folder: ${runCommandLine(mode, file, { only: ["<id>"], results: "/tmp/wirecost-<id>" })}`,
    );
  const interrupts = handleInterrupts({ graceful: true, again: "nothing compared" });
  if (o.scratch !== undefined) refuseNestedFolders({ option: "--scratch", path: o.scratch }, [{ name: "results folder", path: o.results }]);
  // A --scratch folder the user named is written like a results folder: one writer at a time.
  const lock = o.scratch === undefined ? undefined : lockResults(o.scratch, { option: "--scratch", command: ["wirecost", ...process.argv.slice(2)].join(" ") });
  let r: Awaited<ReturnType<typeof verifyResults>>;
  try {
    if (o.scratch !== undefined) {
      refuseOddEntries(o.scratch);
      refuseForeignFolder(o.scratch, "--scratch");
    }
    r = await verifyResults(m, { ...o, signal: interrupts.signal });
  } finally {
    lock?.release();
    interrupts.dispose();
  }
  if (r.run.interrupted) {
    process.stderr.write(`interrupted: nothing compared; the partial re-run is in ${r.scratch}/\n`);
    process.exitCode = 130;
    return;
  }
  if (r.mismatches.length) {
    process.stdout.write(
      toTsv(
        ["config", "metric", "committed", "fresh", "reason"],
        r.mismatches.map((x) => [x.config, x.metric, x.committed, x.fresh, x.reason]),
      ),
    );
  }
  process.stdout.write(
    `${r.reproduced} of ${r.cells} cells reproduced${r.uncompared ? ` (${r.uncompared} timing cells not compared: no tolerance declared)` : ""}; re-run in ${r.scratch}/\n`,
  );
  if (r.mismatches.length) process.exitCode = 1;
}
