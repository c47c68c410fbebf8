/**
 * Target builds through the real CLI (runner/build/): a target with `build:` is built before its
 * first run and not again while its inputs are unchanged; an edited input rebuilds it; a missing
 * toolchain refuses the run with one line naming what to install, or, with
 * --skip-missing-toolchains, records that target's runs as skipped while the rest runs; a failed
 * build names its log. The built target is a real MCP server (the compiled mcp-ts-v2 behind a
 * launcher script the build writes), driven by the raw driver.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";
import { buildCacheRoot } from "../../runner/paths.js";

/** A scratch folder with a matrix of two built targets (`ok`, and `needs-tool` whose toolchain is missing) and their build files. */
function scratch(): { dir: string; matrix: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-build-"));
  writeFileSync(join(dir, "input.txt"), "v1\n");
  writeFileSync(join(dir, "builds.log"), "");
  writeFileSync(
    join(dir, "build.sh"),
    [
      "set -euo pipefail",
      'out="$1"',
      `echo built >> ${JSON.stringify(join(dir, "builds.log"))}`,
      'if grep -q fail input.txt; then echo "compiler says no" >&2; exit 3; fi',
      `printf '#!/bin/sh\\nexec %s %s "$@"\\n' ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, "dist/targets/mcp-ts-v2/server.js"))} > "$out/run.sh"`,
      'chmod +x "$out/run.sh"',
    ].join("\n") + "\n",
  );
  const target = (toolchain: string) => `
    build:
      command: [bash, build.sh, "{build}"]
      inputs: [build.sh, input.txt]
      toolchain:
        - { command: ${toolchain}, version: [${toolchain === "bash" ? "bash, --version" : toolchain}], install: "the ${toolchain} toolkit" }
    stdio: { argv: ["{build}/run.sh", --transport, stdio] }`;
  const matrix = join(dir, "matrix.yaml");
  writeFileSync(
    matrix,
    `version: 1
repeats: 2
axes:
  - { name: client, values: [raw], id: "" }
  - { name: target, values: [ok, needs-tool] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2026-07-28"] }
  - { name: flow, values: [plain] }
targets:
  ok:${target("bash")}
  needs-tool:${target("wirecost-no-such-tool")}
`,
  );
  return { dir, matrix, env: { WIRECOST_BUILD_ROOT: join(dir, ".wirecost", "build"), WIRECOST_CACHE_ROOT: join(dir, ".wirecost", "cache") } };
}

const builds = (dir: string): number => readFileSync(join(dir, "builds.log"), "utf8").split("\n").filter(Boolean).length;

test("a built target builds once, rebuilds when an input changes, and its runs measure", { timeout: 120_000 }, async () => {
  const { dir, matrix, env } = scratch();
  const run = (results: string) =>
    execa(process.execPath, [cli, "run", matrix, "--only", "ok-*", "--results", join(dir, results)], { cwd: dir, env, reject: false });
  const first = await run("r1");
  assert.equal(first.exitCode, 0, first.stderr);
  assert.match(first.stderr, /building target ok \(not built yet\)/);
  // The last lines split the time: the build before the runs, then each run's target start-up (2 stdio runs, each ready at its first answer).
  assert.match(
    first.stderr,
    /2 of 2 runs ok in [\d.]+ s \(CPU: wirecost [\d.]+ s, the targets it started [\d.]+ s, the target builds [\d.]+ s; floor [\d.]+ s on \d+ cores?, [\d.]+×\)/,
  );
  assert.match(first.stderr, /\n {2}time: target build [\d.]+ s before the runs; target start-up [\d.]+ s summed over 2 runs \(spawn to ready\)/);
  assert.equal(builds(dir), 1);
  assert.ok(existsSync(join(dir, ".wirecost", "build", "ok", "wirecost-build.json")));
  assert.deepEqual(
    tsv(join(dir, "r1", "runs.tsv")).map((r) => r.status),
    ["ok", "ok"],
  );
  const prov = JSON.parse(readFileSync(join(dir, "r1", "provenance.json"), "utf8")) as {
    builds?: Record<string, { toolchain: Record<string, string>; digest: string }>;
  };
  assert.match(prov.builds?.ok?.toolchain.bash ?? "", /GNU bash/);

  const second = await run("r2");
  assert.equal(second.exitCode, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /building target/);
  assert.match(second.stderr, /\n {2}time: target start-up [\d.]+ s summed over 2 runs/, "no build, no build time");
  assert.equal(builds(dir), 1, "a fresh build is not rebuilt");

  // What a build killed with -9 left (its wirecost's pid is dead) goes with the next build; a
  // running wirecost's and a file of the user's stay.
  const buildRoot = join(dir, ".wirecost", "build");
  const dead = spawnSync("true").pid!;
  for (const name of [`ok.tmp-${dead}`, `ok.tmp-${process.pid}`]) mkdirSync(join(buildRoot, name));
  for (const name of [`ok.cpu-${dead}`, "ok.tmp-notes"]) writeFileSync(join(buildRoot, name), "x\n");
  writeFileSync(join(dir, "input.txt"), "v2\n");
  const third = await run("r3");
  assert.equal(third.exitCode, 0, third.stderr);
  assert.match(third.stderr, /building target ok \(its inputs or toolchain changed\)/);
  assert.equal(builds(dir), 2, "a stale build is rebuilt");
  const left = readdirSync(buildRoot);
  assert.ok(!left.includes(`ok.tmp-${dead}`) && !left.includes(`ok.cpu-${dead}`), `a dead build's leftovers removed: ${left}`);
  assert.ok(left.includes(`ok.tmp-${process.pid}`) && left.includes("ok.tmp-notes"), `a live process's and the user's kept: ${left}`);

  writeFileSync(join(dir, "input.txt"), "fail\n");
  const failed = await run("r4");
  assert.equal(failed.exitCode, 1);
  const lines = failed.stderr
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("wirecost:"));
  assert.equal(lines.length, 1, failed.stderr);
  assert.match(lines[0]!, /matrix\.yaml:\d+:\d+: the build of target ok failed \(exit 3\): compiler says no — full output in .*ok\.log/);
  assert.ok(existsSync(join(dir, ".wirecost", "build", "ok", "run.sh")), "a failed rebuild leaves the previous build in place");
});

test("two wirecost processes sharing one build folder build a target once, and both run", { timeout: 120_000 }, async () => {
  const { dir, matrix, env } = scratch();
  // The build sleeps so the second process arrives while the first still builds.
  writeFileSync(join(dir, "build.sh"), readFileSync(join(dir, "build.sh"), "utf8").replace('out="$1"', 'out="$1"\nsleep 2'));
  const run = (results: string) =>
    execa(process.execPath, [cli, "run", matrix, "--only", "ok-*", "--results", join(dir, results)], { cwd: dir, env, reject: false });
  const [a, b] = await Promise.all([run("r1"), run("r2")]);
  assert.equal(a.exitCode, 0, a.stderr);
  assert.equal(b.exitCode, 0, b.stderr);
  assert.equal(builds(dir), 1, "one build for both processes");
  assert.equal(existsSync(join(dir, ".wirecost", "build", "ok.lock")), false, "the build lock is released");
});

test("a second clone's build finds what the first clone's build kept in the shared cache folder; the build output stays in each clone", {
  timeout: 120_000,
}, async () => {
  const { dir, matrix, env } = scratch();
  // The build counts its runs in $WIRECOST_CACHE (what cargo's target folder or the wheels are to a real build).
  writeFileSync(join(dir, "build.sh"), readFileSync(join(dir, "build.sh"), "utf8").replace('out="$1"', 'out="$1"\necho kept >> "$WIRECOST_CACHE/kept.txt"'));
  const clone = (name: string) =>
    execa(process.execPath, [cli, "run", matrix, "--only", "ok-*", "--results", join(dir, `r-${name}`)], {
      cwd: dir,
      env: { ...env, WIRECOST_BUILD_ROOT: join(dir, name, ".wirecost", "build") },
      reject: false,
    });
  for (const name of ["first", "second"]) {
    const r = await clone(name);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /building target ok \(not built yet\)/, `${name}: each clone builds its own output`);
    assert.ok(existsSync(join(dir, name, ".wirecost", "build", "ok", "run.sh")));
  }
  assert.equal(readFileSync(join(env.WIRECOST_CACHE_ROOT!, "ok", "kept.txt"), "utf8"), "kept\nkept\n", "both builds wrote into one cache folder");
});

test("a build cache folder that cannot be made (a file in its path, or under /proc) is one line naming the variable that chose it; no build starts", {
  timeout: 120_000,
}, async () => {
  const { dir, matrix, env } = scratch();
  const file = join(dir, "a-file");
  writeFileSync(file, "x\n");
  for (const root of [file, "/proc/wirecost-no-such-folder"]) {
    const r = await execa(process.execPath, [cli, "run", matrix, "--only", "ok-*", "--results", join(dir, "r")], {
      cwd: dir,
      env: { ...env, WIRECOST_CACHE_ROOT: root },
      reject: false,
      timeout: 60_000,
    });
    assert.equal(r.exitCode, 1, r.stderr);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("wirecost:"));
    assert.deepEqual(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `cannot create the build cache folder ${root}/ok \\((ENOTDIR|ENOENT); the folder comes from WIRECOST_CACHE_ROOT\\) — set WIRECOST_CACHE_ROOT to a folder you can write`,
      ),
    );
    assert.equal(builds(dir), 0, "no build ran");
    assert.deepEqual(
      readdirSync(join(dir, ".wirecost", "build")).filter((n) => n.includes(".tmp-")),
      [],
      "no build folder left",
    );
  }
});

test("the build cache folder: WIRECOST_CACHE_ROOT, else wirecost/ in XDG_CACHE_HOME when absolute, else in ~/.cache", () => {
  assert.equal(buildCacheRoot({ WIRECOST_CACHE_ROOT: "/x/c", XDG_CACHE_HOME: "/y" }), "/x/c");
  assert.equal(buildCacheRoot({ XDG_CACHE_HOME: "/y" }), "/y/wirecost");
  assert.equal(buildCacheRoot({ XDG_CACHE_HOME: "relative" }), join(homedir(), ".cache", "wirecost"));
  assert.equal(buildCacheRoot({}), join(homedir(), ".cache", "wirecost"));
});

test("a missing toolchain refuses the run in one line, or is skipped with --skip-missing-toolchains", { timeout: 120_000 }, async () => {
  const { dir, matrix, env } = scratch();
  const refused = await execa(process.execPath, [cli, "run", matrix, "--results", join(dir, "r1")], { cwd: dir, env, reject: false });
  assert.equal(refused.exitCode, 1);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(
    refused.stderr,
    /^wirecost: .*matrix\.yaml:\d+:\d+: target needs-tool needs wirecost-no-such-tool, which is not on PATH — install the wirecost-no-such-tool toolkit/,
  );
  assert.equal(existsSync(join(dir, "r1", "runs.tsv")), false, "nothing written");

  const skipped = await execa(process.execPath, [cli, "run", matrix, "--skip-missing-toolchains", "--results", join(dir, "r2")], {
    cwd: dir,
    env,
    reject: false,
  });
  assert.equal(skipped.exitCode, 0, skipped.stderr);
  assert.match(skipped.stderr, /2 of 4 runs ok, 2 skipped/);
  assert.equal(skipped.stderr.match(/ {2}skipped: target needs-tool needs .*install the wirecost-no-such-tool toolkit/g)?.length, 1);
  const coverage = new Map(tsv(join(dir, "r2", "coverage.tsv")).map((r) => [r.target, r]));
  assert.equal(coverage.get("ok")?.outcome, "measured");
  assert.equal(coverage.get("needs-tool")?.outcome, "skipped");
  assert.match(coverage.get("needs-tool")?.reason ?? "", /not on PATH — install/);
  const prov = JSON.parse(readFileSync(join(dir, "r2", "provenance.json"), "utf8")) as { builds?: Record<string, unknown> };
  assert.deepEqual(Object.keys(prov.builds ?? {}), ["ok"]);

  // The skipped target's configurations have no figures: no table row, no configuration page; coverage names them.
  const site = join(dir, "site");
  const render = await execa(process.execPath, [cli, "render", "--results", join(dir, "r2"), "--site", site], { cwd: dir, env, reject: false });
  assert.equal(render.exitCode, 0, render.stderr);
  const pages = readdirSync(site).filter((f) => f.startsWith("config-") && f.endsWith(".md"));
  assert.ok(pages.length > 0 && pages.every((f) => !f.includes("needs-tool")), pages.join(" "));
  assert.ok(
    pages.some((f) => f.includes("-ok-")),
    pages.join(" "),
  );
  const report = readdirSync(site).find((f) => f.endsWith(".md") && !f.startsWith("config-") && f !== "index.md")!;
  const md = readFileSync(join(site, report), "utf8");
  assert.doesNotMatch(md, /\]\(config-[^)]*needs-tool/, "no link to a skipped configuration's page");
  assert.match(md, /needs-tool/, "the coverage section still names the skipped target");

  const expand = await execa(process.execPath, [cli, "expand", matrix], { cwd: dir, env, reject: false });
  assert.equal(expand.exitCode, 0, expand.stderr);
  assert.match(expand.stderr, /note: target needs-tool needs wirecost-no-such-tool/);
});

test("a failed build's line names the cause, not the tool's epilogue", async () => {
  const { failureLine } = await import("../../runner/build/build.js");
  const go = "go: downloading modernc.org/sqlite v1.40.0\n./main.go:12:2: undefined: mcp.NewServerX\nnote: module requires Go 1.27\ngo: see above\n";
  assert.equal(failureLine(go), "./main.go:12:2: undefined: mcp.NewServerX");
  const cargo =
    "   Compiling a2a v0.15.0\nerror[E0432]: unresolved import `a2a::x`\nFor more information about this error, try `rustc --explain E0432`.\nerror: could not compile `a2a` (bin) due to 1 previous error\n";
  assert.equal(failureLine(cargo), "error: could not compile `a2a` (bin) due to 1 previous error");
  // npm's own epilogue after install-npm.sh's line (the log order of a failed install): the cause, not the log's path.
  const npm =
    "npm error code ETARGET\nnpm error notarget No matching version found for x@9.9.9.\ninstall-npm: npm has no version 9.9.9 of x (newest: 1.2.3) — give one it has: npm view x versions\nnpm error A complete log of this run can be found in: /root/.npm/_logs/a-debug-0.log\n";
  assert.equal(failureLine(npm), "install-npm: npm has no version 9.9.9 of x (newest: 1.2.3) — give one it has: npm view x versions");
  assert.equal(failureLine("just one line\n"), "just one line");
  assert.equal(failureLine(""), "");
});

/**
 * A scratch folder with a matrix of `free` (no build: the compiled mcp-ts-v2) and `slow`, whose
 * build waits until free's second run is in the journal of `results` (so the runs of free can
 * only have happened beside the build), then succeeds, or fails when input.txt says fail.
 */
function overlapScratch(results: string): { dir: string; matrix: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-build-overlap-"));
  const server = JSON.stringify(join(root, "dist/targets/mcp-ts-v2/server.js"));
  writeFileSync(join(dir, "input.txt"), "v1\n");
  writeFileSync(
    join(dir, "build.sh"),
    [
      "set -euo pipefail",
      'out="$1"',
      `for i in $(seq 600); do [ -f ${JSON.stringify(join(dir, results, "runs", "free-stdio-2026-07-28-plain", "2.json"))} ] && break; sleep 0.1; done`,
      `[ -f ${JSON.stringify(join(dir, results, "runs", "free-stdio-2026-07-28-plain", "2.json"))} ] || { echo "error: free's runs never came" >&2; exit 4; }`,
      'if grep -q fail input.txt; then echo "compiler says no" >&2; exit 3; fi',
      `printf '#!/bin/sh\\nexec %s %s "$@"\\n' ${JSON.stringify(process.execPath)} ${server} > "$out/run.sh"`,
      'chmod +x "$out/run.sh"',
    ].join("\n") + "\n",
  );
  const matrix = join(dir, "matrix.yaml");
  writeFileSync(
    matrix,
    `version: 1
repeats: 2
axes:
  - { name: client, values: [raw], id: "" }
  - { name: target, values: [free, slow] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2026-07-28"] }
  - { name: flow, values: [plain] }
targets:
  free:
    stdio: { argv: [${JSON.stringify(process.execPath)}, ${server}, --transport, stdio] }
  slow:
    build:
      command: [bash, build.sh, "{build}"]
      inputs: [build.sh, input.txt]
    stdio: { argv: ["{build}/run.sh", --transport, stdio] }
`,
  );
  return { dir, matrix, env: { WIRECOST_BUILD_ROOT: join(dir, ".wirecost", "build"), WIRECOST_CACHE_ROOT: join(dir, ".wirecost", "cache") } };
}

test("a configuration's runs start as soon as its own target is built: the others run beside a build", { timeout: 120_000 }, async () => {
  const { dir, matrix, env } = overlapScratch("r1");
  const r = await execa(process.execPath, [cli, "run", matrix, "--results", join(dir, "r1")], { cwd: dir, env, reject: false });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stderr, /4 of 4 runs ok in [\d.]+ s/);
  // free's runs were done while slow was building (its build waited for them), and the progress lines say so.
  assert.match(r.stderr, /\[1\/4\] free-stdio-2026-07-28-plain #1 ok \| 0 failed \| ETA \S+ \| (running free \| )?building slow\n/);
  assert.match(r.stderr, /\[4\/4\] slow-stdio-2026-07-28-plain #2 ok \| 0 failed \| ETA 0s( \| running slow)?\n/);
  assert.match(r.stderr, /\n {2}time: target build [\d.]+ s, the runs beside them from [\d.]+ s on; target start-up/);
  assert.deepEqual(
    tsv(join(dir, "r1", "runs.tsv")).map((x) => `${x.config} ${x.status}`),
    ["free-stdio-2026-07-28-plain ok", "free-stdio-2026-07-28-plain ok", "slow-stdio-2026-07-28-plain ok", "slow-stdio-2026-07-28-plain ok"],
  );
});

test("a build that fails after other runs started fails its own configurations' runs with the build's line; the others are kept", {
  timeout: 120_000,
}, async () => {
  const { dir, matrix, env } = overlapScratch("r1");
  writeFileSync(join(dir, "input.txt"), "fail\n");
  const r = await execa(process.execPath, [cli, "run", matrix, "--results", join(dir, "r1")], { cwd: dir, env, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  assert.match(r.stderr, /2 of 4 runs ok in /);
  const runs = tsv(join(dir, "r1", "runs.tsv"));
  assert.deepEqual(
    runs.map((x) => `${x.config} ${x.status}`),
    ["free-stdio-2026-07-28-plain ok", "free-stdio-2026-07-28-plain ok", "slow-stdio-2026-07-28-plain failed", "slow-stdio-2026-07-28-plain failed"],
  );
  for (const x of runs.filter((x) => x.status === "failed"))
    assert.match(x.error ?? "", /matrix\.yaml:\d+:\d+: the build of target slow failed \(exit 3\): compiler says no — full output in .*slow\.log/);
  assert.match(r.stderr, /rerun them: .*--only slow-stdio-2026-07-28-plain/);
});
