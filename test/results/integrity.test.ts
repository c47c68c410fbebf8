/**
 * Results folders lose nothing, through the real CLI (README, "What wirecost promises"): `merge`
 * refuses to drop results without `--fresh`; configuration ids are names, never paths; `run`,
 * `verify --scratch` and `merge` touch only the files their journal names and replace a folder's
 * results only once the new ones are complete (a kill -9 in between leaves the old ones
 * readable), and only the repeats their plan names (a numbered file beyond them is neither read
 * nor removed); a symbolic link in a results folder is refused, nothing read or written through
 * it; every reader checks a results file as `render` does (`verify`'s provenance.json, `recount`'s
 * and `merge`'s summary.tsv and medians.tsv too); file-system errors name the option and the path. Real runs of the JSON-RPC echo fixture (test/fixtures/matrices/jsonrpc-echo.yaml,
 * four configurations, about half a second a run).
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { cli, root } from "../paths.js";

const MATRIX = "test/fixtures/matrices/jsonrpc-echo.yaml";
const work = mkdtempSync(join(tmpdir(), "wirecost-integrity-"));
const at = (...p: string[]) => join(work, ...p);

/** Run the CLI from the repository root (as another user when `as` says so). */
function wirecost(args: string[], as: { uid?: number; gid?: number } = {}): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8", ...as });
}

/** The one line on stderr (starting `wirecost: `, no stack trace) of a command that exits 1. */
function refused(r: { status: number | null; stderr: string }): string {
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line:\n${r.stderr}`);
  assert.match(lines[0]!, /^wirecost: /);
  return lines[0]!;
}

/** Every file under `dir` (relative path → contents), to compare a folder before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

before(() => {
  // The two shards of the four configurations (2 each); merged, they are the whole run.
  for (const k of [1, 2]) {
    const r = wirecost(["run", MATRIX, "--repeats", "1", "--shard", `${k}/2`, "--results", at(`s${k}`)]);
    assert.equal(r.status, 0, r.stderr);
  }
});

test("merge refuses to drop a configuration's results without --fresh; --fresh replaces them and leaves other files", () => {
  const out = at("merged");
  assert.equal(wirecost(["merge", at("s1"), at("s2"), "--results", out]).status, 0);
  const before = snapshot(out);
  assert.equal(Object.keys(before).filter((f) => f.startsWith("runs/") && f.endsWith("/1.json")).length, 4);
  const line = refused(wirecost(["merge", at("s1"), "--results", out]));
  assert.match(line, new RegExp(`^wirecost: --results ${out}: holds results of 2 configuration\\(s\\) no folder given ran .* — .*--fresh to drop them$`));
  assert.deepEqual(snapshot(out), before, "the refused merge changed nothing");

  writeFileSync(join(out, "logs", "notes.txt"), "mine\n");
  const fresh = wirecost(["merge", at("s1"), "--results", out, "--fresh"]);
  assert.equal(fresh.status, 1, "two configurations missing");
  const after = snapshot(out);
  assert.equal(after["logs/notes.txt"], "mine\n", "a file wirecost did not write stays");
  assert.deepEqual(
    Object.keys(after)
      .filter((f) => f.startsWith("runs/") && f.endsWith("/1.json"))
      .sort(),
    Object.keys(snapshot(at("s1")))
      .filter((f) => f.startsWith("runs/") && f.endsWith("/1.json"))
      .sort(),
  );
  assert.ok(!existsSync(join(out, ".wirecost-next")), "the staging folder is gone");
});

test("an axis value that is a path, or 300 characters long, is refused at expand with file:line; run writes nothing anywhere", () => {
  for (const [file, what] of [
    ["id-path.yaml", 'holds "/"'],
    ["id-too-long.yaml", "is 325 bytes long"],
  ] as const) {
    const rel = `test/fixtures/matrices/bad/${file}`;
    const nest = at(`nest-${file}`, "a", "b", "c");
    mkdirSync(nest, { recursive: true });
    writeFileSync(at(`nest-${file}`, "elsewhere"), "a user's file\n");
    const line = refused(wirecost(["run", rel, "--results", join(nest, "r")]));
    assert.ok(line.startsWith(`wirecost: ${rel}:14:14: configuration id `), line);
    assert.ok(line.includes(what), line);
    assert.doesNotMatch(line, /--results/, "the results folder is not blamed");
    assert.deepEqual(snapshot(at(`nest-${file}`)), { elsewhere: "a user's file\n" }, "nothing written, the user's file untouched");
  }
});

test("a results file naming a configuration by a path is refused by recount, compare and render, naming the file", () => {
  const forged = at("forged");
  cpSync(at("s1"), forged, { recursive: true });
  const planFile = join(forged, "runs", "plan.json");
  const plan = JSON.parse(readFileSync(planFile, "utf8")) as { configurations: { id: string }[]; selected: string[] };
  const evil = "x/../../../../elsewhere";
  plan.selected = plan.selected.map((id) => (id === plan.configurations[0]!.id ? evil : id));
  plan.configurations[0]!.id = evil;
  writeFileSync(planFile, JSON.stringify(plan));
  const recount = refused(wirecost(["recount", "--results", forged]));
  assert.ok(recount.startsWith(`wirecost: ${planFile} (configurations[0].id): configuration id "${evil}" holds "/"`), recount);
  const summaryFile = join(forged, "summary.tsv");
  writeFileSync(summaryFile, readFileSync(summaryFile, "utf8").replace(/\njsonrpc-echo-[a-z-]+\t/, `\n${evil}\t`));
  for (const args of [
    ["compare", at("s1"), forged],
    ["render", "--results", forged, "--site", at("forged-site")],
  ]) {
    const line = refused(wirecost(args));
    assert.ok(line.startsWith(`wirecost: ${summaryFile}:2 (config): configuration id "${evil}" holds "/"`), line);
  }
  assert.ok(!existsSync(join(work, "elsewhere")) && !existsSync(join(tmpdir(), "elsewhere.json")));
});

test("run and verify --scratch leave files they did not write under runs/ and logs/", () => {
  const dir = at("rerun");
  cpSync(at("s1"), dir, { recursive: true });
  const id = readdirSync(join(dir, "logs"))[0]!;
  writeFileSync(join(dir, "runs", "notes.txt"), "mine\n");
  writeFileSync(join(dir, "logs", id, "mine.txt"), "mine\n");
  const rerun = wirecost(["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", dir]);
  assert.equal(rerun.status, 0, rerun.stderr);
  assert.equal(readFileSync(join(dir, "runs", "notes.txt"), "utf8"), "mine\n");
  assert.equal(readFileSync(join(dir, "logs", id, "mine.txt"), "utf8"), "mine\n");
  assert.ok(existsSync(join(dir, "runs", id, "1.json")));
  assert.ok(!existsSync(join(dir, ".wirecost-next")));

  const scratch = at("scratch");
  cpSync(at("s1"), scratch, { recursive: true });
  writeFileSync(join(scratch, "logs", id, "mine.txt"), "mine\n");
  const verify = wirecost(["verify", MATRIX, "--results", at("s1"), "--scratch", scratch]);
  assert.equal(verify.status, 0, verify.stderr);
  assert.match(verify.stdout, /cells reproduced/);
  assert.equal(readFileSync(join(scratch, "logs", id, "mine.txt"), "utf8"), "mine\n");
});

test("kill -9 of a re-run leaves the old results whole and readable; --resume completes it and swaps it in", { timeout: 120_000 }, async () => {
  const dir = at("killed");
  const only = ["--only", "jsonrpc-echo-stdio-plain"];
  assert.equal(wirecost(["run", MATRIX, ...only, "--repeats", "1", "--results", dir]).status, 0);
  const old = snapshot(dir);
  const child = spawn(process.execPath, [cli, "run", MATRIX, ...only, "--repeats", "8", "--jobs", "1", "--results", dir], {
    cwd: root,
    stdio: "ignore",
    detached: true,
  });
  // Killed once the re-run has recorded its second run, wherever it writes it.
  const staged = join(dir, ".wirecost-next", "runs", "jsonrpc-echo-stdio-plain", "2.json");
  const inPlace = join(dir, "runs", "jsonrpc-echo-stdio-plain", "2.json");
  for (let i = 0; i < 600 && !existsSync(staged) && !existsSync(inPlace); i++) await new Promise((r) => setTimeout(r, 50));
  process.kill(-child.pid!, "SIGKILL");
  await new Promise((r) => child.once("exit", r));
  assert.ok(existsSync(staged), "the re-run writes beside the old results");
  const now = snapshot(dir);
  for (const [file, text] of Object.entries(old)) assert.equal(now[file], text, `${file} kept as it was`);
  const render = wirecost(["render", "--results", dir, "--site", at("killed-site")]);
  assert.equal(render.status, 0, render.stderr);

  const resume = wirecost(["run", MATRIX, ...only, "--repeats", "8", "--jobs", "1", "--results", dir, "--resume"]);
  assert.equal(resume.status, 0, resume.stderr);
  assert.match(resume.stderr, /8 of 8 runs ok/);
  const summary = readFileSync(join(dir, "summary.tsv"), "utf8").split("\n")[1]!.split("\t");
  assert.ok(summary.includes("8"), `8 repeats in summary.tsv: ${summary.join(" ")}`);
  assert.equal(readdirSync(join(dir, "runs", "jsonrpc-echo-stdio-plain")).length, 8);
  assert.ok(!existsSync(join(dir, ".wirecost-next")));
});

test("merge refuses a shard of another wirecost version, a garbage provenance.json, and a per-message table render would refuse, in one line", () => {
  const other = at("other-version");
  cpSync(at("s2"), other, { recursive: true });
  const planFile = join(other, "runs", "plan.json");
  const plan = JSON.parse(readFileSync(planFile, "utf8")) as { tool: { version: string } };
  plan.tool.version = "0.0.1";
  writeFileSync(planFile, JSON.stringify(plan));
  const version = refused(wirecost(["merge", other, "--results", at("merged-other")]));
  assert.match(version, new RegExp(`^wirecost: ${other}: written by wirecost 0\\.0\\.1, this is \\S+ — rerun the shard with this wirecost`));

  const garbage = at("garbage");
  cpSync(at("s2"), garbage, { recursive: true });
  writeFileSync(join(garbage, "provenance.json"), "garbage{\n\n");
  const line = refused(wirecost(["merge", at("s1"), garbage, "--results", at("merged-garbage")]));
  assert.ok(line.startsWith(`wirecost: ${join(garbage, "provenance.json")}: not valid JSON`), line);
  assert.ok(!existsSync(at("merged-garbage", "summary.tsv")));

  // A per-message table render would refuse: merge refuses it too, before writing anything.
  const odd = at("odd-messages");
  cpSync(at("s2"), odd, { recursive: true });
  const logs = join(odd, "logs");
  const config = readdirSync(logs).find((c) => existsSync(join(logs, c, "1.messages.tsv")))!;
  const table = join(logs, config, "1.messages.tsv");
  const rows = readFileSync(table, "utf8").split("\n");
  const header = rows[0]!.split("\t");
  const cells = rows[1]!.split("\t");
  cells[header.indexOf("dir")] = "sideways";
  rows[1] = cells.join("\t");
  writeFileSync(table, rows.join("\n"));
  const messages = refused(wirecost(["merge", at("s1"), odd, "--results", at("merged-odd")]));
  assert.ok(messages.startsWith(`wirecost: ${table}:2 (dir): expected \`c2s\` or \`s2c\`, found \`sideways\``), messages);
  assert.ok(!existsSync(at("merged-odd")), "nothing written");
});

test("merge refuses shards run with other repeats, and an ok run whose counts are missing one or do not add up; a refused merge leaves no folder it made", () => {
  const other = at("other-repeats");
  const r = wirecost(["run", MATRIX, "--repeats", "2", "--shard", "2/2", "--results", other]);
  assert.equal(r.status, 0, r.stderr);
  for (const order of [
    [at("s1"), other],
    [other, at("s1")],
  ]) {
    const line = refused(wirecost(["merge", ...order, "--results", at("merged-repeats")]));
    assert.match(
      line,
      /: planned \S+ with another repeats than .* \(repeats [12] vs [12]\) — run every shard with the same options \(--repeats\), then merge$/,
    );
    assert.ok(!existsSync(at("merged-repeats")), "nothing written");
  }
  for (const [edit, message] of [
    [(c: Record<string, number>) => delete c.total_bytes, /\(counts\.total_bytes\): missing from an ok run's counts/],
    [(c: Record<string, number>) => (c.total_bytes = 999_999), /\(counts\.total_bytes\): is 999999, not c2s_bytes \+ s2c_bytes = \d+/],
  ] as const) {
    const shard = at("odd-counts");
    rmSync(shard, { recursive: true, force: true });
    cpSync(at("s2"), shard, { recursive: true });
    const runs = join(shard, "runs");
    const config = readdirSync(runs).find((c) => existsSync(join(runs, c, "1.json")))!;
    const file = join(runs, config, "1.json");
    const run = JSON.parse(readFileSync(file, "utf8")) as { counts: Record<string, number> };
    edit(run.counts);
    writeFileSync(file, JSON.stringify(run));
    const out = at("new", "a", "b");
    const line = refused(wirecost(["merge", at("s1"), shard, "--results", out]));
    assert.ok(line.startsWith(`wirecost: ${file} `) && message.test(line), line);
    assert.ok(!existsSync(at("new")), "the folders the refused merge made are gone");
  }
});

test("compare, recount and merge refuse what render refuses: negative or 1e308 medians, schemaVersion 99", () => {
  const bad = at("bad-medians");
  cpSync(at("s1"), bad, { recursive: true });
  const medians = join(bad, "medians.tsv");
  const text = readFileSync(medians, "utf8");
  for (const value of ["-5", "1e308"]) {
    const lines = text.split("\n");
    const row = lines[1]!.split("\t");
    row[3] = value; // the median of line 2
    lines[1] = row.join("\t");
    writeFileSync(medians, lines.join("\n"));
    for (const args of [
      ["compare", at("s1"), bad],
      ["render", "--results", bad, "--site", at("bad-site")],
    ]) {
      const line = refused(wirecost(args));
      assert.ok(line.startsWith(`wirecost: ${medians}:2 (median): expected a non-negative count`), line);
    }
  }
  const v99 = at("schema-99");
  cpSync(at("s2"), v99, { recursive: true });
  const provenance = join(v99, "provenance.json");
  writeFileSync(provenance, readFileSync(provenance, "utf8").replace('"schemaVersion": 1', '"schemaVersion": 99'));
  for (const args of [
    ["compare", at("s2"), v99],
    ["recount", "--results", v99],
    ["merge", at("s1"), v99, "--results", at("merged-99")],
    ["render", "--results", v99, "--site", at("site-99")],
  ]) {
    const line = refused(wirecost(args));
    assert.ok(line.startsWith(`wirecost: ${provenance} (schemaVersion): unsupported schemaVersion 99`), `${args[0]}: ${line}`);
  }
});

test("timing and per-call folders of an unknown schema version: refused in one line by every reader, whatever their tables hold", () => {
  for (const [folder, file, tables, matrix] of [
    ["results/a2a-layer-cost", "timings-run.json", ["timings.tsv", "timings-summary.tsv"], "matrices/a2a-layer-cost.yaml"],
    ["results/mcp-per-call-overhead", "percall-run.json", ["percall.tsv", "percall-samples.tsv"], "matrices/mcp-per-call-overhead.yaml"],
  ] as const) {
    const copy = at(`v99-${file}`);
    cpSync(join(root, folder), copy, { recursive: true });
    const record = join(copy, file);
    writeFileSync(record, readFileSync(record, "utf8").replace(/"schemaVersion": \d+/, '"schemaVersion": 99'));
    // A later version may lay its tables out otherwise: the version is what is refused, not a table.
    for (const table of tables) writeFileSync(join(copy, table), "a layout this wirecost does not know\n");
    for (const args of [
      ["compare", folder, copy],
      ["compare", copy, folder],
      ["render", "--results", copy, "--site", at(`v99-site-${file}`)],
    ]) {
      const line = refused(wirecost(args));
      assert.ok(line.startsWith(`wirecost: ${record} (schemaVersion): is 99, this wirecost reads `), `${args.join(" ")}: ${line}`);
    }
    // The bytes-only commands refuse the folder for its kind, in one line too.
    for (const args of [
      ["verify", matrix, "--results", copy],
      ["recount", "--results", copy],
      ["merge", copy, "--results", at(`v99-merged-${file}`)],
    ])
      refused(wirecost(args));
  }
});

test("a folder that cannot be made under one that exists (inside /proc) is one line, not a hang", { timeout: 30_000 }, () => {
  // Node's recursive mkdir retries forever where mkdir answers ENOENT under an existing parent.
  const opts = { cwd: root, encoding: "utf8" as const, timeout: 20_000 };
  const run = spawnSync(process.execPath, [cli, "merge", at("s1"), "--results", "/proc/self/wirecost-x"], opts);
  assert.equal(
    refused(run),
    "wirecost: --results /proc/self/wirecost-x: cannot create it: no such file or folder (ENOENT) — check the path, or pass --results another path",
  );
  const site = spawnSync(process.execPath, [cli, "render", "--results", at("s1"), "--site", "/proc/self/wirecost-y"], opts);
  assert.equal(
    refused(site),
    "wirecost: --site /proc/self/wirecost-y: cannot create it: no such file or folder (ENOENT) — check the path, or pass --site another path",
  );
});

test("file-system errors name the option and the path: a full disk, a read-only folder above a missing one", (t) => {
  const full = refused(
    spawnSync(process.execPath, [cli, "capture", "--log", "/dev/full", "--", process.execPath, "-e", "process.stdout.write('x')"], {
      cwd: root,
      encoding: "utf8",
      input: "",
    }),
  );
  assert.equal(
    full,
    "wirecost: --log /dev/full: cannot write it: no space left on the device (ENOSPC) — free some space, or pass --log another path on another disk",
  );

  const asRoot = process.getuid?.() === 0;
  const as = asRoot ? { uid: 65534, gid: 65534 } : {};
  if (asRoot && spawnSync(process.execPath, [cli, "--version"], as).status !== 0) {
    t.skip(`user nobody cannot run ${cli}`);
    return;
  }
  const locked = at("ro", "locked");
  mkdirSync(locked, { recursive: true });
  chmodSync(at("ro"), 0o755);
  chmodSync(work, 0o755);
  chmodSync(locked, 0o555);
  const deep = join(locked, "a", "b");
  const line = refused(wirecost(["merge", at("s1"), "--results", deep], as));
  assert.equal(
    line,
    `wirecost: --results ${deep}: cannot create it: permission denied (EACCES) — make ${locked} writable for you (ls -ld ${locked}), or pass --results another path`,
  );
});

test("a symbolic link (or a FIFO) under runs/ or logs/ is refused by run, merge, recount and verify in one line naming it; nothing is written through it", () => {
  const id = readdirSync(at("s1", "runs")).find((n) => n !== "plan.json")!;
  const outside = at("outside");
  mkdirSync(outside, { recursive: true });
  // A run record that is a link to a file outside the folder.
  const fileLink = at("link-file");
  cpSync(at("s1"), fileLink, { recursive: true });
  const record = join(fileLink, "runs", id, "1.json");
  cpSync(record, join(outside, "1.json"));
  rmSync(record);
  symlinkSync(join(outside, "1.json"), record);
  // A capture-log folder that is a link to a folder outside.
  const dirLink = at("link-dir");
  cpSync(at("s1"), dirLink, { recursive: true });
  const logs = join(dirLink, "logs", id);
  cpSync(logs, join(outside, "logs"), { recursive: true });
  rmSync(logs, { recursive: true });
  symlinkSync(join(outside, "logs"), logs);
  const before = snapshot(outside);
  for (const [dir, link] of [
    [fileLink, record],
    [dirLink, logs],
  ] as const) {
    for (const args of [
      ["recount", "--results", dir],
      ["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", dir],
      ["merge", dir, "--results", at(`merged-${relative(work, dir)}`)],
      ["merge", at("s1"), "--results", dir, "--fresh"],
      ["verify", MATRIX, "--results", dir, "--only", id],
    ]) {
      const line = refused(wirecost(args));
      assert.ok(line.startsWith(`wirecost: ${link}: a symbolic link (to `), `${args.join(" ")}: ${line}`);
    }
  }
  assert.deepEqual(snapshot(outside), before, "nothing outside the folder was written");
  assert.ok(!existsSync(at(`merged-link-file`, "summary.tsv")));
  // A FIFO where a run record belongs would keep a reader waiting forever: refused the same way.
  const fifo = at("fifo");
  cpSync(at("s1"), fifo, { recursive: true });
  const fifoRecord = join(fifo, "runs", id, "1.json");
  rmSync(fifoRecord);
  assert.equal(spawnSync("mkfifo", [fifoRecord]).status, 0);
  const line = refused(spawnSync(process.execPath, [cli, "recount", "--results", fifo], { cwd: root, encoding: "utf8", timeout: 20_000 }));
  assert.ok(line.startsWith(`wirecost: ${fifoRecord}: a FIFO in a results folder`), line);
});

test("compare and render refuse a link or a FIFO among a results folder's files, and a FIFO predictions.yaml, in one line; no wait", () => {
  const outside = at("outside-cr");
  mkdirSync(outside, { recursive: true });
  const linked = at("cr-link");
  cpSync(at("s1"), linked, { recursive: true });
  cpSync(join(linked, "summary.tsv"), join(outside, "summary.tsv"));
  rmSync(join(linked, "summary.tsv"));
  symlinkSync(join(outside, "summary.tsv"), join(linked, "summary.tsv"));
  const fifo = at("cr-fifo");
  cpSync(at("s1"), fifo, { recursive: true });
  rmSync(join(fifo, "medians.tsv"));
  assert.equal(spawnSync("mkfifo", [join(fifo, "medians.tsv")]).status, 0);
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8", timeout: 20_000 });
  for (const [dir, entry, kind] of [
    [linked, join(linked, "summary.tsv"), "a symbolic link (to "],
    [fifo, join(fifo, "medians.tsv"), "a FIFO in a results folder"],
  ] as const) {
    for (const args of [
      ["compare", at("s1"), dir],
      ["compare", dir, at("s1")],
      ["render", "--results", dir, "--site", at("cr-site")],
    ]) {
      const line = refused(run(args));
      assert.ok(line.startsWith(`wirecost: ${entry}: ${kind}`), `${args.join(" ")}: ${line}`);
    }
  }
  // The wire report's default predictions file (beside the results folder) as a FIFO.
  const parent = at("cr-pred");
  cpSync(at("s1"), join(parent, "results"), { recursive: true });
  assert.equal(spawnSync("mkfifo", [join(parent, "predictions.yaml")]).status, 0);
  const line = refused(run(["render", "--results", join(parent, "results"), "--site", at("cr-site")]));
  assert.ok(line.startsWith(`wirecost: ${join(parent, "predictions.yaml")}: a FIFO, not a plain file`), line);
  assert.ok(!existsSync(at("cr-site")), "nothing rendered");
});

test("a FIFO given as the matrix (expand, run) or as the capture log (count) is refused in one line; no wait", () => {
  const fifo = at("fifo-in");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8", timeout: 20_000 });
  for (const args of [
    ["expand", fifo],
    ["run", fifo, "--results", at("fifo-in-results")],
    ["count", fifo],
  ]) {
    const line = refused(run(args));
    assert.equal(line, `wirecost: ${fifo}: a FIFO, not a plain file: wirecost reads only plain files; fix: put a plain file there`, args.join(" "));
  }
  assert.ok(!existsSync(at("fifo-in-results")), "no results folder");
});

test("render refuses a results folder whose report slug is index (its page would overwrite the site index), in one line", () => {
  const dir = at("slug-index");
  cpSync(at("s1"), dir, { recursive: true });
  const provenance = JSON.parse(readFileSync(join(dir, "provenance.json"), "utf8")) as { report: { slug: string } };
  provenance.report.slug = "index";
  writeFileSync(join(dir, "provenance.json"), JSON.stringify(provenance));
  const line = refused(wirecost(["render", "--results", dir, "--site", at("slug-index-site")]));
  assert.ok(line.startsWith(`wirecost: ${dir}: the report writes index.`), line);
  assert.ok(!existsSync(at("slug-index-site")), "nothing rendered");
});

test("a method name from the wire holding U+202E and U+2066 is shown as text in the sequence diagram", () => {
  const results = at("bidi-wire");
  assert.equal(wirecost(["run", "test/fixtures/bidi-wire.yaml", "--results", results]).status, 0);
  const site = at("bidi-wire-site");
  const r = wirecost(["render", "--results", results, "--site", site]);
  assert.equal(r.status, 0, r.stderr);
  const svg = readdirSync(site).filter((n) => n.endsWith("-sequence.svg"));
  assert.equal(svg.length, 1, readdirSync(site).join(" "));
  const content = readFileSync(join(site, svg[0]!), "utf8");
  assert.doesNotMatch(content, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, "no bidirectional formatting character in the SVG");
  assert.ok(content.includes("note/b&lt;U+202E&gt;evil&lt;U+2066&gt;x"), content);
});

test("run, verify --scratch and merge refuse a folder of another tool (its summary.tsv, runs.tsv, no wirecost results), --fresh too; its files stay", () => {
  const theirs = at("other-tool");
  mkdirSync(theirs, { recursive: true });
  writeFileSync(join(theirs, "summary.tsv"), "their summary\n");
  writeFileSync(join(theirs, "runs.tsv"), "their runs\n");
  writeFileSync(join(theirs, "notes.txt"), "their notes\n");
  const before = snapshot(theirs);
  for (const [args, option] of [
    [["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", theirs], "--results"],
    [["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", theirs, "--fresh"], "--results"],
    [["verify", MATRIX, "--results", at("s1"), "--scratch", theirs], "--scratch"],
    [["merge", at("s1"), at("s2"), "--results", theirs, "--fresh"], "--results"],
  ] as const) {
    const line = refused(wirecost([...args]));
    assert.equal(
      line,
      `wirecost: ${theirs}: holds runs.tsv but no wirecost results (no provenance.json, timings-run.json, percall-run.json or runs/plan.json): another tool's files, which ${option} would replace; fix: give ${option} a new or empty folder (--fresh replaces only results wirecost wrote)`,
      args.join(" "),
    );
  }
  assert.deepEqual(snapshot(theirs), before, "their files are untouched");
  // A folder holding only files of other names is written beside them, and they stay.
  const notes = at("notes-only");
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "notes.txt"), "their notes\n");
  const ok = wirecost(["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", notes]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(readFileSync(join(notes, "notes.txt"), "utf8"), "their notes\n");
  assert.ok(existsSync(join(notes, "summary.tsv")));
});

test("numbered files beyond the plan's repeats (runs/<config>/5.json, logs/<config>/7.jsonl) are neither removed nor read", () => {
  const dir = at("strays");
  cpSync(at("s1"), dir, { recursive: true });
  const id = readdirSync(join(dir, "runs")).find((n) => n !== "plan.json")!;
  writeFileSync(join(dir, "runs", id, "5.json"), "not a run record, not wirecost's\n");
  writeFileSync(join(dir, "runs", id, "01.json"), "not wirecost's either\n");
  writeFileSync(join(dir, "logs", id, "7.jsonl"), "mine\n");
  const rerun = wirecost(["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", dir]);
  assert.equal(rerun.status, 0, rerun.stderr);
  const recount = wirecost(["recount", "--results", dir]);
  assert.equal(recount.status, 0, recount.stderr);
  const merged = wirecost(["merge", dir, at("s2"), "--results", at("strays-merged")]);
  assert.equal(merged.status, 0, merged.stderr);
  assert.equal(readFileSync(join(dir, "runs", id, "5.json"), "utf8"), "not a run record, not wirecost's\n");
  assert.equal(readFileSync(join(dir, "runs", id, "01.json"), "utf8"), "not wirecost's either\n");
  assert.equal(readFileSync(join(dir, "logs", id, "7.jsonl"), "utf8"), "mine\n");
  assert.ok(!existsSync(at("strays-merged", "runs", id, "5.json")), "merge copies only the journal's files");
});

test("verify refuses a garbage or schemaVersion 99 provenance.json in one line, before re-running anything", () => {
  const dir = at("verify-provenance");
  cpSync(at("s1"), dir, { recursive: true });
  const provenance = join(dir, "provenance.json");
  const good = readFileSync(provenance, "utf8");
  for (const [text, want] of [
    ["garbage{\n", "not valid JSON"],
    [good.replace('"schemaVersion": 1', '"schemaVersion": 99'), "(schemaVersion): unsupported schemaVersion 99"],
  ] as const) {
    writeFileSync(provenance, text);
    const scratch = at(`verify-scratch-${want.length}`);
    const line = refused(wirecost(["verify", MATRIX, "--results", dir, "--scratch", scratch]));
    assert.ok(line.startsWith(`wirecost: ${provenance}`) && line.includes(want), line);
    assert.ok(!existsSync(join(scratch, "runs")), "nothing re-run");
  }
});

test("recount and merge refuse a malformed summary.tsv or medians.tsv in one line naming the file", () => {
  for (const [file, edit, want] of [
    ["medians.tsv", (row: string[]) => (row[3] = "-5"), ":2 (median): expected a non-negative count"],
    ["summary.tsv", (row: string[]) => row.splice(1, 1), ":2"],
  ] as const) {
    const dir = at(`bad-${file}`);
    cpSync(at("s1"), dir, { recursive: true });
    const path = join(dir, file);
    const lines = readFileSync(path, "utf8").split("\n");
    const row = lines[1]!.split("\t");
    edit(row);
    lines[1] = row.join("\t");
    writeFileSync(path, lines.join("\n"));
    for (const args of [
      ["recount", "--results", dir],
      ["merge", dir, at("s2"), "--results", at(`merged-bad-${file}`)],
    ]) {
      const line = refused(wirecost(args));
      assert.ok(line.startsWith(`wirecost: ${path}${want}`), `${args[0]}: ${line}`);
    }
    assert.ok(!existsSync(at(`merged-bad-${file}`, "summary.tsv")));
  }
});

test("merge and verify refuse an output folder that is, holds or lies inside a folder they read, writing nothing", () => {
  const input = at("nest-input");
  cpSync(at("s1"), input, { recursive: true });
  const before = snapshot(input);
  for (const [args, want] of [
    [["merge", input, "--results", join(input, "sub")], `--results ${join(input, "sub")} lies inside the input folder ${input}`],
    [["merge", input, "--results", join(input, ".wirecost-next")], "lies inside the input folder"],
    [["merge", input, "--results", input], `--results ${input} is the input folder ${input}`],
    [["merge", join(input, "logs"), "--results", input], "holds the input folder"],
    [["verify", MATRIX, "--results", input, "--scratch", join(input, "logs")], `--scratch ${join(input, "logs")} lies inside the results folder ${input}`],
  ] as const) {
    const line = refused(wirecost([...args]));
    assert.ok(line.includes(want), `${args.join(" ")}: ${line}`);
  }
  assert.deepEqual(snapshot(input), before, "the input folder is untouched");
  assert.ok(!existsSync(join(input, "sub")));
});

test("measure refuses a results folder holding another run's results; render refuses to replace a link in --site, never writing through it", () => {
  const other = at("not-measure");
  cpSync(at("s1"), other, { recursive: true });
  const before = snapshot(other);
  // measure says first which transport it measures (a line of its own), then refuses.
  const m = wirecost(["measure", "--repeats", "1", "--results", other, "--", "node", join(root, "dist/targets/mcp-ts-v1/server.js"), "--transport", "stdio"]);
  assert.equal(m.status, 1, m.stderr);
  const line = m.stderr.trimEnd().split("\n").at(-1)!;
  assert.ok(line.includes("holds results that wirecost measure did not write"), line);
  assert.deepEqual(snapshot(other), before, "the other run's results are untouched");
  const site = at("linked-site");
  mkdirSync(site);
  const victim = at("victim.txt");
  writeFileSync(victim, "VICTIM\n");
  symlinkSync(victim, join(site, "index.html"));
  const r = wirecost(["render", "--results", at("s1"), "--site", site]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /index\.html: this render would replace it, and it is a symbolic link, which no render writes/);
  assert.equal(readFileSync(victim, "utf8"), "VICTIM\n", "nothing written through the link");
  assert.ok(lstatSync(join(site, "index.html")).isSymbolicLink(), "the user's link stays");
  assert.deepEqual(readdirSync(site), ["index.html"], "nothing written beside it");
});

test("run --resume signals no process for a pid file it did not write (no start time or boot), and leaves other files there", async () => {
  const dir = at("forged-pids");
  cpSync(at("s1"), dir, { recursive: true });
  const victim = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  try {
    mkdirSync(join(dir, ".wirecost-targets"));
    writeFileSync(join(dir, ".wirecost-targets", `${victim.pid}.json`), JSON.stringify({ pid: victim.pid }));
    writeFileSync(join(dir, ".wirecost-targets", "README"), "my notes\n");
    const r = wirecost(["run", MATRIX, "--repeats", "1", "--shard", "1/2", "--results", dir, "--resume"]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotThrow(() => process.kill(victim.pid!, 0), "the unrelated process still runs");
    assert.equal(readFileSync(join(dir, ".wirecost-targets", "README"), "utf8"), "my notes\n");
  } finally {
    victim.kill("SIGKILL");
  }
});
