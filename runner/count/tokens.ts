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
 * Tokens of `text` under every encoding of {@link ENCODINGS}; each text is counted once per process
 * while it stays in memory ({@link COUNTED_CHARS_KEPT}), and every call returns its own object.
 * @returns undefined when the text holds a run longer than {@link LONGEST_RUN_COUNTED} of one
 *   character class (not counted: the tokenizer would take too long; the results leave the cell empty)
 */
export function countAllTokens(text: string): Record<EncodingName, number> | undefined {
  const known = counted.get(text);
  if (known !== undefined || counted.has(text)) return known && { ...known };
  const tokens = LONG_RUN.test(text) ? undefined : (Object.fromEntries(ENCODINGS.map((e) => [e, countTokens(text, e)])) as Record<EncodingName, number>);
  remember(text, tokens);
  return tokens && { ...tokens };
}

/**
 * The characters of text {@link countAllTokens} keeps with its counts (16 Mi, about 32 MiB): a
 * bytes run's repeats send the same messages, and BPE merging was a quarter of a run's CPU. When
 * full, the memory is emptied and filled again.
 */
export const COUNTED_CHARS_KEPT = 16 * 1024 * 1024;

/** Texts already counted, with their counts (undefined: not counted, see {@link LONGEST_RUN_COUNTED}). */
const counted = new Map<string, Record<EncodingName, number> | undefined>();
let countedChars = 0;

function remember(text: string, tokens: Record<EncodingName, number> | undefined): void {
  if (text.length > COUNTED_CHARS_KEPT) return;
  if (countedChars + text.length > COUNTED_CHARS_KEPT) {
    counted.clear();
    countedChars = 0;
  }
  counted.set(text, tokens);
  countedChars += text.length;
}

/** The tokenizers, each as `ENCODING (js-tiktoken VERSION)`, for results files and pages to name. */
export function tokenizerNames(): string[] {
  const version = installedPackageVersion("js-tiktoken") ?? "not installed";
  return ENCODINGS.map((e) => `${e} (js-tiktoken ${version})`);
}
