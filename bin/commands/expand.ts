/** `wirecost expand`: print configurations (tsv or json), optionally the excluded cells, and the run count. */
import { expand } from "../../runner/matrix/expand.js";
import { expansionJson, expansionSummary, expansionTsv } from "../../runner/matrix/format.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { preflight } from "../../runner/matrix/preflight.js";
import { dirname } from "node:path";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { UserError } from "../../format/errors.js";
import { shellQuote } from "../../format/shell.js";
import { targetKey } from "../../runner/matrix/target-of.js";

/**
 * Print the expansion of `file` to stdout (TSV or JSON) and the summary line (configurations,
 * runs, excluded cells) to stderr. Runs the preflight checks too, so a matrix `run` would refuse
 * is refused here.
 * @throws UserError for an unknown format, a bad matrix, or an unmet target requirement
 */
export function expandCommand(file: string, o: { format: string; all?: boolean }): void {
  if (o.format !== "tsv" && o.format !== "json") throw new UserError(`--format ${o.format}: unknown format — use tsv or json`);
  const m = loadMatrix(file);
  const e = expand(m);
  const dir = dirname(m.file);
  const unbuildable = new Map<string, string>();
  for (const t of new Set(e.configurations.map((c) => targetKey(m, c.values)))) {
    const why = m.targets[t]?.build ? missingToolchain(m.targets[t]!, dir) : undefined;
    if (why) unbuildable.set(t, why);
  }
  preflight(
    m,
    e.configurations.filter((c) => !unbuildable.has(targetKey(m, c.values))),
  );
  for (const why of unbuildable.values())
    process.stderr.write(
      `note: ${why}; wirecost run refuses these configurations — to record them as skipped: npx wirecost run ${shellQuote(file)} --skip-missing-toolchains\n`,
    );
  process.stdout.write(o.format === "json" ? expansionJson(e, o.all) : expansionTsv(m, e, o.all));
  process.stderr.write(`${expansionSummary(e)}\n`);
}
