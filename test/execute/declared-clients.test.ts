/**
 * Clients declared in YAML (`clients:`): one that exits at once, one that prints garbage and never
 * connects (exit 0), one that sends bytes holding no JSON-RPC message (exit 0), and one that hangs are recorded failed (or timeout) with their stderr line,
 * never as rows of zeros; their stdout and stderr are kept beside the run's log. The matrix
 * refuses a misplaced placeholder at its line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { expand } from "../../runner/matrix/expand.js";
import { clientCommand, stdioWrapper } from "../../runner/drivers/declared.js";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";

test("a declared client that exits at once, prints garbage, sends no JSON-RPC message, or hangs is a recorded failure with its stderr line", {
  timeout: 60_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-declared-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/declared-clients.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  const runs = new Map(tsv(join(out, "runs.tsv")).map((x) => [x.config!.replace(/-mcp-ts-v2|-2025-11-25-list/g, ""), x]));
  const expect: Record<string, [string, RegExp]> = {
    "quits-stdio": ["failed", /^client quits exited 3 \| client stderr: quits: no server for me$/],
    "quits-http": ["failed", /^client quits exited 3 \| client stderr: quits: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp/],
    "garbage-stdio": ["failed", /^client garbage exited 0 having sent nothing to the target \| client stderr: garbage: never connected$/],
    "garbage-http": [
      "failed",
      /^client garbage exited 0 having sent nothing to the target \| client stderr: garbage: never connected to http:\/\/127\.0\.0\.1:\d+\/mcp$/,
    ],
    "noise-stdio": [
      "failed",
      /^client noise exited 0 having sent no JSON-RPC message to the target \(9 bytes; stdio-non-jsonrpc-line\) \| client stderr: noise: sent it$/,
    ],
    "noise-http": [
      "failed",
      /^client noise exited 0 having sent no JSON-RPC message to the target \(\d+ bytes; invalid-json\) \| client stderr: noise: sent it$/,
    ],
    "hangs-stdio": ["timeout", /time limit of 4 s .*client stderr: hangs: waiting for nothing/],
    "hangs-http": ["timeout", /time limit of 4 s .*client stderr: hangs: waiting for nothing/],
  };
  assert.deepEqual([...runs.keys()].sort(), Object.keys(expect).sort());
  for (const [name, [status, error]] of Object.entries(expect)) {
    const run = runs.get(name)!;
    assert.equal(run.status, status, `${name}: ${run.error}`);
    assert.match(run.error!, error, name);
    assert.equal(run.total_bytes, "", `${name}: no counts for a failed run`);
  }
  const logs = join(out, "logs", "garbage-mcp-ts-v2-http-2025-11-25-list");
  assert.equal(readFileSync(join(logs, "1.client-stdout.txt"), "utf8"), "%%%% garbage %%%%\n", "the client's stdout is kept with the run");
  assert.match(readFileSync(join(logs, "1.client-stderr.txt"), "utf8"), /garbage: never connected/);
  assert.ok(!existsSync(join(out, "logs", "quits-mcp-ts-v2-stdio-2025-11-25-list", "1.jsonl")), "a client that never started the tap leaves no log");
});

/** A matrix with one declared client `c` whose commands are `stdio` and `http` (YAML flow text). */
function matrix(stdio: string, http: string): string {
  return `version: 1
axes:
  - { name: client, values: [raw, c] }
  - { name: target, values: [t] }
  - { name: transport, values: [stdio, http] }
  - { name: revision, values: ["2025-11-25"] }
  - { name: flow, values: [plain, list] }
exclude:
  - match: { client: raw, flow: list }
  - match: { client: c, flow: plain }
clients:
  c:
    revisions: ["2025-11-25"]
    flows: { list: [--method, tools/list] }
    stdio: ${stdio}
    http: ${http}
targets:
  t:
    stdio: { argv: [node, t.js, --transport, stdio, "{revision}"], env: { T_MODE: "x{flow}" } }
    http: { argv: [node, t.js, --port, "{port}"] }
`;
}

test("clients: placeholders are checked where they are written; {stdio} and {flowargs} splice whole argv items", () => {
  const ok = parseMatrix(matrix('{ argv: [cl, "{flowargs}", --, "{stdio}"] }', '{ argv: [cl, "--url={url}", "{flowargs}"] }'), "m.yaml");
  assert.equal(expand(ok).configurations.filter((c) => c.values.client === "c").length, 2);
  const bad: [string, string, RegExp][] = [
    ['{ argv: [cl, "{url}"] }', '{ argv: [cl, "{url}"] }', /m\.yaml:\d+:\d+: placeholder \{url\} in a stdio command — .*use \{stdio\}/],
    ['{ argv: [cl, "x{stdio}"] }', '{ argv: [cl, "{url}"] }', /\{stdio\} stands for several argv items — write it as an argv item of its own/],
    ['{ argv: [cl, "{stdio}"] }', '{ argv: [cl, "{stdio}"] }', /placeholder \{stdio\} in an http command/],
    ['{ argv: [cl, "{stdio}"] }', "{ argv: [cl] }", /http command has no \{url\}/],
    ["{ argv: [cl] }", '{ argv: [cl, "{url}"] }', /stdio command has no \{stdio\} item/],
    ['{ argv: [cl, "{stdio}", "{nope}"] }', '{ argv: [cl, "{url}"] }', /placeholder \{nope\} names no axis/],
  ];
  for (const [stdio, http, re] of bad) assert.throws(() => parseMatrix(matrix(stdio, http), "m.yaml"), re, `${stdio} / ${http}`);
  const timing = matrix('{ argv: [cl, "{stdio}"] }', '{ argv: [cl, "{url}"] }').replace("version: 1\n", "version: 1\nmeasures: [latency]\n");
  assert.throws(() => parseMatrix(timing, "m.yaml"), /m\.yaml:\d+:\d+: clients: declares clients run as commands, which bytes and per-call runs use/);
  const noSuch = matrix('{ argv: [cl, "{stdio}"] }', '{ argv: [cl, "{url}"] }').replace("values: [raw, c]", "values: [raw, d]");
  assert.throws(() => parseMatrix(noSuch, "m.yaml"), /unknown client "d" — use one of: raw, sdk, sdk-v1, sdk-v2, jsonrpc, c, or declare it under clients:/);

  const c = ok.clients!.c!;
  const values = { client: "c", target: "t", transport: "stdio", revision: "2025-11-25", flow: "list" };
  const wrapper = stdioWrapper(ok.targets.t!.commands.stdio!, values, "/r/logs/x/1.jsonl", 2 * 1024 * 1024);
  assert.deepEqual(wrapper.slice(-12), [
    "capture",
    "--quiet",
    "--limit-mib",
    "2",
    "--log",
    "/r/logs/x/1.jsonl",
    "--",
    process.execPath,
    "t.js",
    "--transport",
    "stdio",
    "2025-11-25",
  ]);
  assert.ok(wrapper.includes("T_MODE=xlist") && wrapper.includes("WIRECOST_REVISION=2025-11-25"), "the target's environment travels in the wrapper");
  const cmd = clientCommand(c, "stdio", "list", { stdio: ["a{b}", "c"] });
  assert.deepEqual(cmd.argv, ["cl", "--method", "tools/list", "--", "a{{b}}", "c"]);
  assert.deepEqual(clientCommand(c, "http", "list", {}).argv, ["cl", "--url={url}", "--method", "tools/list"]);
});

test("a declared client that exits leaving a background process that holds its output ends its run when it exits, not at the time limit", {
  timeout: 60_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-declared-bg-"));
  const started = Date.now();
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/declared-client-background.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 0, r.stderr);
  const [run] = tsv(join(out, "runs.tsv"));
  assert.equal(run!.status, "ok", run!.error);
  assert.equal(run!.jsonrpc_c2s, "1");
  assert.ok(Date.now() - started < 18_000, `the run waited for the background process (${Date.now() - started} ms)`);
});
