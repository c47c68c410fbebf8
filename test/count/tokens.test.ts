/**
 * Tokens beside bytes: the tokenizers count a known string as the reference tokenization says
 * (OpenAI's "How to count tokens with tiktoken": "tiktoken is great!" is
 * [83, 1609, 5963, 374, 2294, 0] in cl100k_base and [83, 8251, 2488, 382, 2212, 0] in o200k_base),
 * are named with their package version, and each tool definition of a real tools/list answer (the
 * committed capture log of mcp-ts-v2 over stdio) is measured over its exact bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { countTokens, tokenizerNames } from "../../runner/count/tokens.js";
import { toolCatalogOfLog } from "../../runner/count/tool-catalog.js";
import { readCaptureStreams } from "../../runner/capture/log.js";
import { root } from "../paths.js";

const KNOWN = "tiktoken is great!";
const REFERENCE = { cl100k_base: [83, 1609, 5963, 374, 2294, 0], o200k_base: [83, 8251, 2488, 382, 2212, 0] } as const;

test("a known string counts as its reference tokenization, under both encodings", () => {
  for (const [encoding, ids] of Object.entries(REFERENCE) as [keyof typeof REFERENCE, readonly number[]][]) {
    assert.deepEqual(getEncoding(encoding).encode(KNOWN), ids, encoding);
    assert.equal(countTokens(KNOWN, encoding), ids.length, encoding);
  }
  assert.deepEqual(tokenizerNames(), ["o200k_base (js-tiktoken 1.0.21)", "cl100k_base (js-tiktoken 1.0.21)"]);
});

test("each tool definition of a real tools/list answer: its exact bytes and their tokens", () => {
  const log = join(root, "results/logs/raw-mcp-ts-v2-stdio-2026-07-28-plain/1.jsonl");
  const tools = toolCatalogOfLog(log);
  assert.ok(tools && tools.length >= 3, "the tools");
  const answer = readCaptureStreams(log)
    .find((s) => s.dir === "s2c")!
    .bytes.toString("utf8")
    .split("\n")
    .find((l) => l.includes('"tools"'))!;
  const listed = (JSON.parse(answer) as { result: { tools: { name: string }[] } }).result.tools;
  assert.deepEqual(
    tools.map((t) => t.name),
    listed.map((t) => t.name),
  );
  for (const [i, t] of tools.entries()) {
    // The TypeScript SDK writes compact JSON, so each definition's bytes are its compact serialisation, found in the line as is.
    const text = JSON.stringify(listed[i]);
    assert.ok(answer.includes(text), `${t.name} appears as sent`);
    assert.equal(t.definitionBytes, Buffer.byteLength(text), t.name);
    assert.equal(t.tokens.o200k_base, countTokens(text, "o200k_base"), t.name);
    assert.equal(t.tokens.cl100k_base, countTokens(text, "cl100k_base"), t.name);
  }
});
