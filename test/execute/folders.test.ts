/**
 * Results and site folders through the real CLI: a folder that cannot be written (no permission:
 * as root the CLI runs as `nobody`), a file where a folder is wanted (`--results`, `--site`), and a
 * second run into a folder another run is writing each give one line naming the path and the
 * fix, and exit 1 — no stack trace. The lock (runner/results/lock.ts) is taken by every mode, is
 * gone when the run ends, and a stale one (its process gone) is taken over with a note.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `wirecost-${p}-`));
/** Run the CLI (as another user when `as` says so). */
const wc = (args: string[], as: { uid?: number; gid?: number; timeout?: number; killSignal?: NodeJS.Signals } = {}) =>
  execa(process.execPath, [cli, ...args], { cwd: root, reject: false, ...as });
const QUICK = ["test/fixtures/runner-small.yaml", "--only", "raw-mcp-ts-v2-stdio-2026-07-28-plain", "--repeats", "1"];

/** One line on stderr, starting `wirecost: `, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line:\n${stderr}`);
  assert.match(lines[0]!, /^wirecost: /);
  assert.doesNotMatch(stderr, /^\s+at /m);
  return lines[0]!;
}

test("a results folder that cannot be written: one line naming it, its parent and the fix; exit 1", async (t) => {
  // Root may write anywhere: run the CLI as nobody, for whom a root-owned 755 folder is read-only.
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync(process.execPath, [cli, "--version"], { uid: 65534, gid: 65534 }).status !== 0) {
    // A checkout under a folder only root may enter (e.g. `mktemp -d`, mode 700): nobody cannot start the CLI at all.
    t.skip(`user nobody cannot run ${cli} (a folder above ${root} is closed to other users)`);
    return;
  }
  const parent = join(tmp("ro"), "locked");
  mkdirSync(parent);
  if (asRoot) chmodSync(join(parent, ".."), 0o755);
  else chmodSync(parent, 0o555);
  const as = asRoot ? { uid: 65534, gid: 65534 } : {};
  const inside = await wc(["run", ...QUICK, "--results", join(parent, "r")], as);
  assert.equal(inside.exitCode, 1);
  assert.equal(
    oneLine(inside.stderr),
    `wirecost: --results ${join(parent, "r")}: cannot create it: permission denied (EACCES) — make ${parent} writable for you (ls -ld ${parent}), or pass --results another path`,
  );
  const itself = await wc(["run", ...QUICK, "--results", parent], as);
  assert.equal(itself.exitCode, 1);
  assert.match(
    oneLine(itself.stderr),
    new RegExp(`^wirecost: --results ${parent}: cannot open ${parent}/\\.wirecost-lock: permission denied \\(EACCES\\) — make ${parent} writable`),
  );
  const site = await wc(["render", "--results", "test/fixtures/results-basic", "--site", join(parent, "site")], as);
  assert.equal(site.exitCode, 1);
  assert.match(oneLine(site.stderr), /: permission denied \(EACCES\) — .* or pass --site another path$/);
});

test("a file as --site or --results: one line naming the file and the fix; exit 1", async () => {
  const dir = tmp("file");
  const file = join(dir, "a-file");
  writeFileSync(file, "not a folder\n");
  const site = await wc(["render", "--results", "test/fixtures/results-basic", "--site", file]);
  assert.equal(site.exitCode, 1);
  assert.equal(
    oneLine(site.stderr),
    `wirecost: --site ${file}: cannot create it: it is a file, not a folder (EEXIST) — ${file} is a file: pass --site another path (a folder), or move the file away`,
  );
  const under = await wc(["render", "--results", "test/fixtures/results-basic", "--site", join(file, "site")]);
  assert.equal(under.exitCode, 1);
  assert.match(oneLine(under.stderr), new RegExp(`\\(ENOTDIR\\) — ${file} is a file: pass --site another path`));
  const results = await wc(["run", ...QUICK, "--results", file]);
  assert.equal(results.exitCode, 1);
  assert.match(oneLine(results.stderr), new RegExp(`^wirecost: --results ${file}: cannot create it: it is a file, not a folder \\(EEXIST\\)`));
  assert.equal(readFileSync(file, "utf8"), "not a folder\n", "the file is left alone");
});

test("a second run into a folder being written is refused naming the first one's pid; the first finishes whole", { timeout: 120_000 }, async () => {
  const dir = join(tmp("lock"), "results");
  // Long enough (60 runs one at a time) that the three refused commands all come while it runs, on a loaded machine too.
  const first = execa(process.execPath, [cli, "run", "test/fixtures/runner-small.yaml", "--repeats", "15", "--jobs", "1", "--results", dir], {
    cwd: root,
    reject: false,
  });
  const lock = join(dir, ".wirecost-lock");
  // Wait for its lock as long as it runs (a loaded machine can take seconds to start it), 60 s at most.
  let exited = false;
  void first.then(() => (exited = true));
  for (let i = 0; i < 2400 && !exited && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(existsSync(lock), `the first run holds the lock${exited ? ` (it exited first: ${(await first).stderr})` : ""}`);
  const held = JSON.parse(readFileSync(lock, "utf8")) as { pid: number; command: string };
  assert.equal(held.pid, first.pid);
  for (const args of [
    ["run", "test/fixtures/runner-small.yaml", "--results", dir],
    ["merge", join(root, "test/fixtures/results-wire"), "--results", dir],
    ["recount", "--results", dir],
  ]) {
    const second = await wc(args);
    assert.equal(second.exitCode, 1, `${args[0]}: ${second.stderr}`);
    assert.match(
      oneLine(second.stderr),
      new RegExp(
        `^wirecost: --results ${dir}: is being written by wirecost pid ${first.pid}, started \\S+: wirecost run .* — wait for it to finish, or pass --results another folder`,
      ),
    );
  }
  const done = await first;
  assert.equal(done.exitCode, 0, done.stderr);
  assert.equal(tsv(join(dir, "runs.tsv")).length, 60, "4 configurations × 15 repeats");
  assert.ok(!existsSync(lock), "the lock goes with its run");
});

test("a stale lock (its process is gone) is taken over with a note; every mode takes the lock", { timeout: 60_000 }, async () => {
  const dir = join(tmp("stale"), "results");
  mkdirSync(dir, { recursive: true });
  const gone = spawnSync(process.execPath, ["-e", "0"]);
  writeFileSync(
    join(dir, ".wirecost-lock"),
    JSON.stringify({ pid: gone.pid, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z", command: "wirecost run killed" }),
  );
  const r = await wc(["run", ...QUICK, "--results", dir]);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`^note: ${dir}: took over the lock of wirecost pid ${gone.pid} \\(started 2026-01-01T00:00:00.000Z\\), which is no longer running$`, "m"),
  );
  assert.ok(!existsSync(join(dir, ".wirecost-lock")));

  // A live holder (this test process) refuses the per-call and timing modes too, before they run anything.
  const live = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: "wirecost run other" });
  for (const matrix of ["test/fixtures/matrices/percall-small.yaml", "matrices/a2a-layer-cost.yaml"]) {
    const folder = join(tmp("modes"), "results");
    mkdirSync(folder);
    writeFileSync(join(folder, ".wirecost-lock"), live);
    const refused = await wc(["run", matrix, "--results", folder]);
    assert.equal(refused.exitCode, 1, refused.stderr);
    assert.match(oneLine(refused.stderr), new RegExp(`is being written by wirecost pid ${process.pid}, started .*: wirecost run other — `));
    assert.ok(existsSync(join(folder, ".wirecost-lock")), "another's lock is left alone");
  }
});

test("a FIFO or a symbolic link in the lock's place: one line from every command that locks, at once; it is never read nor removed", {
  timeout: 60_000,
}, async () => {
  const victim = join(tmp("lock-victim"), "keep.txt");
  writeFileSync(victim, "mine\n");
  const odd: [string, (p: string) => void][] = [
    ["a FIFO", (p) => assert.equal(spawnSync("mkfifo", [p]).status, 0)],
    ["a symbolic link", (p) => symlinkSync(victim, p)],
  ];
  for (const [kind, make] of odd) {
    const dir = join(tmp("odd-lock"), "results");
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, ".wirecost-lock");
    make(lock);
    for (const args of [["run", ...QUICK], ["recount"], ["conformance", "--target", "mcp-ts-v2"]]) {
      // SIGKILL at the limit: a command blocked reading a FIFO never runs its SIGTERM handler.
      const r = await wc([...args, "--results", dir], { timeout: 20_000, killSignal: "SIGKILL" });
      assert.equal(r.exitCode, 1, `${args[0]} with ${kind}: ${r.stderr}`);
      assert.equal(
        oneLine(r.stderr),
        `wirecost: ${lock}: ${kind} where wirecost keeps the folder's lock, not a lock it wrote; fix: remove it, or pass --results another folder`,
      );
      assert.ok(lstatSync(lock).isFIFO() || lstatSync(lock).isSymbolicLink(), "left where it was");
    }
  }
  assert.equal(readFileSync(victim, "utf8"), "mine\n");
});

test("a full disk when the lock is written: one line naming the option and the lock; no empty lock left, no folder it made", { timeout: 60_000 }, async (t) => {
  const disk = tmp("full");
  if (process.getuid?.() !== 0 || spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk]).status !== 0) {
    t.skip("needs root to mount a small tmpfs (mount -t tmpfs) to fill");
    return;
  }
  try {
    const existing = join(disk, "results");
    mkdirSync(existing);
    try {
      writeFileSync(join(disk, "fill"), Buffer.alloc(1 << 20)); // more than the disk holds: fills it
    } catch (e) {
      assert.equal((e as NodeJS.ErrnoException).code, "ENOSPC");
    }
    const recount = await wc(["recount", "--results", existing]);
    assert.equal(recount.exitCode, 1, recount.stderr);
    assert.equal(
      oneLine(recount.stderr),
      `wirecost: --results ${existing}: cannot write ${existing}/.wirecost-lock: no space left on the device (ENOSPC) — free some space, or pass --results another path on another disk`,
    );
    assert.deepEqual(readdirSync(existing), [], "no empty lock left");

    const made = join(disk, "new");
    const run = await wc(["run", ...QUICK, "--results", made]);
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(
      oneLine(run.stderr),
      new RegExp(`^wirecost: --results ${made}: cannot write ${made}/\\.wirecost-lock: no space left on the device \\(ENOSPC\\)`),
    );
    assert.ok(!existsSync(made), "the folder the run made is gone with its lock");
  } finally {
    spawnSync("umount", [disk]);
  }
});
