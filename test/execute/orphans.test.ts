/**
 * Targets never outlive wirecost (README, "What wirecost promises"), through the real CLI with
 * HTTP runs in flight (test/fixtures/orphans.yaml: targets that never answer and ignore SIGTERM,
 * one forked by the Python fork server): `kill -9` of `run` leaves no target process alive 2 s
 * later; with its watchdog killed too, the next `run --resume` of the folder stops the targets
 * left behind before it runs anything; SIGHUP is handled as SIGTERM (the stop line, the resume
 * line, the lock removed).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { cli, root } from "../paths.js";
import { processesWithMarker, tsv } from "./helpers.js";

const matrix = "test/fixtures/orphans.yaml";
/** Is python3 here for the fork-server target? Without it (outside CI) only the Node target runs. */
const HAVE_PYTHON = spawnSync("python3", ["--version"], { stdio: "ignore" }).status === 0;
if (!HAVE_PYTHON && process.env.CI === "true") throw new Error("python3 not found: the fork-server case needs it (install python3)");
/** `--only` for the configurations this machine can run. */
const ONLY = HAVE_PYTHON ? [] : ["--only", "raw-never-answers-http-*"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start `wirecost run orphans.yaml` into a new folder, its output collected; its targets carry `marker` in their environment. */
function startRun(marker: string, results: string, ...more: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, "run", matrix, "--jobs", "4", "--results", results, ...ONLY, ...more], {
    cwd: root,
    env: { ...process.env, WIRECOST_TEST_MARK: marker },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  return { child, output: () => out, exited };
}

/** Parent pid of `pid` (/proc/<pid>/stat field 4), undefined when gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Command line of `pid`, "" when gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Wait until the run's targets of both kinds are up: processes carrying `marker` other than wirecost itself, the Python child included. */
async function targetsUp(marker: string, wirecostPid: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pids = processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).filter((p) => p !== wirecostPid);
    const cmds = pids.map(commandOf);
    const py = !HAVE_PYTHON || cmds.some((c) => c.includes("forkserver.py serve"));
    if (cmds.some((c) => c.includes("never-answers.mjs")) && py && pids.length >= (HAVE_PYTHON ? 4 : 2)) return pids;
    if (Date.now() > deadline) throw new Error(`targets not up within 30 s: ${cmds.join(" | ")}`);
    await sleep(100);
  }
}

test("kill -9 of run during HTTP runs: no target process (fork server children included) alive 2 s later", { timeout: 60_000 }, async () => {
  const marker = randomUUID();
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-orphans-")), "results");
  const run = startRun(marker, results);
  const before = await targetsUp(marker, run.child.pid!);
  assert.ok(before.length >= 2, "targets running before the kill");
  process.kill(run.child.pid!, "SIGKILL");
  await run.exited;
  await sleep(2000);
  assert.deepEqual(
    processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).map((p) => `${p} ${commandOf(p)}`),
    [],
    "no target left 2 s after kill -9",
  );
});

test("run --resume stops the targets a killed run left (its watchdog killed too), then runs", { timeout: 90_000 }, async () => {
  const marker = randomUUID();
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-orphans-")), "results");
  const run = startRun(marker, results);
  const wirecostPid = run.child.pid!;
  await targetsUp(marker, wirecostPid);
  const watchdog = readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .find((p) => parentOf(p) === wirecostPid && commandOf(p).includes("watchdog.js"));
  assert.ok(watchdog, "the run has a watchdog");
  process.kill(watchdog, "SIGKILL");
  process.kill(wirecostPid, "SIGKILL");
  await run.exited;
  await sleep(500);
  const left = processesWithMarker(`WIRECOST_TEST_MARK=${marker}`);
  assert.ok(left.length > 0, "without the watchdog, targets are left (the case --resume must handle)");
  assert.ok(existsSync(join(results, ".wirecost-targets")), "their pid files are in the folder");

  const resumed = startRun(marker, results, "--resume");
  const deadline = Date.now() + 30_000;
  while (!/stopped \d+ target process group\(s\) left running by an earlier wirecost run/.test(resumed.output()) && Date.now() < deadline) await sleep(50);
  assert.match(resumed.output(), /note: .*: stopped \d+ target process group\(s\) left running by an earlier wirecost run that died \(pid \d+/);
  await sleep(300);
  for (const p of left)
    assert.ok(!processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).includes(p), `target ${p} (${commandOf(p)}) of the dead run was stopped`);
  process.kill(resumed.child.pid!, "SIGTERM");
  await resumed.exited;
});

test("SIGHUP during HTTP runs: handled as SIGTERM (stop line, resume line, lock removed, no target left)", { timeout: 60_000 }, async () => {
  const marker = randomUUID();
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-orphans-")), "results");
  const run = startRun(marker, results);
  await targetsUp(marker, run.child.pid!);
  process.kill(run.child.pid!, "SIGHUP");
  const code = await run.exited;
  const out = run.output();
  assert.equal(code, 130, out);
  assert.match(out, /^stopping: no new runs/m);
  assert.match(out, /^resume: npx wirecost run test\/fixtures\/orphans\.yaml (?:.* )?--results .* --resume$/m);
  assert.ok(!existsSync(join(results, ".wirecost-lock")), "the lock is removed");
  assert.ok(!existsSync(join(results, ".wirecost-targets")), "no pid file is left");
  await sleep(300);
  assert.deepEqual(processesWithMarker(`WIRECOST_TEST_MARK=${marker}`), [], "no target left");
});

/** Pids of the `sleep 600` daemons carrying `marker` (what test/fixtures/fault-targets/double-fork.sh leaves behind). */
const daemons = (marker: string) => processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).filter((p) => commandOf(p).startsWith("sleep 600"));

test("a target's double-forked daemon (setsid, stdio on /dev/null) is stopped with it: none left after the run, ok or timed out", {
  timeout: 90_000,
}, async () => {
  const marker = randomUUID();
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-double-fork-")), "results");
  const r = spawnSync(process.execPath, [cli, "run", "test/fixtures/double-fork.yaml", "--results", results], {
    cwd: root,
    env: { ...process.env, WIRECOST_TEST_MARK: marker },
    encoding: "utf8",
  });
  assert.equal(r.status, 1, r.stderr);
  const runs = new Map(tsv(join(results, "runs.tsv")).map((x) => [x.config!, x.status]));
  assert.equal(runs.get("jsonrpc-echo-stdio-plain"), "ok", r.stderr);
  assert.equal(runs.get("jsonrpc-hang-http-plain"), "timeout", r.stderr);
  await sleep(300);
  assert.deepEqual(
    processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).map((p) => `${p} ${commandOf(p)}`),
    [],
    "no process a target started is left",
  );
});

test("kill -9 of run and its watchdog while a target's double-forked daemon lives: run --resume stops the daemon", { timeout: 90_000 }, async () => {
  const marker = randomUUID();
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-double-fork-")), "results");
  const child = spawn(process.execPath, [cli, "run", "test/fixtures/double-fork.yaml", "--only", "jsonrpc-hang-http-plain", "--results", results], {
    cwd: root,
    env: { ...process.env, WIRECOST_TEST_MARK: marker },
    stdio: "ignore",
  });
  const exited = new Promise((res) => child.on("exit", res));
  const deadline = Date.now() + 30_000;
  while (daemons(marker).length === 0 || !existsSync(join(results, ".wirecost-targets"))) {
    if (Date.now() > deadline) throw new Error("the target's daemon did not start within 30 s");
    await sleep(100);
  }
  const watchdog = readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .find((p) => parentOf(p) === child.pid && commandOf(p).includes("watchdog.js"));
  assert.ok(watchdog, "the run has a watchdog");
  process.kill(watchdog, "SIGKILL");
  process.kill(child.pid!, "SIGKILL");
  await exited;
  await sleep(300);
  const left = daemons(marker);
  assert.ok(left.length > 0, "without wirecost and its watchdog, the daemon is left (the case --resume must handle)");
  const resumed = spawnSync(
    process.execPath,
    [cli, "run", "test/fixtures/double-fork.yaml", "--only", "jsonrpc-hang-http-plain", "--results", results, "--resume"],
    {
      cwd: root,
      env: { ...process.env, WIRECOST_TEST_MARK: marker },
      encoding: "utf8",
    },
  );
  assert.match(resumed.stderr, /note: .*: stopped \d+ target process group\(s\) left running by an earlier wirecost run/);
  await sleep(300);
  assert.deepEqual(
    processesWithMarker(`WIRECOST_TEST_MARK=${marker}`).map((p) => `${p} ${commandOf(p)}`),
    [],
    "the dead run's daemon and the resumed run's are stopped",
  );
});
