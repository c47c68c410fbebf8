/** `wirecost merge DIR… --results OUT`: merge shard results folders; exit 1 when configurations are missing. */
import { mergeResults } from "../../runner/results/merge.js";

/** Merge `dirs` into `o.results`. */
export async function mergeCommand(dirs: string[], o: { results: string; fresh?: boolean }): Promise<void> {
  const r = mergeResults(dirs, o.results, ["wirecost", ...process.argv.slice(2)].join(" "), o.fresh === true);
  process.stderr.write(`merged ${dirs.length} folder(s), ${r.configurations - r.missing.length} of ${r.configurations} configurations, into ${o.results}/\n`);
  if (r.missing.length) {
    process.stderr.write(
      `missing (no folder ran them): ${r.missing.slice(0, 10).join(" ")}${r.missing.length > 10 ? ` … (${r.missing.length} in all)` : ""}\n`,
    );
    process.stderr.write(
      `run them: npx wirecost run ${r.plan.matrix.file} ${r.missing
        .slice(0, 10)
        .map((i) => `--only ${i}`)
        .join(" ")} --results DIR, then merge that folder too\n`,
    );
    process.exitCode = 1;
  }
}
