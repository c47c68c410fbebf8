/**
 * ^C typed on a terminal (the real CLI on a pseudo-terminal, test/execute/cli.ts), in each place
 * a run can be: runs in flight, among them a target that never answers driven by the SDK client
 * over stdio (its pending request's timer used to keep wirecost alive for the whole time limit)
 * and one over HTTP that ignores SIGTERM; a target build; a per-call run (an immediate mode).
 * Each ends within a second of the ^C, with the resume (or run-again) line printed once, every
 * finished run kept, no process left, the results folder's lock removed, and the printed
 * command accepted by `wirecost run` (the resume line is run).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { alive, processesWithMarker, tsv } from "./helpers.js";
import { checkAccepted, onPty, plainLines, suggestedCommands } from "./cli.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `wirecost-${p}-`));
/** The most a ^C may take to end wirecost, ms (the bound). */
const BOUND_MS = 1000;

/** Journal files of a bytes results folder: `config/repeat.json` → contents. */
function journal(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const runs = join(dir, "runs");
  if (!existsSync(runs)) return out;
  for (const c of readdirSync(runs, { withFileTypes: true }).filter((e) => e.isDirectory()))
    for (const f of readdirSync(join(runs, c.name))) out.set(`${c.name}/${f}`, readFileSync(join(runs, c.name, f), "utf8"));
  return out;
}

/** The lines of `text` that start with `prefix`. */
const linesStarting = (text: string, prefix: string) => plainLines(text).filter((l) => l.startsWith(prefix));

test("^C on a terminal during runs: exits within a second, keeps every finished run, leaves no process; the resume line resumes", {
  timeout: 120_000,
}, async (t) => {
  const dir = join(tmp("int"), "results");
  const marker = randomUUID();
  const matrix = "test/fixtures/interrupt.yaml";
  const run = onPty(["run", matrix, "--jobs", "4", "--results", dir], { WIRECOST_TEST_MARK: marker });
  // Two runs of the quick target done; the never-answering ones are in flight (limit 3 s each).
  await run.waitFor(/\b[2-9]\/8 runs/);
  const sent = run.interrupt();
  const { code, at } = await run.exited;
  const took = at - sent;
  t.diagnostic(`exited ${took} ms after ^C`);
  const out = run.output();
  assert.equal(code, 130, out);
  assert.ok(took < BOUND_MS, `exited ${took} ms after ^C (bound ${BOUND_MS} ms):\n${out}`);
  assert.deepEqual(processesWithMarker(`WIRECOST_TEST_MARK=${marker}`), [], "no target (or its grandchild) left");
  assert.ok(!existsSync(join(dir, ".wirecost-lock")), "the lock is removed");
  const resumeLines = linesStarting(out, "resume: ");
  assert.equal(resumeLines.length, 1, `one resume line:\n${out}`);
  const written = /interrupted: (\d+) runs written to /.exec(plainLines(out).join("\n"));
  assert.ok(written, out);
  const kept = journal(dir);
  assert.equal(kept.size, Number(written[1]), "every finished run is in the journal");
  assert.ok(Number(written[1]) >= 2, out);
  assert.ok(
    tsv(join(dir, "runs.tsv")).every((r) => r.status === "ok"),
    "no run stopped by ^C is recorded",
  );

  // The resume line as printed: accepted by `wirecost run`, and it finishes the folder.
  const [resume] = suggestedCommands(resumeLines[0]!);
  assert.ok(resume, resumeLines[0]);
  checkAccepted(resume);
  assert.deepEqual(resume.slice(0, 2), ["run", matrix]);
  assert.ok(resume.includes("--resume"));
  const resumed = await execa(process.execPath, [cli, ...resume], { cwd: root, reject: false, env: { WIRECOST_TEST_MARK: marker } });
  assert.equal(resumed.exitCode, 1, `the never-answering target times out: ${resumed.stderr}`);
  assert.match(resumed.stderr, /done before, resumed/);
  const runs = tsv(join(dir, "runs.tsv"));
  assert.equal(runs.length, 8);
  const after = journal(dir);
  for (const [k, v] of kept) assert.equal(after.get(k), v, `${k} kept as it was`);
  assert.deepEqual(
    runs.filter((r) => r.status === "ok").map((r) => r.config!.split("-")[1]),
    ["mcp", "mcp", "mcp", "mcp"],
  );
  // The rerun line the resumed run prints is accepted too.
  const rerun = linesStarting(resumed.stderr, "rerun them: ");
  assert.equal(rerun.length, 1, resumed.stderr);
  const [again] = suggestedCommands(rerun[0]!);
  assert.ok(again);
  checkAccepted(again);
  assert.deepEqual(processesWithMarker(`WIRECOST_TEST_MARK=${marker}`), []);
});

test("^C on a terminal during a target build: exits within a second, the build stopped, nothing written; the run-again line is accepted", {
  timeout: 60_000,
}, async (t) => {
  const work = tmp("build-int");
  const pidFile = join(work, "build.pid");
  writeFileSync(join(work, "build.sh"), `echo $$ > ${JSON.stringify(pidFile)}\necho compiling\nsleep 60\n`);
  const matrix = join(work, "matrix.yaml");
  writeFileSync(
    matrix,
    `version: 1
repeats: 1
axes:
  - { name: target, values: [slow-build] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2026-07-28"] }
  - { name: flow, values: [plain] }
targets:
  slow-build:
    build:
      command: [bash, build.sh, "{build}"]
      inputs: [build.sh]
    stdio: { argv: ["{build}/run.sh"] }
`,
  );
  const dir = join(work, "results");
  const run = onPty(["run", matrix, "--results", dir], { WIRECOST_BUILD_ROOT: join(work, "build"), WIRECOST_CACHE_ROOT: join(work, "cache") }, work);
  await run.waitFor(/building target slow-build/);
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
  const buildPid = Number(readFileSync(pidFile, "utf8"));
  const sent = run.interrupt();
  const { code, at } = await run.exited;
  t.diagnostic(`exited ${at - sent} ms after ^C`);
  const out = run.output();
  assert.equal(code, 130, out);
  assert.ok(at - sent < BOUND_MS, `exited ${at - sent} ms after ^C:\n${out}`);
  assert.ok(!alive(buildPid), "the build is stopped");
  assert.ok(!existsSync(join(work, "build", "slow-build")), "no build folder");
  assert.ok(!existsSync(dir), "the results folder is not created");
  const again = linesStarting(out, "run again: ");
  assert.equal(again.length, 1, out);
  const [cmd] = suggestedCommands(again[0]!);
  assert.ok(cmd && !cmd.includes("--resume"), again[0]);
  checkAccepted(cmd);
});

test("^C on a terminal during a per-call run (immediate): exits within a second, no process left, the lock removed", { timeout: 60_000 }, async (t) => {
  const dir = join(tmp("percall-int"), "results");
  const marker = randomUUID();
  const run = onPty(["run", "test/fixtures/matrices/percall-small.yaml", "--results", dir], { WIRECOST_TEST_MARK: marker });
  await run.waitFor(/trial 1\/1 mcp-ts-v1-stdio/);
  const sent = run.interrupt();
  const { code, at } = await run.exited;
  t.diagnostic(`exited ${at - sent} ms after ^C`);
  const out = run.output();
  assert.equal(code, 130, out);
  assert.ok(at - sent < BOUND_MS, `exited ${at - sent} ms after ^C:\n${out}`);
  assert.match(plainLines(out).join("\n"), /SIGINT: stopped every target; nothing written/);
  assert.deepEqual(processesWithMarker(`WIRECOST_TEST_MARK=${marker}`), []);
  assert.ok(!existsSync(join(dir, ".wirecost-lock")), "the lock is removed");
});
