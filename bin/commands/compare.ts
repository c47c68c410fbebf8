/**
 * `wirecost compare BASE HEAD`: compare two results folders of one report kind and print what
 * changed (runner/compare/). Exit status: 0 when no `--fail-on` rule trips, 2 when one does
 * (the changes are printed either way), 1 for a user error (one line naming the file and the fix).
 */
import { compareResults } from "../../runner/compare/compare.js";
import { renderComparison, type CompareFormat } from "../../runner/compare/render.js";
import { checkRules, parseRule } from "../../runner/compare/rules.js";
import { UserError } from "../../format/errors.js";
import { refuseOddEntries } from "../../format/files.js";

/** Options of `wirecost compare`. */
export interface CompareCommandOptions {
  only: string[];
  format: string;
  failOn: string[];
}

/** Exit status when a `--fail-on` rule trips. */
export const TRIP_EXIT = 2;

/**
 * Run `wirecost compare`: print the comparison on stdout; set `process.exitCode` to 2 when a rule trips.
 * @throws UserError for a bad --format or rule, a link or FIFO among a folder's results files
 *   (format/files.ts refuseOddEntries), or a folder that cannot be compared
 */
export function compareCommand(base: string, head: string, o: CompareCommandOptions): void {
  if (!["text", "md", "json"].includes(o.format)) throw new UserError(`--format ${o.format}: not a format; fix: use text, md or json`);
  const rules = o.failOn.map(parseRule);
  // A link or FIFO among either folder's results files is refused before anything is read.
  refuseOddEntries(base);
  refuseOddEntries(head);
  const c = compareResults(base, head, { only: o.only });
  const trips = checkRules(c, rules);
  process.stdout.write(renderComparison(c, trips, o.format as CompareFormat));
  if (trips.length > 0) process.exitCode = TRIP_EXIT;
}
