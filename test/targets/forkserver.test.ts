/**
 * Fork servers (runner/targets/forkserver.ts, targets/common/forkserver.py) with real processes:
 * a forked child is the script as `python SCRIPT ARG...` would run it (argv, cwd, environment,
 * stdin and stdout passed through, exit code kept, its own compiler flags); a signal to the launcher reaches the child and
 * the launcher dies of it too; a killed launcher takes its child with it; and the mcp-py target's
 * bytes are the same forked or started fresh. The first three use the machine's python3 and a
 * small script; the last needs the mcp-py build (skipped with the reason where python3 -m venv is
 * missing, except under CI=true).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { ForkServers } from "../../runner/targets/forkserver.js";
import { startTarget } from "../../runner/targets/process.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import type { Target } from "../../runner/matrix/types.js";
import { tsv } from "../execute/helpers.js";
import { cli, root } from "../paths.js";

/** A target of the machine's python3 running `script.py` from a scratch folder, through a fork server that preloads `json`. */
function scratchTarget(source: string): { dir: string; target: Target } {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-fork-test-"));
  writeFileSync(join(dir, "script.py"), source);
  const argv = ["python3", "script.py", "--flag", "{port}"];
  return { dir, target: { name: "py", label: "py", requires: [], commands: { stdio: { argv, env: {} } }, forkserver: { preload: ["json"] } } };
}

const ECHO = `import json, os, sys
def f(x: int): pass
line = sys.stdin.readline()
sys.stdout.write(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "knob": os.environ.get("WIRECOST_KNOB"), "line": line, "main": __name__, "path0": sys.path[0], "annotation": type(f.__annotations__["x"]).__name__}) + "\\n")
sys.stdout.flush()
sys.stderr.write("to stderr\\n")
sys.exit(3)
`;

test("a forked child runs the script as python would: argv, cwd, environment, stdio, exit code", { timeout: 60_000 }, async () => {
  const { dir, target } = scratchTarget(ECHO);
  const servers = new ForkServers();
  try {
    const cmd = await servers.command(target, target.commands.stdio!, dir);
    assert.deepEqual(cmd.argv.slice(1, 5), ["-I", "-S", join(root, "targets/common/forkserver.py"), "launch"]);
    const proc = startTarget(cmd, { port: "4242", knob: "on" }, dir);
    proc.child.stdin!.end("hello\n");
    let out = "";
    proc.child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await proc.child;
    assert.equal(proc.exit(), "3", "the child's exit code");
    const seen = JSON.parse(out) as Record<string, unknown>;
    assert.deepEqual(seen.argv, ["script.py", "--flag", "4242"]);
    assert.equal(seen.cwd, dir);
    assert.equal(seen.knob, "on", "the run's environment, not the fork server's");
    assert.equal(seen.line, "hello\n");
    assert.equal(seen.main, "__main__");
    assert.equal(seen.path0, dir, "sys.path[0] is the script's folder");
    assert.equal(seen.annotation, "type", "no __future__ flag of forkserver.py leaks into the script (its annotations are not strings)");
    assert.match(proc.stderrExcerpt(), /to stderr/);
    await proc.stop();
  } finally {
    await servers.close();
  }
});

test("SIGTERM to the launcher reaches the child; a SIGKILLed launcher's child is killed", { timeout: 60_000 }, async () => {
  const { dir, target } = scratchTarget(`import os, signal, sys, time
pidfile = os.environ["WIRECOST_PIDFILE"]
open(pidfile, "w").write(str(os.getpid()))
print("up", flush=True)
time.sleep(60)
`);
  const servers = new ForkServers();
  try {
    const cmd = await servers.command(target, target.commands.stdio!, dir);
    for (const how of ["SIGTERM", "SIGKILL"] as const) {
      const pidfile = join(dir, `${how}.pid`);
      const proc = startTarget({ ...cmd, env: { WIRECOST_PIDFILE: pidfile } }, {}, dir);
      await new Promise<void>((r) => proc.child.stdout!.once("data", () => r()));
      const child = Number(readFileSync(pidfile, "utf8"));
      process.kill(proc.pid, how);
      await proc.child;
      assert.equal(proc.exit(), how, `the launcher ends by ${how}`);
      const deadline = Date.now() + 5000;
      let alive = true;
      while (alive && Date.now() < deadline) {
        try {
          process.kill(child, 0);
          await new Promise((r) => setTimeout(r, 20));
        } catch {
          alive = false;
        }
      }
      assert.equal(alive, false, `the child ${child} is gone after ${how} to its launcher`);
      await proc.stop();
    }
  } finally {
    await servers.close();
  }
});

test("a fork server whose preload fails is one error naming the module", { timeout: 60_000 }, async () => {
  const { dir, target } = scratchTarget(ECHO);
  const servers = new ForkServers();
  try {
    await assert.rejects(
      servers.command({ ...target, forkserver: { preload: ["wirecost_no_such_module"] } }, target.commands.stdio!, dir),
      /cannot import wirecost_no_such_module/,
    );
  } finally {
    await servers.close();
  }
});

const matrix = loadMatrix(join(root, "matrix.yaml"));
const mcpPy = matrix.targets["mcp-py"]!;
const missing = missingToolchain(mcpPy, dirname(matrix.file));

test("mcp-py: the same bytes forked from the fork server as started fresh", {
  timeout: 900_000,
  skip: missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false,
}, async (t) => {
  assert.ok(mcpPy.forkserver, "matrix.yaml starts mcp-py through a fork server");
  // The same matrix without forkserver (beside matrix.yaml, as its paths are relative to its folder): each run starts a fresh interpreter.
  const fresh = join(root, `.wirecost-fork-test-${process.pid}.yaml`);
  const text = readFileSync(join(root, "matrix.yaml"), "utf8");
  writeFileSync(fresh, text.replace(/\n {4}forkserver: .*\n/, "\n"));
  assert.notEqual(readFileSync(fresh, "utf8"), text, "the forkserver line is gone");
  t.after(() => rmSync(fresh, { force: true }));
  const only = ["--only", "raw-mcp-py-stdio-2026-07-28-plain", "--only", "raw-mcp-py-http-2025-11-25-ten", "--repeats", "2"];
  const outs: string[] = [];
  for (const m of [join(root, "matrix.yaml"), fresh]) {
    const out = mkdtempSync(join(tmpdir(), "wirecost-fork-mcp-py-"));
    const r = await execa(process.execPath, [cli, "run", m, ...only, "--results", out], { cwd: root, reject: false });
    assert.equal(r.exitCode, 0, r.stderr.slice(-2000));
    outs.push(out);
  }
  const rows = outs.map((o) => tsv(join(o, "runs.tsv")));
  for (const [i, forked] of rows[0]!.entries()) {
    const started = rows[1]![i]!;
    assert.equal(forked.status, "ok");
    assert.equal(started.status, "ok");
    for (const col of ["jsonrpc_c2s", "jsonrpc_s2c", "request_head_bytes", "request_body_bytes", "response_head_bytes", "response_body_bytes", "total_bytes"])
      assert.equal(forked[col], started[col], `${forked.config} #${forked.repeat} ${col}`);
    if (forked.config!.includes("-stdio-")) assert.equal(forked.stream_sha256, started.stream_sha256, "stdio: the same bytes");
  }
});

test("a fork server whose runner is gone (stdin at end) exits and removes its socket and folder", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-fork-gone-"));
  const socket = join(dir, "0.sock");
  const server = execa("python3", [join(root, "targets/common/forkserver.py"), "serve", socket, "json"], { stdin: "pipe", reject: false });
  await new Promise<void>((r) => server.stdout!.once("data", () => r()));
  assert.ok(existsSync(socket), "listening");
  server.stdin!.end();
  const r = await server;
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(existsSync(dir), false, "socket and folder removed");
});
