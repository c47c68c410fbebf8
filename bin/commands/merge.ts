/** `wirecost merge DIR… --results OUT`: merge shard results folders; exit 1 when configurations are missing. */
import { mergeResults } from "../../runner/results/merge.js";
import { lockResults } from "../../runner/results/lock.js";
import { refuseForeignFolder, refuseNestedFolders, refuseOddEntries } from "../../format/files.js";
import { bytesMode, runCommandLine } from "../../runner/modes/index.js";

/** Merge `dirs` into `o.results` (locked while it is written: runner/results/lock.ts). */
export async function mergeCommand(dirs: string[], o: { results: string; fresh?: boolean }): Promise<void> {
  const command = ["wirecost", ...process.argv.slice(2)].join(" ");
  refuseNestedFolders(
    { option: "--results", path: o.results },
    dirs.map((path) => ({ name: "input folder", path })),
  );
  const lock = lockResults(o.results, { option: "--results", command });
  let r: ReturnType<typeof mergeResults>;
  try {
    for (const dir of dirs) refuseOddEntries(dir);
    refuseOddEntries(o.results);
    refuseForeignFolder(o.results, "--results");
    r = mergeResults(dirs, o.results, command, o.fresh === true);
  } finally {
    lock.release();
  }
  process.stderr.write(`merged ${dirs.length} folder(s), ${r.configurations - r.missing.length} of ${r.configurations} configurations, into ${o.results}/\n`);
  if (r.missing.length) {
    process.stderr.write(
      `missing (no folder ran them): ${r.missing.slice(0, 10).join(" ")}${r.missing.length > 10 ? ` … (${r.missing.length} in all)` : ""}\n`,
    );
    // Every missing configuration, at the repeat count the shards ran (when they all ran one: a --repeats override).
    const counts = new Set(r.plan.configurations.map((c) => c.repeats));
    const repeats = counts.size === 1 ? [...counts][0] : undefined;
    const run = runCommandLine(bytesMode, r.plan.matrix.file, { only: r.missing, results: "NEW_FOLDER", repeats });
    process.stderr.write(`run them: ${run}, then merge NEW_FOLDER too\n`);
    process.exitCode = 1;
  }
}
