/**
 * `tools.tsv` of a `wirecost measure` results folder: what the server's tool catalog costs a
 * model's context, one row per tool definition of the tools/list answer, per configuration (first
 * repeat's capture log; stdio configurations only). Token columns are named by their encoding;
 * the tokenizer and its package version are recorded in `tokenizers` (one row per tokenizer, in
 * `tools-tokenizers.tsv`).
 */

/** The file, in the results folder. */
export const TOOLS_FILE = "tools.tsv";

/** The tokenizers file: `tokenizer` (e.g. `o200k_base (js-tiktoken 1.0.21)`), one per row. */
export const TOKENIZERS_FILE = "tools-tokenizers.tsv";

/**
 * Columns of tools.tsv: config, revision, tool (its name), definition_bytes (the JSON object as
 * sent, in bytes), then tokens_<encoding> per encoding (tokens of the same text).
 */
export function toolColumns(encodings: readonly string[]): string[] {
  return ["config", "revision", "tool", "definition_bytes", ...encodings.map((e) => `tokens_${e}`)];
}
