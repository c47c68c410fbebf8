/**
 * Token counts beside byte counts: how much of a model's context a piece of the wire takes, under
 * real tokenizers whose vocabularies ship inside a registry package (`gpt-tokenizer`: OpenAI's
 * o200k_base and cl100k_base, pure JavaScript, nothing downloaded at run time; its counts are
 * checked against js-tiktoken's in test/count/tokens.test.ts). Each count names its tokenizer and
 * the package version ({@link tokenizerNames}).
 */
import * as cl100kBase from "gpt-tokenizer/encoding/cl100k_base";
import * as o200kBase from "gpt-tokenizer/encoding/o200k_base";
import { ENCODINGS, type EncodingName } from "../../format/tokens.js";
import { installedPackageVersion } from "../matrix/preflight.js";

export { ENCODINGS, type EncodingName };

/** The tokenizer package's encoders, by encoding. */
const ENCODERS: Record<EncodingName, { encode(text: string, options: { disallowedSpecial: Set<string> }): number[] }> = {
  o200k_base: o200kBase,
  cl100k_base: cl100kBase,
};

/** No special token is special in a wire text: `<|endoftext|>` in a tool's answer is counted as the text it is, as a model's API counts a user's text. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let loaded = false;

/**
 * Build every tokenizer of {@link ENCODINGS} now, once per process (later calls return at once):
 * the package decodes its vocabulary on import (about 0.3 s of CPU for both encodings here, where
 * js-tiktoken took 1.1 s to build them) and finishes its tables on the first count. A bytes run
 * calls this before it starts any target, so that no count stops the drivers and relays of the runs
 * still in flight (built by the first count on a loaded machine, a target's keep-alive idle timeout,
 * 5 s in Node's http server and uvicorn, once closed a connection the driver was about to reuse).
 */
export function loadTokenizers(): void {
  if (loaded) return;
  for (const e of ENCODINGS) countTokens("{}", e);
  loaded = true;
}

/** Whether {@link loadTokenizers} has run in this process. */
export function tokenizersLoaded(): boolean {
  return loaded;
}

/** Tokens of `text` under `encoding` (BPE as the tokenizer defines it; special-token strings counted as ordinary text). */
export function countTokens(text: string, encoding: EncodingName): number {
  return ENCODERS[encoding].encode(text, AS_TEXT).length;
}

/**
 * The longest run of one character class (letters and marks, white space, punctuation) that
 * {@link countAllTokens} counts, characters. BPE tokenizers in JavaScript merge the byte pairs of
 * one piece in time quadratic in its length (js-tiktoken, which wirecost used first, did), and a piece is such a run (the pre-tokenizer's pattern splits at
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

/** The tokenizers, each as `ENCODING (gpt-tokenizer VERSION)`, for results files and pages to name. */
export function tokenizerNames(): string[] {
  const version = installedPackageVersion("gpt-tokenizer") ?? "not installed";
  return ENCODINGS.map((e) => `${e} (gpt-tokenizer ${version})`);
}
