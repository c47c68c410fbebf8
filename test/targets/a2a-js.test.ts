import { test } from "node:test";
import assert from "node:assert/strict";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { WORKLOADS } from "../../runner/measure/workloads.js";
import { freePort, startTarget, waitForPort } from "../../runner/targets/process.js";
import { root } from "../paths.js";

for (const target of ["a2a-js", "floor"]) {
  test(`${target} answers SendMessage (A2A-Version 1.0, historyLength 0) with Echo: hello as a completed task artifact, no history`, async () => {
    const port = await freePort();
    const proc = startTarget({ argv: ["node", `dist/targets/${target}/server.js`, "--port", "{port}"], env: {} }, { port: String(port) }, root);
    try {
      await waitForPort(port, 20_000, () => proc.exit() === undefined);
      const client = await KeepAliveClient.connect(port);
      const w = WORKLOADS["a2a-send-message"]!(port);
      let body: Buffer | undefined;
      const req = {
        ...w,
        validate: (s: number, b: Buffer) => {
          w.validate(s, b);
          body = Buffer.from(b);
        },
      };
      for (let i = 0; i < 3; i++) await client.send(req); // keep-alive: three on one connection
      client.close();
      const msg = JSON.parse(body!.toString("utf8")) as {
        result: { task: { status: { state: string }; artifacts: { parts: { text: string }[] }[]; history?: unknown } };
      };
      assert.equal(msg.result.task.status.state, "TASK_STATE_COMPLETED");
      assert.equal(msg.result.task.artifacts[0]!.parts[0]!.text, "Echo: hello");
      assert.equal(msg.result.task.history, undefined);
    } finally {
      await proc.stop();
    }
  });
}
