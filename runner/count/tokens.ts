/**
 * Token counts beside byte counts: how much of a model's context a piece of the wire takes, under
 * real tokenizers whose vocabularies ship inside a registry package (`js-tiktoken`: OpenAI's
 * o200k_base and cl100k_base, pure JavaScript, nothing downloaded at run time). Each count names
 * its tokenizer and the package version ({@link TOKENIZERS}).
 */
import { getEncoding, type Tiktoken } from "js-tiktoken";
import { installedPackageVersion } from "../matrix/preflight.js";

/** The encodings counted, in the order of the columns that carry them. */
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

/** One of {@link ENCODINGS}. */
export type EncodingName = (typeof ENCODINGS)[number];

const cache = new Map<EncodingName, Tiktoken>();

/** Tokens of `text` under `encoding` (BPE as the tokenizer defines it; no special tokens allowed). */
export function countTokens(text: string, encoding: EncodingName): number {
  let enc = cache.get(encoding);
  if (!enc) {
    enc = getEncoding(encoding);
    cache.set(encoding, enc);
  }
  return enc.encode(text).length;
}

/** The tokenizers, each as `ENCODING (js-tiktoken VERSION)`, for results files and pages to name. */
export function tokenizerNames(): string[] {
  const version = installedPackageVersion("js-tiktoken") ?? "not installed";
  return ENCODINGS.map((e) => `${e} (js-tiktoken ${version})`);
}
