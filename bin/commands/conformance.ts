/**
 * `wirecost conformance [MATRIX] [--target NAME]... [--results DIR]`: the official MCP conformance
 * suite against the HTTP server of each target (runner/conformance/run.ts), its verdicts written
 * atomically to `DIR/conformance.tsv` (format/conformance.ts) for the wire report's conformance
 * section; one line per target and a total on stderr. Failing scenarios are findings: the exit
 * status is 0 when every target was tested.
 */
import { conformanceTsv } from "../../format/conformance.js";
import { counted } from "../../format/plural.js";
import { writeAtomic } from "../../format/files.js";
import { resultsFile } from "../../format/layout.js";
import { runConformance } from "../../runner/conformance/run.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { lockResults } from "../../runner/results/lock.js";

/** Options of `wirecost conformance` as commander parses them. */
export interface ConformanceCommandOptions {
  target: string[];
  results: string;
}

/**
 * Run the suite against the targets of matrix `file` and write `conformance.tsv` into `o.results`.
 * @throws UserError for a bad matrix, an unknown target or one without an http command, a failed
 *   build, or a results folder another wirecost process holds
 */
export async function conformanceCommand(file: string, o: ConformanceCommandOptions): Promise<void> {
  const m = loadMatrix(file);
  const names = o.target.length ? o.target : Object.keys(m.targets).filter((n) => m.targets[n]!.commands.http !== undefined);
  const lock = lockResults(o.results, { option: "--results", command: ["wirecost", ...process.argv.slice(2)].join(" ") });
  try {
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const rows = await runConformance(m, names, log);
    writeAtomic(resultsFile(o.results, "conformance"), conformanceTsv(rows));
    const count = (v: string) => rows.filter((r) => r.verdict === v).length;
    log(
      `wrote ${resultsFile(o.results, "conformance")}: ${counted(rows.length, "scenario run")} on ${counted(names.length, "target")}, ${count("passed")} passed, ${count("failed")} failed, ${count("not applicable")} not applicable`,
    );
  } finally {
    lock.release();
  }
}
