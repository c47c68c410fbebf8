/**
 * A bytes run builds its tokenizers before it starts any target (runner/count/tokens.ts
 * `loadTokenizers`). Built by the first run's count instead, the build (about 1 s of CPU, all of it
 * synchronous) stopped the drivers and relays of the runs still in flight in the same process; on a
 * loaded machine for longer than the target's keep-alive idle timeout (5 s), so the target closed a
 * connection the driver then reused: "server closed the connection before a complete response" on
 * the first repeat of HTTP `ten` runs when test files ran side by side. Its own file: the check
 * needs a process in which nothing has built a tokenizer yet.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { tokenizersLoaded } from "../../runner/count/tokens.js";
import { runMatrix, type RunOneFn } from "../../runner/execute/run-matrix.js";
import { runOne } from "../../runner/execute/run-one.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { root } from "../paths.js";

const quiet = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false }) as unknown as NodeJS.WriteStream;

test("every run of a bytes run starts with the tokenizers built; the runs count tokens", { timeout: 120_000 }, async (t) => {
  assert.equal(tokenizersLoaded(), false, "nothing in this process has built a tokenizer yet");
  const out = mkdtempSync(join(tmpdir(), "wirecost-tokenizers-"));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const startedWith: boolean[] = [];
  const checked: RunOneFn = (...args) => {
    startedWith.push(tokenizersLoaded());
    return runOne(...args);
  };
  const summary = await runMatrix(loadMatrix(join(root, "test/fixtures/runner-small.yaml")), {
    results: out,
    only: ["*-2026-07-28-plain"],
    repeats: 1,
    jobs: 2,
    runOne: checked,
    preflight: false,
    progressStream: quiet,
  });
  assert.deepEqual(summary.runs.map((r) => [r.config, r.status, r.error]).sort(), [
    ["raw-mcp-ts-v2-http-2026-07-28-plain", "ok", ""],
    ["raw-mcp-ts-v2-stdio-2026-07-28-plain", "ok", ""],
  ]);
  assert.deepEqual(startedWith, [true, true], "each run started after the tokenizers were built");
});
