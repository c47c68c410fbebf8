/**
 * Every command wirecost prints for the user to run next is accepted by the command it names, and
 * every option a refusal tells the user to pass exists on the command that printed it. Each case
 * makes the real CLI print its line (verify's refusals, run's refusals for the per-call and timing
 * modes and for a folder it would drop, the --scratch refusals, merge's missing configurations,
 * expand's note on a missing toolchain, --only matching nothing); the printed commands are parsed
 * by the real program (bin/program.ts) and checked against the matrix's mode, and those that are
 * cheap to run are run. The resume, rerun and run-again lines are run in test/execute/interrupt.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { checkAccepted, parseWirecost, shellWords, suggestedCommands, unknownFlags } from "./cli.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `wirecost-${p}-`));
const wc = (args: string[], cwd = root) => execa(process.execPath, [cli, ...args], { cwd, reject: false });
const SMALL = "test/fixtures/runner-small.yaml";
const A = "raw-mcp-ts-v2-stdio-2026-07-28-plain";
const B = "raw-mcp-ts-v2-stdio-2025-11-25-plain";

/** The stderr lines of a refusal or note that `command` printed, each checked: its options exist on `command`, its suggested commands are accepted. */
function checkLines(stderr: string, command: string, fill: { id?: string; folder?: string } = {}): string[][] {
  const found: string[][] = [];
  for (const line of stderr.split("\n").filter(Boolean)) {
    assert.deepEqual(unknownFlags(line, command), [], `${command} printed options it does not have: ${line}`);
    for (const words of suggestedCommands(line)) {
      assert.doesNotThrow(() => checkAccepted(words, fill), `not accepted: npx wirecost ${words.join(" ")} (from: ${line})`);
      found.push(words);
    }
  }
  return found;
}

test("the helpers: shell words, suggested commands, and the parse refuse what commander refuses", () => {
  assert.deepEqual(shellWords(`run 'a b' --only 'it'\\''s' x`), ["run", "a b", "--only", "it's", "x"]);
  assert.deepEqual(suggestedCommands("run them: npx wirecost run m.yaml --only 'a*' --results NEW_FOLDER, then merge NEW_FOLDER too"), [
    ["run", "m.yaml", "--only", "a*", "--results", "NEW_FOLDER"],
  ]);
  assert.deepEqual(suggestedCommands("fix: regenerate with `npx wirecost run --results r` first"), [["run", "--results", "r"]]);
  assert.throws(() => parseWirecost(["verify", "--fresh"]), /unknown option '--fresh'/);
  assert.throws(() => parseWirecost(["verify", "--resume"]), /unknown option '--resume'/);
  assert.throws(() => parseWirecost(["run", "--jobs", "100000"]), /--jobs takes a whole number from 1 to/);
  assert.throws(() => checkAccepted(["run", "matrices/a2a-layer-cost.yaml", "--resume"]), /--resume: .* timing matrix/);
  assert.deepEqual(unknownFlags("pass --resume or --fresh", "verify"), ["--resume", "--fresh"]);
  assert.deepEqual(unknownFlags("pass --scratch a new folder", "verify"), []);
});

test("verify's refusals: every command they print is accepted, every option they name exists", async () => {
  const empty = tmp("verify-empty");
  for (const [args, id] of [
    [["verify", "--results", "results/a2a-layer-cost"], undefined],
    [["verify", "--results", "results/mcp-per-call-overhead"], undefined],
    [["verify", "matrices/a2a-layer-cost.yaml", "--results", "results"], undefined],
    [["verify", "matrices/a2a-layer-cost.yaml", "--results", empty], "a2a-js-default"],
    [["verify", "matrices/mcp-per-call-overhead.yaml", "--results", empty], "direct-in-process"],
  ] as const) {
    const r = await wc([...args]);
    assert.equal(r.exitCode, 1, r.stderr);
    const cmds = checkLines(r.stderr, "verify", { id });
    assert.equal(cmds.length, 1, `one command in: ${r.stderr}`);
  }
});

test("run's and verify's refusals about folders name only options that exist; their commands are accepted", { timeout: 120_000 }, async () => {
  const withA = join(tmp("fold-a"), "r");
  const withB = join(tmp("fold-b"), "r");
  assert.equal((await wc(["run", SMALL, "--only", A, "--repeats", "1", "--results", withA])).exitCode, 0);
  assert.equal((await wc(["run", SMALL, "--only", B, "--repeats", "1", "--results", withB])).exitCode, 0);
  // run without --resume would drop another configuration's results.
  const drop = await wc(["run", SMALL, "--only", B, "--repeats", "1", "--results", withA]);
  assert.equal(drop.exitCode, 1);
  checkLines(drop.stderr, "run");
  // --resume with another matrix.
  const other = await wc(["run", "test/fixtures/interrupt.yaml", "--results", withA, "--resume"]);
  assert.equal(other.exitCode, 1);
  assert.match(other.stderr, /pass --fresh instead of --resume/);
  checkLines(other.stderr, "run");
  // verify into a --scratch folder holding another configuration: it used to suggest --resume and --fresh, which verify does not have.
  const scratch = await wc(["verify", SMALL, "--results", withA, "--scratch", withB]);
  assert.equal(scratch.exitCode, 1);
  assert.match(scratch.stderr, /--scratch .* holds results of 1 configuration\(s\) the re-run does not select/);
  checkLines(scratch.stderr, "verify");
  const same = await wc(["verify", SMALL, "--results", withA, "--scratch", withA]);
  assert.equal(same.exitCode, 1);
  assert.match(same.stderr, /--scratch \S+ is the results folder \S+ — give --scratch a folder outside it/);
  checkLines(same.stderr, "verify");
  // --only matching nothing names the expand command.
  const none = await wc(["run", SMALL, "--only", "nothing-like-this", "--results", withA]);
  assert.equal(none.exitCode, 1);
  const [expand] = checkLines(none.stderr, "run");
  assert.deepEqual(expand, ["expand", SMALL]);
  assert.equal((await wc(expand!)).exitCode, 0, "the expand command runs");
});

test("per-call and timing refusals of --jobs, --shard and --resume: the command they print is accepted", async () => {
  for (const [matrix, id] of [
    ["matrices/mcp-per-call-overhead.yaml", "direct-in-process"],
    ["matrices/a2a-layer-cost.yaml", "a2a-js-default"],
  ] as const) {
    for (const flag of [["--jobs", "2"], ["--shard", "1/2"], ["--resume"]]) {
      const r = await wc(["run", matrix, ...flag, "--results", tmp("modes")]);
      assert.equal(r.exitCode, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`^wirecost: ${flag[0]}: `));
      const [cmd] = checkLines(r.stderr, "run", { id });
      assert.ok(cmd, r.stderr);
    }
  }
});

test("merge's missing configurations: the run command it prints runs them, and the merge then completes", { timeout: 120_000 }, async () => {
  const shard = join(tmp("shard"), "s1");
  assert.equal((await wc(["run", SMALL, "--shard", "1/3", "--repeats", "1", "--results", shard])).exitCode, 0);
  const merged = join(tmp("merged"), "m");
  const m = await wc(["merge", shard, "--results", merged]);
  assert.equal(m.exitCode, 1, m.stderr);
  const rest = join(tmp("rest"), "r");
  const cmds = checkLines(m.stderr, "merge", { folder: rest });
  assert.equal(cmds.length, 1, m.stderr);
  const run = cmds[0]!.map((w) => (w === "NEW_FOLDER" ? rest : w));
  assert.equal(run[run.indexOf("--repeats") + 1], "1", "the shards' --repeats 1 is kept");
  const r = await wc(run);
  assert.equal(r.exitCode, 0, r.stderr);
  const whole = await wc(["merge", shard, rest, "--results", join(tmp("whole"), "w")]);
  assert.equal(whole.exitCode, 0, whole.stderr);
});

test("expand's note on a target whose toolchain is missing: the run command it prints records those runs as skipped", async () => {
  const dir = tmp("expand-note");
  writeFileSync(join(dir, "build.sh"), "exit 0\n");
  const matrix = join(dir, "matrix.yaml");
  writeFileSync(
    matrix,
    `version: 1
repeats: 1
axes:
  - { name: target, values: [needs-tool] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2026-07-28"] }
  - { name: flow, values: [plain] }
targets:
  needs-tool:
    build:
      command: [bash, build.sh, "{build}"]
      inputs: [build.sh]
      toolchain:
        - { command: wirecost-no-such-tool, install: "the wirecost-no-such-tool toolkit" }
    stdio: { argv: ["{build}/run.sh"] }
`,
  );
  const e = await wc(["expand", matrix], dir);
  assert.equal(e.exitCode, 0, e.stderr);
  const notes = e.stderr.split("\n").filter((l) => l.startsWith("note: "));
  assert.equal(notes.length, 1, e.stderr);
  const [cmd] = checkLines(notes[0]!, "expand");
  assert.ok(cmd?.includes("--skip-missing-toolchains"), notes[0]);
  const r = await wc([...cmd!, "--results", join(dir, "results")], dir);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stderr, /0 of 1 runs ok, 1 skipped/);
});

test("a journal that cannot be read as it is: the command its line prints names the folder's own matrix, and runs it into a new folder", {
  timeout: 120_000,
}, async () => {
  const ECHO = "test/fixtures/matrices/jsonrpc-echo.yaml";
  const folder = join(tmp("journal"), "r");
  assert.equal((await wc(["run", ECHO, "--repeats", "1", "--results", folder])).exitCode, 0);
  const plan = join(folder, "runs", "plan.json");
  const good = readFileSync(plan, "utf8");
  for (const [what, text] of [
    ["an older schema version", good.replace(/"schemaVersion": 1/, '"schemaVersion": 0')],
    ["not JSON", "{ half a plan"],
  ] as const) {
    writeFileSync(plan, text);
    const r = await wc(["recount", "--results", folder]);
    assert.equal(r.exitCode, 1, `${what}: ${r.stderr}`);
    const fresh = join(tmp("journal-new"), "r");
    const cmds = checkLines(r.stderr, "recount", { folder: fresh });
    assert.equal(cmds.length, 1, `${what}: one command in ${r.stderr}`);
    assert.deepEqual(cmds[0]!.slice(0, 2), ["run", ECHO], `${what}: the folder's own matrix, not the default one`);
    const again = await wc(cmds[0]!.map((w) => (w === "NEW_FOLDER" ? fresh : w)));
    assert.equal(again.exitCode, 0, `${what}: ${again.stderr}`);
    assert.equal((await wc(["recount", "--results", fresh])).exitCode, 0, `${what}: the new folder reads`);
  }
});
