/** Starting a target: its listening line is read whole, even when the line reaches stderr in two chunks. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startTarget } from "../../runner/targets/process.js";
import { root } from "../paths.js";

test("the listening line is taken only once its line end arrives", async () => {
  // A real process that writes the line in two writes 200 ms apart, as a buffered runtime may.
  const script = 'process.stderr.write("listening on 127.0.0.1:"); setTimeout(() => process.stderr.write("4100 loop=x\\n"), 200); setTimeout(() => {}, 5000);';
  const proc = startTarget({ argv: ["node", "-e", script], env: {} }, {}, root);
  try {
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(proc.listeningLine(), undefined, "half a line is not the listening line");
    const deadline = Date.now() + 5000;
    while (proc.listeningLine() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(proc.listeningLine(), "listening on 127.0.0.1:4100 loop=x");
  } finally {
    await proc.stop();
  }
});
