/**
 * The package's library entry (package.json `exports`: `runner/index.ts`), imported by the
 * package's own name as a program that installs wirecost would import it: the functions README
 * documents as a library (`countLog`, `readCaptureLog`, `byteChangeCauses`) count and compare two
 * committed capture logs, with the figures the results files hold for them. The command line does
 * not go through this entry: each command module imports the library modules it uses and is loaded
 * only when its command runs (bin/program.ts), as c8's command modules do, so that
 * `wirecost --version` does not load the runner, the MCP SDKs or the tokenizers (0.13 s here,
 * where importing the whole entry takes about 0.8 s).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "../paths.js";
import { readMessagesFile } from "../../format/messages.js";

const LOGS = join(root, "results/logs");
const V1 = join(LOGS, "raw-mcp-ts-v1-stdio-2025-11-25-plain/1.jsonl");
const V2 = join(LOGS, "raw-mcp-ts-v2-stdio-2026-07-28-plain/1.jsonl");

test("the package entry, imported by name, counts a committed log as its messages.tsv says and names the causes of a change between two", async () => {
  const lib = await import("wirecost");
  const { row } = lib.countLog(lib.readCaptureLog(V2), { transport: "stdio" });
  const messages = readMessagesFile(V2.replace(/\.jsonl$/, ".messages.tsv"))!;
  const bodies = messages.reduce((n, m) => n + m.bodyBytes + m.newlineBytes, 0);
  assert.ok(row.total_bytes > 0);
  assert.equal(row.total_bytes, bodies, "every byte of the stdio log is a message or its newline");
  const change = lib.byteChangeCauses({ log: V1, transport: "stdio" }, { log: V2, transport: "stdio" });
  assert.equal(change.head.total_bytes - change.base.total_bytes, change.delta.total_bytes);
  assert.ok(change.causes.length > 0, "a revision change has named causes");
  assert.ok(lib.ANOMALY_CODES["invalid-json"], "the anomaly vocabulary");
});
