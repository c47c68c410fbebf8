/**
 * Token counts beside byte counts: how much of a model's context a piece of the wire takes, under
 * real tokenizers whose vocabularies ship inside a registry package (`js-tiktoken`: OpenAI's
 * o200k_base and cl100k_base, pure JavaScript, nothing downloaded at run time). Each count names
 * its tokenizer and the package version ({@link TOKENIZERS}).
 */
import { getEncoding, type Tiktoken } from "js-tiktoken";
import { ENCODINGS, type EncodingName } from "../../format/tokens.js";
import { installedPackageVersion } from "../matrix/preflight.js";

export { ENCODINGS, type EncodingName };

const cache = new Map<EncodingName, Tiktoken>();

/** The tokenizer of `encoding`, built on first use (see {@link loadTokenizers}). */
function encoder(encoding: EncodingName): Tiktoken {
  let enc = cache.get(encoding);
  if (!enc) {
    enc = getEncoding(encoding);
    cache.set(encoding, enc);
  }
  return enc;
}

/**
 * Build every tokenizer of {@link ENCODINGS} now, once per process (later calls return at once).
 * Building one decodes its whole vocabulary synchronously: about 1 s of CPU for o200k_base and
 * cl100k_base together on the project's machine, during which nothing else in the process runs.
 * A bytes run calls this before it starts any target: built by the first count instead, it stopped
 * the drivers and relays of the runs still in flight for longer than a target's keep-alive idle
 * timeout (5 s in Node's http server and uvicorn) on a loaded machine, and the target closed a
 * connection the driver was about to reuse ("server closed the connection before a complete
 * response" on the first repeat).
 */
export function loadTokenizers(): void {
  for (const e of ENCODINGS) encoder(e);
}

/** Whether every tokenizer of {@link ENCODINGS} is built in this process ({@link loadTokenizers}). */
export function tokenizersLoaded(): boolean {
  return ENCODINGS.every((e) => cache.has(e));
}

/** Tokens of `text` under `encoding` (BPE as the tokenizer defines it; no special tokens allowed). */
export function countTokens(text: string, encoding: EncodingName): number {
  return encoder(encoding).encode(text).length;
}

/**
 * The longest run of one character class (letters and marks, white space, punctuation) that
 * {@link countAllTokens} counts, characters. js-tiktoken merges the byte pairs of one piece in
 * time quadratic in its length, and a piece is such a run (the pre-tokenizer's pattern splits at
 * class changes): a 64 KiB argument of one letter would take hours.
 */
export const LONGEST_RUN_COUNTED = 256;

const LONG_RUN = new RegExp(`[\\p{L}\\p{M}]{${LONGEST_RUN_COUNTED + 1}}|\\s{${LONGEST_RUN_COUNTED + 1}}|[^\\s\\p{L}\\p{N}]{${LONGEST_RUN_COUNTED + 1}}`, "u");

/**
 * Tokens of `text` under every encoding of {@link ENCODINGS}.
 * @returns undefined when the text holds a run longer than {@link LONGEST_RUN_COUNTED} of one
 *   character class (not counted: the tokenizer would take too long; the results leave the cell empty)
 */
export function countAllTokens(text: string): Record<EncodingName, number> | undefined {
  if (LONG_RUN.test(text)) return undefined;
  return Object.fromEntries(ENCODINGS.map((e) => [e, countTokens(text, e)])) as Record<EncodingName, number>;
}

/** The tokenizers, each as `ENCODING (js-tiktoken VERSION)`, for results files and pages to name. */
export function tokenizerNames(): string[] {
  const version = installedPackageVersion("js-tiktoken") ?? "not installed";
  return ENCODINGS.map((e) => `${e} (js-tiktoken ${version})`);
}
