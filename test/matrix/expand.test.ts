/** Expansion rules: id stability, counts and their precedence, 0 as zero, errors with positions. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { expand } from "../../runner/matrix/expand.js";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { preflight } from "../../runner/matrix/preflight.js";

const head = `version: 1
repeats: 4
axes:
  - name: target
    values: [t]
  - name: transport
    values: [stdio, http]
`;
const tail = `targets:
  t:
    stdio: { argv: [node, t.js] }
    http: { argv: [node, t.js, "{port}"] }
`;
const ids = (text: string) => expand(parseMatrix(text, "m.yaml")).configurations.map((c) => c.id);
const cfg = (text: string) => Object.fromEntries(expand(parseMatrix(text, "m.yaml")).configurations.map((c) => [c.id, [c.repeats, c.warmup]]));

test("adding a value keeps every existing id", () => {
  const before = ids(head + "  - name: size\n    values: [1, 2]\n    id: s{}\n" + tail);
  const after = ids(head + "  - name: size\n    values: [1, 2, 3]\n    id: s{}\n" + tail);
  assert.deepEqual(before, ["t-stdio-s1", "t-stdio-s2", "t-http-s1", "t-http-s2"]);
  assert.deepEqual(
    after.filter((i) => before.includes(i)),
    before,
  );
  assert.equal(after.length, 6);
});

test("adding an axis with a default keeps every existing id; other values extend them", () => {
  const before = ids(head + tail);
  const after = ids(head + '  - name: tls\n    values: [off, on]\n    default: "off"\n' + tail);
  assert.deepEqual(before, ["t-stdio", "t-http"]);
  assert.deepEqual(after, ["t-stdio", "t-stdio-on", "t-http", "t-http-on"]);
});

test("counts: include rule > max(grid, sweeps) > top level; warmup likewise", () => {
  const c = cfg(
    head +
      "  - name: size\n    values: [1, 2]\n    default: 1\n" +
      "grid: { size: 1 }\nwarmup: 2\n" +
      "sweeps:\n  - axis: size\n    base: { target: t, transport: stdio }\n    repeats: 9\n    warmup: 0\n" +
      "include:\n  - match: { transport: http }\n    repeats: 1\n" +
      tail,
  );
  assert.deepEqual(c, { "t-stdio": [9, 2], "t-http": [1, 2], "t-stdio-2": [9, 0] });
});

test("0 means zero: a cell left with 0 repeats is excluded with the reason, never run with a default", () => {
  const e = expand(parseMatrix(head + "include:\n  - match: { transport: http }\n    repeats: 0\n" + tail, "m.yaml"));
  assert.deepEqual(
    e.configurations.map((c) => [c.id, c.repeats]),
    [["t-stdio", 4]],
  );
  assert.equal(e.excluded.length, 1);
  assert.match(e.excluded[0]!.reason, /^repeats is 0 \(include\[0\]\.repeats at m\.yaml:10:14\)$/);
});

test("exclude rules take value lists; include rules win over them", () => {
  const text =
    head +
    "  - name: size\n    values: [1, 2, 3]\nexclude:\n  - match: { size: [2, 3] }\n    reason: too big\ninclude:\n  - match: { transport: http, size: 3 }\n" +
    tail;
  const e = expand(parseMatrix(text, "m.yaml"));
  assert.deepEqual(
    e.configurations.map((c) => c.id),
    ["t-stdio-1", "t-http-1", "t-http-3"],
  );
  assert.deepEqual(
    e.excluded.map((c) => `${c.id}: ${c.reason}`),
    ["t-stdio-2: too big", "t-stdio-3: too big", "t-http-2: too big"],
  );
});

test("a target's transports, revisions and flows exclude the cells it cannot serve, with reasons", () => {
  const text =
    head.replace("[stdio, http]", "[stdio, http]\n  - name: revision\n    values: [a, b]\n  - name: flow\n    values: [x, y]") +
    "targets:\n  t:\n    revisions: [a]\n    flows: [y]\n    stdio: { argv: [node, t.js] }\n";
  const e = expand(parseMatrix(text, "m.yaml"));
  assert.deepEqual(
    e.configurations.map((c) => c.id),
    ["t-stdio-a-y"],
  );
  const reasons = new Set(e.excluded.map((c) => c.reason.replace(/ \(.*/, "")));
  assert.deepEqual([...reasons].sort(), ["target t declares no http command", "target t does not serve flow x", "target t does not speak revision b"]);
});

test("preflight checks a `requires` command only for the configurations its `when` matches", () => {
  // the script is this test file, so the command check that follows the requires check passes
  const script = JSON.stringify(fileURLToPath(import.meta.url));
  const text =
    head +
    "  - name: pinning\n    values: [none, split]\n" +
    tail.replace("  t:\n", "  t:\n    requires:\n      - command: wirecost-no-such-command\n        when: { pinning: split }\n").replaceAll("t.js", script);
  const m = parseMatrix(text, "m.yaml");
  const e = expand(m);
  preflight(
    m,
    e.configurations.filter((c) => c.values.pinning === "none"),
  );
  assert.throws(
    () => preflight(m, e.configurations),
    /^UserError: m\.yaml:13:9: target t requires the command "wirecost-no-such-command" \(for t-stdio-split\), which is not on PATH — /,
  );
});
