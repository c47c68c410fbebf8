/**
 * Tokens beside bytes in the results: the encodings whose token counts the results carry (the
 * `tokens_<encoding>` columns of `messages.tsv` and `tools.tsv`), in column order. The runner
 * counts them (runner/count/tokens.ts) and names each tokenizer with its package version in
 * `provenance.json` (`tokenizers`).
 */

/** The encodings counted, in the order of the columns that carry them. */
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

/** One of {@link ENCODINGS}. */
export type EncodingName = (typeof ENCODINGS)[number];

/** The column holding tokens under `encoding`: `tokens_o200k_base`. */
export function tokenColumn(encoding: string): string {
  return `tokens_${encoding}`;
}
