/** `wirecost run`: run a matrix and print what failed with the command to rerun it. */
import { runMatrix } from "../../runner/execute/run-matrix.js";
import { loadMatrix } from "../../runner/matrix/parse.js";

/** Run `file`; exit code 1 when any run was not ok. */
export async function runCommand(file: string, o: { only: string[]; repeats?: number; jobs?: number; results: string }): Promise<void> {
  const m = loadMatrix(file);
  const { runs, failed } = await runMatrix(m, { ...o, command: ["wirecost", ...process.argv.slice(2)].join(" ") });
  process.stderr.write(`${runs.length - failed.length} of ${runs.length} runs ok; results in ${o.results}/\n`);
  if (failed.length) {
    for (const f of failed.slice(0, 20)) process.stderr.write(`  ${f.status} ${f.config} #${f.repeat}: ${f.error}\n`);
    const ids = [...new Set(failed.map((f) => f.config))];
    process.stderr.write(`rerun them: npx wirecost run ${file} ${ids.map((i) => `--only ${i}`).join(" ")}\n`);
    process.exitCode = 1;
  }
}
