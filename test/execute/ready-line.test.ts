/**
 * A stdio target's start-up ends at its first JSON-RPC line (runner/execute/run-one.ts
 * onFirstJsonLine): a real process that prints a log line at once and its first message 600 ms
 * later is ready at the message, not at the log line; a `{` inside a line is not a message's start.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { onFirstJsonLine } from "../../runner/execute/run-one.js";

test("ready at the first line that opens a JSON object, not at a log line printed before it", async () => {
  const script = `process.stdout.write("starting {up}\\n"); setTimeout(() => process.stdout.write('{"jsonrpc":"2.0","id":0,"result":{}}\\n'), 600);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const started = performance.now();
  let firstData: number | undefined;
  child.stdout.once("data", () => {
    firstData = performance.now() - started;
  });
  const readyMs = await new Promise<number>((done) => onFirstJsonLine(child.stdout, () => done(performance.now() - started)));
  await new Promise((done) => child.on("exit", done));
  assert.ok(firstData !== undefined && firstData < readyMs, `first bytes at ${firstData} ms, ready at ${readyMs} ms`);
  assert.ok(readyMs - firstData >= 300, `ready ${readyMs - firstData} ms after the log line (the message comes 600 ms after it)`);
});
