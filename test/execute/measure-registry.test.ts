/**
 * `wirecost measure` through the real CLI on servers from the registries, installed by measure
 * itself into `.wirecost/build/` (never committed), as a new user meets them: a tool that answers
 * `isError: true` (server-filesystem, a path outside its allowed folder) is a counted run with a
 * finding, printed and on the page, the catalog figures printed; a server that keeps state on disk
 * between processes (server-memory: create_entities answers differently once the entity exists)
 * is named as the server's state, and the revision comparison uses like repeats; a version npm
 * does not have is said in one line; a server that never answers costs one short probe timeout,
 * with a progress line per probe; a failed measure's rerun line is a command that works.
 * The pages' wording: transports, counted nouns, the site index's description, the recorded
 * command quoted as a shell needs it, a scoped package named by scope and name.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";
import { TOOL_ERROR_TEXT_CHARS } from "../../runner/count/tool-catalog.js";

/** The revisions measure asks every server (the raw driver's; 2024-11-05 over stdio only). */
const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

const measure = (args: string[]) => execa(process.execPath, [cli, "measure", ...args], { cwd: root, reject: false });

test("measure --npm server-filesystem: a tool answering isError: true is a counted run, a finding printed and on the page; the catalog printed", {
  timeout: 300_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-iserror-"));
  try {
    const allowed = join(dir, "allowed");
    mkdirSync(allowed);
    const results = join(dir, "results");
    const args = ["--npm", "@modelcontextprotocol/server-filesystem@2026.8.31", "--tool", "read_text_file", "--args", '{"path":"/etc/hostname"}'];
    const r = await measure([...args, "--repeats", "2", "--results", results, "--", allowed]);
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
    // Named by scope and name; every run ok, its totals and the catalog printed.
    const name = "modelcontextprotocol-server-filesystem";
    const totals = r.stdout.split("\n").filter((l) => l.startsWith("raw-"));
    assert.deepEqual(
      totals.map((l) => l.split("\t")[0]),
      REVISIONS.map((rev) => `raw-${name}-stdio-${rev}-call`),
    );
    for (const l of totals) assert.match(l, /\ttotal_bytes\t\d+\ttools\/list answer bytes\t\d+$/);
    assert.match(r.stdout, /^stdio\t2025-11-25\tread_text_file\t\d+\t\d+\t\d+$/m);
    const runs = tsv(join(results, "runs.tsv"));
    assert.equal(runs.length, 2 * REVISIONS.length);
    assert.ok(
      runs.every((x) => x.status === "ok"),
      "an isError answer is a counted run",
    );
    // The finding: said once per configuration (every repeat got it), with the server's text.
    // The server's text names the folder, whose length is the machine's temporary folder's: cut where findings cut it.
    const text = `Access denied - path outside allowed directories: /etc/hostname not in ${allowed}`;
    const said = `the tool answered isError: true: ${JSON.stringify(text.length > TOOL_ERROR_TEXT_CHARS ? `${text.slice(0, TOOL_ERROR_TEXT_CHARS)}…` : text)}`;
    for (const rev of REVISIONS) assert.ok(r.stderr.includes(`measure: raw-${name}-stdio-${rev}-call: in every repeat, ${said}\n`), r.stderr);
    const findings = tsv(join(results, "findings.tsv"));
    assert.deepEqual(
      findings.map((f) => [f.config, f.repeat, f.finding]),
      REVISIONS.map((rev) => [`raw-${name}-stdio-${rev}-call`, "", `in every repeat, ${said}`]),
    );
    // Its bytes are counted: the tools/call answer's row in the per-message table.
    const messages = tsv(join(results, "logs", `raw-${name}-stdio-2025-11-25-call`, "1.messages.tsv"));
    assert.ok(messages.some((m) => m.dir === "s2c" && m.method === "tools/call" && m.kind === "result" && Number(m.body_bytes) > 0));
    // The page: the finding, escaped; transports and nouns; the recorded command quoted.
    const site = join(dir, "site");
    const page = readFileSync(join(site, `${name}.md`), "utf8");
    assert.match(page, /### What the run found/);
    assert.ok(page.includes(`- \`raw-${name}-stdio-2025-06-18-call\`: in every repeat, the tool answered isError: true: "Access denied`), page);
    assert.match(page, /\| all 14 definitions \|/);
    assert.match(
      page,
      /\| Command \| wirecost measure --npm @modelcontextprotocol\/server-filesystem@2026\.8\.31 --tool read\\_text\\_file --args '\{"path":"\/etc\/hostname"\}' /,
    );
    const index = readFileSync(join(site, "index.md"), "utf8");
    assert.ok(index.includes(`Median bytes, JSON-RPC messages of each MCP flow of ${name.replaceAll("_", "\\_")}, per revision, over stdio.`), index);
    const config = readFileSync(join(site, `config-${name}--raw-${name}-stdio-2025-11-25-call.md`), "utf8");
    assert.match(config, /header names of each HTTP\nhead and the tokens of each JSON-RPC message's text/);
    // The server ran in measure's work folder, not in the checkout nor the results folder.
    assert.ok(existsSync(join(root, ".wirecost", "measure", name, "work")));
    assert.ok(
      JSON.parse(readFileSync(join(results, "measure.yaml"), "utf8")).targets[name].stdio.argv.includes(join(root, ".wirecost", "measure", name, "work")),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure --npm server-memory: repeats that differ are the server's state, named per repeat and message; the revisions compared on like repeats", {
  timeout: 300_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-state-"));
  try {
    const results = join(dir, "results");
    // A new entity each time: the first create_entities of this measure creates it, every later one
    // (another process: one run at a time) finds it on disk.
    const entity = `wirecost-${randomBytes(6).toString("hex")}`;
    const r = await measure([
      "--npm",
      "@modelcontextprotocol/server-memory@2026.8.31",
      "--tool",
      "create_entities",
      "--args",
      JSON.stringify({ entities: [{ name: entity, entityType: "test", observations: ["o"] }] }),
      "--repeats",
      "3",
      "--jobs",
      "1",
      "--results",
      results,
    ]);
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
    const findings = tsv(join(results, "findings.tsv"));
    assert.equal(findings.length, 1, JSON.stringify(findings));
    const f = findings[0]!;
    assert.match(
      f.finding!,
      /^repeat [123] differs from repeats? [0-9,– ]+ at the server's message \d+, tools\/call result: \d+ body bytes, \d+ body bytes in repeat [123] — the server's state \(kept in its process or on disk between repeats\), not the revision; the revision comparison uses repeat [123]$/,
    );
    assert.equal(f.repeat, f.finding!.match(/^repeat (\d)/)![1]);
    assert.ok(r.stderr.includes(`measure: ${f.config} repeat ${f.repeat}: ${f.finding}`), r.stderr);
    // The differing repeat's tools/call answer is longer (the entity created) than the others' (none).
    const like = Number(f.finding!.match(/uses repeat (\d)/)![1]);
    const answer = (repeat: number) =>
      Number(tsv(join(results, "logs", f.config!, `${repeat}.messages.tsv`)).find((m) => m.method === "tools/call" && m.kind === "result")!.body_bytes);
    assert.ok(answer(Number(f.repeat)) > answer(like));
    // The revision comparison: no tools/call cause between the revisions (every configuration's like repeats find the entity).
    const changes = tsv(join(results, "tools-changes.tsv"));
    assert.ok(changes.length > 0);
    assert.ok(
      !changes.some((c) => c.method === "tools/call" && c.kind !== "" && c.axis === "revision"),
      JSON.stringify(changes.filter((c) => c.method === "tools/call")),
    );
    const page = readFileSync(join(dir, "site", "modelcontextprotocol-server-memory.md"), "utf8");
    assert.ok(page.includes(`- \`${f.config}\`, repeat ${f.repeat}: repeat ${f.repeat} differs from`), page);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure --npm of a version npm does not have: one line naming the version, the package and its newest", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-nover-"));
  try {
    const r = await measure(["--npm", "@modelcontextprotocol/server-memory@0.0.999", "--name", "nover-memory", "--results", join(dir, "results")]);
    assert.equal(r.exitCode, 1, r.stderr);
    const last = r.stderr.trim().split("\n").at(-1)!;
    assert.match(
      last,
      /^wirecost: .*: the build of target nover-memory failed \(exit 1\): install-npm: npm has no version 0\.0\.999 of @modelcontextprotocol\/server-memory \(newest: \d+\.\d+\.\d+\) — give one it has: npm view @modelcontextprotocol\/server-memory versions — full output in /,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(root, ".wirecost", "build", "measure-nover-memory.log"), { force: true });
    rmSync(join(root, ".wirecost", "measure", "nover-memory"), { recursive: true, force: true });
  }
});

test("measure of a server that never answers: the probes side by side with the short timeout, one progress line each", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-silent-"));
  try {
    const started = Date.now();
    const r = await measure([
      "--name",
      "silent",
      "--probe-timeout",
      "2",
      "--results",
      join(dir, "results"),
      "--",
      "node",
      join(root, "test/fixtures/fault-targets/never-answers.mjs"),
    ]);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(
      r.stderr,
      /^revisions: auto: probing target silent: 5 probes \(2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 over stdio\), at most 2 s each, 4 at once$/m,
    );
    for (const [rev, method] of [
      ["2024-11-05", "initialize"],
      ["2025-03-26", "initialize"],
      ["2025-06-18", "initialize"],
      ["2025-11-25", "initialize"],
      ["2026-07-28", "tools/list"],
    ])
      assert.match(r.stderr, new RegExp(`^ {2}probing ${rev} over stdio… no answer to ${method} after 2 s$`, "m"));
    assert.match(r.stderr.trim().split("\n").at(-1)!, /^wirecost: revisions: auto: no target answered any revision/);
    // Two rounds of probe timeouts (and the stop of a target that ignores SIGTERM), not five of the run's 60 s.
    assert.ok(seconds < 60, `${seconds} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed measure prints a rerun command that works when followed", { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-rerun-"));
  try {
    // wirecost's own TypeScript v1 server behind a start counter: its 6th start (the first run after
    // the five probes) exits at once, every other start is the server. The probes start side by
    // side, so the counter is read and written under a lock (flock), else two starts count as one.
    const wrapper = join(dir, "server.sh");
    writeFileSync(
      wrapper,
      `#!/bin/bash\nexec 9>>"$0.lock"; flock 9\nn=$(( $(cat "$0.count" 2>/dev/null || echo 0) + 1 )); echo $n > "$0.count"\nflock -u 9; exec 9>&-\n[ $n -eq 6 ] && exit 3\nexec node ${JSON.stringify(join(root, "dist/targets/mcp-ts-v1/server.js"))} --transport stdio\n`,
    );
    chmodSync(wrapper, 0o755);
    const results = join(dir, "results");
    const first = await measure(["--name", "flaky", "--tool", "echo", "--args", '{"text":"hi"}', "--repeats", "1", "--results", results, "--", wrapper]);
    assert.equal(first.exitCode, 1, first.stderr);
    const line = first.stderr.split("\n").find((l) => l.startsWith("rerun them: "));
    assert.equal(line, `rerun them: npx wirecost measure --name flaky --tool echo --args '{"text":"hi"}' --repeats 1 --results ${results} -- ${wrapper}`);
    // Followed (through this checkout's CLI instead of npx, in the same folder): every run ok, the page written.
    const again = await execa(
      "bash",
      ["-c", line!.slice("rerun them: ".length).replace(/^npx wirecost /, `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} `)],
      {
        cwd: root,
        reject: false,
      },
    );
    assert.equal(again.exitCode, 0, `${again.stdout}\n${again.stderr}`);
    assert.ok(tsv(join(results, "runs.tsv")).every((x) => x.status === "ok"));
    assert.ok(existsSync(join(dir, "site", "flaky.md")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure of a server that speaks only an older revision (2024-11-05): measured at that revision over stdio, the others skipped with the revision it answered", {
  timeout: 180_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-older-"));
  try {
    // Its 0.6.2 release is built on an MCP SDK that answers initialize with 2024-11-05 whatever is asked.
    const r = await measure(["--npm", "@modelcontextprotocol/server-sequential-thinking@0.6.2", "--repeats", "1", "--results", join(dir, "results")]);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /^ {2}probing 2025-11-25 over stdio… server answered 2024-11-05 to a 2025-11-25 request/m);
    assert.match(r.stderr, /^revisions: auto: target modelcontextprotocol-server-sequential-thinking speaks 2024-11-05$/m);
    const runs = tsv(join(dir, "results", "runs.tsv"));
    assert.deepEqual(
      runs.map((x) => `${x.config} ${x.status}`),
      ["raw-modelcontextprotocol-server-sequential-thinking-stdio-2024-11-05-list ok"],
    );
    // One revision measured: the catalog is not said to be compared between revisions.
    const page = readFileSync(join(dir, "site", "modelcontextprotocol-server-sequential-thinking.md"), "utf8");
    assert.match(page, /in the one revision\nmeasured \(no other revision to compare it with\)/);
    assert.ok(!page.includes("what each revision adds"), "no revision comparison");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("^C while measure installs the server: one line, exit 130, no stack", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-intbuild-"));
  const name = `intbuild-${randomBytes(3).toString("hex")}`;
  try {
    const child = execa(
      process.execPath,
      [cli, "measure", "--npm", "@modelcontextprotocol/server-sequential-thinking@0.6.2", "--name", name, "--results", join(dir, "results")],
      {
        cwd: root,
        reject: false,
      },
    );
    // Interrupted once the install has begun (its build line printed).
    await new Promise<void>((started) => {
      let seen = "";
      child.stderr!.on("data", (d: Buffer) => {
        seen += d.toString();
        if (seen.includes(`building target ${name}`)) started();
      });
    });
    child.kill("SIGINT");
    const r = await child;
    assert.equal(r.exitCode, 130, r.stderr);
    assert.equal(
      r.stderr.trim().split("\n").at(-1),
      `wirecost: interrupted while building target ${name} — nothing was measured; run the same command again to start over`,
    );
    assert.ok(!/\n\s+at /.test(r.stderr), "no stack");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(root, ".wirecost", "build", `measure-${name}`), { recursive: true, force: true });
    rmSync(join(root, ".wirecost", "build", `measure-${name}.log`), { force: true });
    rmSync(join(root, ".wirecost", "measure", name), { recursive: true, force: true });
  }
});
