/**
 * Client drivers against the matrix: a configuration left to run must have a flow and a revision
 * its client declares (runner/drivers/declarations.ts), and client `sdk` a target naming its SDK
 * client (`sdkClient:`); cells the matrix leaves out are never errors. The declarations are the
 * drivers' own lists.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { RAW_CLIENT, SDK_CLIENTS, SDK_CLIENT_NAMES } from "../../runner/drivers/declarations.js";
import { DRIVERS } from "../../runner/drivers/index.js";
import { STANDARD_FLOWS } from "../../runner/matrix/flows.js";
import { SDK_CLIENT_DRIVERS, sdkDriver } from "../../runner/drivers/sdk/index.js";
import { expand } from "../../runner/matrix/expand.js";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { root } from "../paths.js";

/** A matrix over clients, targets ts (sdkClient v2), v1 (sdkClient v1) and py (none), one transport. */
function matrix(o: { clients?: string; targets?: string; revisions?: string; flows?: string; rules?: string } = {}): string {
  return `version: 1
repeats: 2
axes:
  - name: client
    values: [${o.clients ?? "raw, sdk"}]
  - name: target
    values: [${o.targets ?? "ts"}]
  - name: transport
    values: [stdio]
  - name: revision
    values: [${o.revisions ?? '"2025-11-25"'}]
  - name: flow
    values: [${o.flows ?? "plain"}]
${o.rules ?? ""}targets:
  ts:
    sdkClient: v2
    stdio: { argv: [node, ts.js] }
  v1:
    sdkClient: v1
    revisions: ["2025-06-18", "2025-11-25"]
    stdio: { argv: [node, v1.js] }
  py:
    stdio: { argv: [python3, py.py] }
`;
}
const run = (text: string) => expand(parseMatrix(text, "m.yaml"));
const ids = (text: string) => run(text).configurations.map((c) => c.id);

test("a flow the client does not run is refused at expand, at the flow value, naming what it runs and the fix", () => {
  assert.throws(
    () => run(matrix({ flows: "plain, elicit" })),
    (e: Error) => {
      assert.equal(e.name, "UserError");
      assert.equal(
        e.message,
        `m.yaml:13:21: client raw does not run flow "elicit" (configuration raw-ts-stdio-2025-11-25-elicit; it runs: plain, ten, input, state) — use one of those flows, declare it under flows: (its steps), or leave the cells out with an exclude rule: - match: { client: raw, flow: "elicit" }`,
      );
      return true;
    },
  );
});

test("a revision the client does not speak is refused at the revision value", () => {
  assert.throws(
    () => run(matrix({ clients: "raw", revisions: '"2025-11-25", "2024-10-07"' })),
    /^UserError: m\.yaml:11:28: client raw does not speak revision "2024-10-07" \(configuration raw-ts-stdio-2024-10-07-plain; it speaks: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28\) — use one of those revisions, or leave the cells out/,
  );
});

test("client sdk: the target's sdkClient decides what it speaks", () => {
  assert.throws(
    () => run(matrix({ clients: "sdk", targets: "v1", revisions: '"2025-06-18", "2025-11-25"' })),
    /^UserError: m\.yaml:11:14: client sdk \(the v1 SDK client, sdkClient of target v1\) does not speak revision "2025-06-18" \(configuration sdk-v1-stdio-2025-06-18-plain; it speaks: 2025-11-25\) — .*- match: \{ client: sdk, target: v1, revision: "2025-06-18" \}$/,
  );
  // the v2 client speaks it
  assert.deepEqual(ids(matrix({ clients: "sdk", targets: "ts", revisions: '"2025-06-18", "2026-07-28"' })), [
    "sdk-ts-stdio-2025-06-18-plain",
    "sdk-ts-stdio-2026-07-28-plain",
  ]);
});

test("client sdk with a target naming no sdkClient is refused at the target value, naming the fix", () => {
  assert.throws(
    () => run(matrix({ targets: "ts, py" })),
    /^UserError: m\.yaml:7:18: client sdk cannot drive target py \(configuration sdk-py-stdio-2025-11-25-plain\): the target names no SDK client — add sdkClient: v1 or v2 to targets\.py .*- match: \{ client: sdk, target: py \}$/,
  );
});

test("cells the matrix leaves out are not errors: exclude rules, what a target cannot serve, 0 repeats", () => {
  // an exclude rule: listed as excluded with its reason
  const e = run(
    matrix({
      targets: "ts, py",
      flows: "plain, elicit",
      rules: "exclude:\n  - match: { client: sdk, target: py }\n    reason: no TypeScript SDK of its own\n  - match: { flow: elicit }\n",
    }),
  );
  assert.deepEqual(
    e.configurations.map((c) => c.id),
    ["raw-ts-stdio-2025-11-25-plain", "raw-py-stdio-2025-11-25-plain", "sdk-ts-stdio-2025-11-25-plain"],
  );
  assert.equal(e.excluded.find((c) => c.id === "sdk-py-stdio-2025-11-25-plain")?.reason, "no TypeScript SDK of its own");
  // the target's revisions exclude the v1 × 2026-07-28 cells before the client is asked
  const t = run(matrix({ clients: "sdk", targets: "v1", revisions: '"2025-11-25", "2026-07-28"' }));
  assert.deepEqual(
    t.configurations.map((c) => c.id),
    ["sdk-v1-stdio-2025-11-25-plain"],
  );
  assert.match(t.excluded[0]!.reason, /^target v1 does not speak revision 2026-07-28/);
  // a cell left with 0 repeats is not run, so not checked
  assert.deepEqual(ids(matrix({ flows: "plain, elicit", rules: "include:\n  - match: { flow: elicit }\n    repeats: 0\n" })), [
    "raw-ts-stdio-2025-11-25-plain",
    "sdk-ts-stdio-2025-11-25-plain",
  ]);
});

test("an include rule that runs an undrivable cell again is an error", () => {
  const rules = "exclude:\n  - match: { client: sdk, target: py }\ninclude:\n  - match: { client: sdk, target: py }\n";
  assert.throws(() => run(matrix({ targets: "ts, py", rules })), /^UserError: m\.yaml:7:18: client sdk cannot drive target py /);
});

test("a matrix without a client axis names no driver: its flows and revisions are the targets' business", () => {
  const text = matrix({ flows: "x" }).replace("  - name: client\n    values: [raw, sdk]\n", "");
  assert.deepEqual(ids(text), ["ts-stdio-2025-11-25-x"]);
});

test("an unknown sdkClient is refused when the matrix is parsed, at the value, listing the known ones", () => {
  assert.throws(
    () => parseMatrix(matrix().replace("sdkClient: v2", "sdkClient: v3"), "m.yaml"),
    (e: Error) => {
      assert.equal(e.message, 'm.yaml:16:16: targets.ts.sdkClient is "v3" — use one of: v1, v2');
      return true;
    },
  );
});

test("a client axis without a flow or revision axis is refused at the client axis", () => {
  assert.throws(
    () => parseMatrix(matrix().replace(/ {2}- name: flow\n.*\n/, ""), "m.yaml"),
    /^UserError: m\.yaml:4:11: a client axis needs a "flow" axis .* — add an axis named flow$/,
  );
  assert.throws(
    () => parseMatrix(matrix().replace(/ {2}- name: revision\n.*\n/, ""), "m.yaml"),
    /^UserError: m\.yaml:4:11: a client axis needs a "revision" axis /,
  );
});

test("matrix.schema.json's sdkClient values are the declared SDK clients", () => {
  const schema = JSON.parse(readFileSync(join(root, "matrix.schema.json"), "utf8"));
  assert.deepEqual(schema.properties.targets.additionalProperties.properties.sdkClient.enum, SDK_CLIENT_NAMES);
});

test("the drivers speak exactly the declared revisions and run any flow of the matrix", () => {
  assert.equal(DRIVERS.raw.flows, undefined);
  assert.deepEqual(DRIVERS.raw.revisions, RAW_CLIENT.revisions);
  assert.deepEqual(Object.keys(SDK_CLIENT_DRIVERS), SDK_CLIENT_NAMES);
  for (const name of SDK_CLIENT_NAMES) {
    assert.equal(SDK_CLIENT_DRIVERS[name].flows, undefined, name);
    assert.deepEqual(SDK_CLIENT_DRIVERS[name].revisions, SDK_CLIENTS[name].revisions, name);
  }
});

test("matrix.yaml declares the four standard flows, step for step as a matrix without flows: gets them", () => {
  const m = parseMatrix(readFileSync(join(root, "matrix.yaml"), "utf8"), "matrix.yaml");
  assert.deepEqual(m.flows, STANDARD_FLOWS);
});

test("the sdk driver picks the client the target names, and refuses a target naming none", async () => {
  const ctx = { values: { target: "x" }, revision: "2026-07-28", flow: "plain", timeoutMs: 1000 };
  // the v1 client refuses 2026-07-28 before it touches the channel
  await assert.rejects(sdkDriver.stdio({} as never, { ...ctx, sdkClient: "v1" }), /the v1 SDK client speaks 2025-11-25 only/);
  await assert.rejects(sdkDriver.stdio({} as never, ctx), /client sdk: target "x" names no SDK client .* give it sdkClient: v1 or v2 in the matrix/);
});

test("the committed matrix names the SDK client of each TypeScript target", () => {
  const m = parseMatrix(readFileSync(join(root, "matrix.yaml"), "utf8"), "matrix.yaml");
  assert.equal(m.targets["mcp-ts-v1"]!.sdkClient, "v1");
  assert.equal(m.targets["mcp-ts-v2"]!.sdkClient, "v2");
  assert.equal(m.targets["mcp-py"]!.sdkClient, undefined);
});
