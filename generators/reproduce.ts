/** The one shell command that regenerates a table row, and the quoting it needs. */

/** Characters that need no shell quoting. */
const SHELL_SAFE = /^[A-Za-z0-9_./:=,+@%-]+$/;

/**
 * Quote one argument for a POSIX shell: unchanged when it holds only safe characters,
 * otherwise in single quotes with each `'` written as `'\''`.
 */
export function shellQuote(arg: string): string {
  return arg !== "" && SHELL_SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Escape every PCRE metacharacter in `text` so `grep -P` matches it literally. */
export function pcreLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

/**
 * The command that reruns one configuration into a scratch folder and prints its medians line
 * for `metric`: `npx wirecost run --only <config> --results <dir> && grep -P '^<config>\t<metric>\t' <dir>/medians.tsv`.
 * The printed line is `config, metric, min, median, max`, tab-separated.
 * @param config configuration id (quoted for the shell and escaped for PCRE as needed)
 * @param metric metric name in `medians.tsv`, e.g. `total_bytes`
 * @param scratch results folder for the rerun; default `/tmp/one`
 */
export function reproduceCommand(config: string, metric: string, scratch = "/tmp/one"): string {
  const dir = shellQuote(scratch);
  const pattern = shellQuote(`^${pcreLiteral(config)}\\t${pcreLiteral(metric)}\\t`);
  const medians = shellQuote(`${scratch}/medians.tsv`);
  return `npx wirecost run --only ${shellQuote(config)} --results ${dir} && grep -P ${pattern} ${medians}`;
}
