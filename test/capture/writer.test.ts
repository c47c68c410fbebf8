/**
 * The capture-log writer on a full disk: close() rejects with the write error, naming the log,
 * whether the error destroyed the file's stream long before close() or just before it (CI saw
 * `Cannot call end after a stream was destroyed` printed with a stack instead, once).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { CaptureWriter } from "../../runner/capture/writer.js";

test("CaptureWriter.close after a full disk destroyed the stream: rejects with the ENOSPC naming the log", {
  skip: !existsSync("/dev/full") && "no /dev/full here",
}, async () => {
  const log = new CaptureWriter("/dev/full");
  log.chunk(undefined, "c2s", Buffer.from("a line\n"));
  await new Promise((r) => setTimeout(r, 200)); // the write fails and the stream is destroyed
  await assert.rejects(log.close(), (e: NodeJS.ErrnoException) => e.code === "ENOSPC" && e.path === "/dev/full");
});

test("CaptureWriter.close right after a write error destroyed the stream: rejects with that error", async () => {
  const log = new CaptureWriter("/dev/null");
  const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  (log as unknown as { out: { destroy(e: Error): void } }).out.destroy(full);
  await assert.rejects(log.close(), (e: NodeJS.ErrnoException) => e.code === "ENOSPC" && e.path === "/dev/null");
});
