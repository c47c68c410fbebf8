/**
 * Tokens beside bytes: the tokenizers count a known string as the reference tokenization says
 * (OpenAI's "How to count tokens with tiktoken": "tiktoken is great!" is
 * [83, 1609, 5963, 374, 2294, 0] in cl100k_base and [83, 8251, 2488, 382, 2212, 0] in o200k_base),
 * are named with their package version, agree with a second implementation (js-tiktoken) on the
 * text of every JSON-RPC message of committed capture logs, count special-token strings
 * (`<|endoftext|>`) as ordinary text instead of throwing, each tool definition of a real tools/list answer (the
 * committed capture log of mcp-ts-v2 over stdio) is measured over its exact bytes, and so is every
 * JSON-RPC message of the run in its messages.tsv.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { countAllTokens, countTokens, LONGEST_RUN_COUNTED, tokenizerNames } from "../../runner/count/tokens.js";
import { countStreams } from "../../runner/count/index.js";
import { messageRows } from "../../runner/results/messages.js";
import { messagesTsv, readMessagesFile } from "../../format/messages.js";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
  assert.deepEqual(tokenizerNames(), ["o200k_base (gpt-tokenizer 4.0.0)", "cl100k_base (gpt-tokenizer 4.0.0)"]);
});

test("the counts agree with js-tiktoken's on every message line of committed capture logs, over stdio and HTTP bodies", () => {
  const logs = readdirSync(join(root, "results/logs"))
    .filter((c) => c.startsWith("raw-"))
    .map((c) => join(root, "results/logs", c, "1.jsonl"))
    .filter((f) => existsSync(f));
  assert.ok(logs.length >= 20, `logs: ${logs.length}`);
  const encoders = { o200k_base: getEncoding("o200k_base"), cl100k_base: getEncoding("cl100k_base") };
  let texts = 0;
  for (const log of logs)
    for (const s of readCaptureStreams(log))
      for (const line of s.bytes.toString("utf8").split(/\r?\n/)) {
        // stdio lines are messages; HTTP bodies and SSE data lines carry them (the rest is head lines: text all the same).
        const text = line.startsWith("data: ") ? line.slice(6) : line;
        if (text === "" || text.length > 4096) continue;
        texts++;
        for (const e of ["o200k_base", "cl100k_base"] as const)
          assert.equal(countTokens(text, e), encoders[e].encode(text, [], []).length, `${e}: ${text.slice(0, 80)}`);
      }
  assert.ok(texts > 1000, `texts compared: ${texts}`);
});

test("a special token's text (<|endoftext|>) in a message is counted as ordinary text, as js-tiktoken counts it with no special token allowed", () => {
  const text = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"say <|endoftext|> and <|fim_prefix|>"}]}}';
  for (const e of ["o200k_base", "cl100k_base"] as const) {
    const n = countTokens(text, e);
    assert.equal(n, getEncoding(e).encode(text, [], []).length, e);
    assert.ok(n > 20, `${e}: ${n}`);
  }
  assert.ok(countAllTokens(text), "counted, not thrown");
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
    assert.equal(t.tokens?.o200k_base, countTokens(text, "o200k_base"), t.name);
    assert.equal(t.tokens?.cl100k_base, countTokens(text, "cl100k_base"), t.name);
  }
});

test("every JSON-RPC message of a run's messages.tsv carries the tokens of its own text", () => {
  const log = join(root, "results/logs/raw-mcp-ts-v2-stdio-2026-07-28-plain/1.jsonl");
  const streams = readCaptureStreams(log);
  const rows = messageRows(countStreams(streams, { transport: "stdio" }).messages, streams);
  const lines = new Map(
    streams.map(
      (s) =>
        [
          s.dir,
          s.bytes
            .toString("utf8")
            .split("\n")
            .filter((l) => l !== ""),
        ] as const,
    ),
  );
  const seen = { c2s: 0, s2c: 0 };
  let messages = 0;
  for (const m of rows) {
    if (!["request", "notification", "result", "error"].includes(m.kind)) {
      assert.equal(m.tokens, undefined, `${m.kind} row has no tokens`);
      continue;
    }
    const text = lines.get(m.dir as "c2s" | "s2c")![seen[m.dir as "c2s" | "s2c"]++]!;
    assert.equal(m.bodyBytes, Buffer.byteLength(text), "the row is the line's message");
    assert.deepEqual(m.tokens, { o200k_base: countTokens(text, "o200k_base"), cl100k_base: countTokens(text, "cl100k_base") });
    messages++;
  }
  assert.ok(messages >= 4, "the session's messages");
  // The columns as the file writes and reads them.
  const back = readMessagesFile(writeTemp(messagesTsv(rows)))!;
  assert.deepEqual(
    back.map((m) => m.tokens),
    rows.map((m) => m.tokens),
  );
});

test("a text with a run the tokenizer would take hours over is not counted (undefined), never a guess", () => {
  assert.equal(countAllTokens(`{"text":"${"x".repeat(LONGEST_RUN_COUNTED + 1)}"}`), undefined);
  assert.equal(countAllTokens(" ".repeat(LONGEST_RUN_COUNTED + 1)), undefined);
  const counted = countAllTokens(`{"text":"${"x".repeat(LONGEST_RUN_COUNTED)}"}`);
  assert.ok(counted && counted.o200k_base > 1 && counted.cl100k_base > 1);
});

function writeTemp(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "wirecost-tokens-")), "1.messages.tsv");
  writeFileSync(file, text);
  return file;
}
