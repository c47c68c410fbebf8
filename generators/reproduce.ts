/** The one shell command that regenerates a table row, and the quoting it needs. */
import { pcreLiteral, shellQuote } from "../format/shell.js";
import { idStem } from "./stem.js";

/** The matrix `npx wirecost run` reads when none is named (at the repository root); commands leave it out. */
export const DEFAULT_MATRIX = "matrix.yaml";

/**
 * The scratch results folder a reproduce command reruns one configuration into:
 * `/tmp/wirecost-<stem>`, one per configuration, so rows can be reproduced one after another
 * without `--resume` and without mixing report kinds.
 * @param config configuration id (ids unsafe in a file name get a hash stem, see {@link idStem})
 */
export function scratchFolder(config: string): string {
  return `/tmp/wirecost-${idStem(config)}`;
}

/**
 * The run half of a reproduce command: `npx wirecost run [MATRIX] --only <config> --results <scratch>`,
 * with MATRIX left out when it is {@link DEFAULT_MATRIX}.
 * @param matrix matrix file as recorded in the results (as given to `wirecost run`)
 * @param config configuration id (quoted for the shell as needed)
 */
export function rerunCommand(matrix: string, config: string): string {
  const file = matrix === DEFAULT_MATRIX ? "" : ` ${shellQuote(matrix)}`;
  return `npx wirecost run${file} --only ${shellQuote(config)} --results ${shellQuote(scratchFolder(config))}`;
}

/**
 * The command that reruns one configuration into its scratch folder ({@link scratchFolder}) and
 * prints the line of `file` that starts with `<config>\t[<metric>\t]`:
 * `npx wirecost run [MATRIX] --only <config> --results <dir> && grep -P '^<config>\t<metric>\t' <dir>/<file>`.
 * For `medians.tsv` the printed line is `config, metric, min, median, max`, tab-separated.
 * @param config configuration id (quoted for the shell and escaped for PCRE as needed)
 * @param matrix matrix file as recorded in the results; left out when it is `matrix.yaml`
 * @param file results file to print the line from, e.g. `medians.tsv`, `percall.tsv`
 * @param metric metric name in a long-format file (`config metric …`), e.g. `total_bytes`; none
 *   for a file with one row per configuration
 */
export function reproduceCommand(config: string, matrix: string, file: string, metric?: string): string {
  const scratch = scratchFolder(config);
  const pattern = shellQuote(`^${pcreLiteral(config)}\\t${metric === undefined ? "" : `${pcreLiteral(metric)}\\t`}`);
  return `${rerunCommand(matrix, config)} && grep -P ${pattern} ${shellQuote(`${scratch}/${file}`)}`;
}
