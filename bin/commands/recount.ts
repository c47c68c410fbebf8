/** `wirecost recount --results DIR`: recount a bytes results folder from its kept capture logs; exit 1 when a run's counts changed. */
import { recountResults } from "../../runner/results/recount.js";
import { lockResults } from "../../runner/results/lock.js";
import { refuseOddEntries } from "../../format/files.js";

/** Recount `o.results` (locked while its messages.tsv files are rewritten: runner/results/lock.ts) and print what differs from the journal. */
export function recountCommand(o: { results: string }): void {
  let last = Date.now();
  const lock = lockResults(o.results, { option: "--results", command: ["wirecost", ...process.argv.slice(2)].join(" ") });
  let r: ReturnType<typeof recountResults>;
  try {
    refuseOddEntries(o.results);
    r = recountResults(o.results, (done, total) => {
      if (Date.now() - last < 5000 && done < total) return;
      last = Date.now();
      process.stderr.write(`recount: ${done}/${total} configurations\n`);
    });
  } finally {
    lock.release();
  }
  process.stderr.write(
    `recounted ${r.recounted} run(s) in ${o.results}/ (messages.tsv rewritten)${r.completed ? `; ${r.completed} journal record(s) completed with new columns or anomalies, runs.tsv, summary.tsv and medians.tsv rebuilt` : ""}${r.withoutLog ? `; ${r.withoutLog} ok run(s) have no kept capture log` : ""}\n`,
  );
  if (r.differences.length) {
    for (const d of r.differences.slice(0, 20)) process.stderr.write(`  differs: ${d}\n`);
    if (r.differences.length > 20) process.stderr.write(`  … ${r.differences.length} runs in all\n`);
    process.stderr.write(`the journal still holds the counts of the original runs; re-run the matrix to record the new counts\n`);
    process.exitCode = 1;
  }
}
