/**
 * The bytes format's history (format/migrations.ts), through the real CLI where a folder is read:
 * a folder written before anomalies were counted (test/fixtures/results-before-anomalies: two
 * configurations of `results/` as committed at the parent of c914b506, trimmed to them, capture
 * logs kept) renders through the migrations with the figures `wirecost recount` gives it; a file of
 * a shape no wirecost wrote is refused in one line; the writer's columns are the history's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import { MESSAGE_COLUMNS, readMessagesFile } from "../../format/messages.js";
import { WIRE_CHANGES, migrateTable } from "../../format/migrations.js";
import { readProvenance } from "../../format/provenance.js";
import { readRunsTable } from "../../format/runs.js";
import { readMedians } from "../../format/medians.js";
import { readSummary } from "../../format/summary.js";
import { UserError } from "../../format/errors.js";
import { readAnomaliesFile } from "../../format/anomalies.js";

const FIXTURE = join(root, "test/fixtures/results-before-anomalies");
const work = mkdtempSync(join(tmpdir(), "wirecost-migrations-"));

/** Run the CLI; what it printed (stdout, then stderr, where progress and the closing line go). */
function wirecost(args: string[]): string {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout + r.stderr;
}

/** Lines of `file` in both sites, for comparing one page. */
function pages(file: string): { older: string[]; recounted: string[] } {
  return {
    older: readFileSync(join(work, "site-older", file), "utf8").split("\n"),
    recounted: readFileSync(join(work, "site-recounted", file), "utf8").split("\n"),
  };
}

test("a folder written before anomalies were counted renders through the migrations with the figures recount gives it", () => {
  cpSync(FIXTURE, join(work, "older"), { recursive: true });
  cpSync(FIXTURE, join(work, "recounted"), { recursive: true });
  wirecost(["render", "--results", join(work, "older"), "--site", join(work, "site-older")]);
  assert.match(wirecost(["recount", "--results", join(work, "recounted")]), /recounted 10 run/);
  wirecost(["render", "--results", join(work, "recounted"), "--site", join(work, "site-recounted")]);

  // The bytes page: the same lines but for its anomalies, which the older folder says it never counted.
  const wire = pages("mcp-on-the-wire.md");
  const notCounted = wire.older.findIndex((l) => l.startsWith("These results were written before wirecost counted anomalies"));
  assert.ok(notCounted > 0, "the older folder's page says anomalies were not counted");
  assert.deepEqual(
    wire.older.filter((_, i) => i !== notCounted && i !== notCounted + 1),
    wire.recounted.filter((l) => !l.startsWith("None: the counter found no anomaly")),
  );

  // The medians: every figure of the older folder; the recount adds only columns counted since (unattributed bytes: 0).
  const medians = pages("mcp-on-the-wire-medians.tsv");
  const metric = (l: string): string => l.split("\t")[1] ?? "";
  const olderMetrics = new Set(medians.older.map(metric));
  const added = medians.recounted.filter((l) => !medians.older.includes(l));
  assert.ok(medians.older.every((l) => medians.recounted.includes(l)));
  assert.ok(added.length > 0 && added.every((l) => !olderMetrics.has(metric(l))), added.join("\n"));
  assert.deepEqual(
    added.filter((l) => metric(l) === "unattributed_bytes").map((l) => l.split("\t").slice(2)),
    [
      ["0", "0", "0"],
      ["0", "0", "0"],
    ],
  );

  // Each configuration's trace: the same bytes per message; the recount adds the tokens column.
  for (const page of readdirSync(join(work, "site-older")).filter((f) => f.startsWith("config-") && f.endsWith(".md"))) {
    const { older, recounted } = pages(page);
    const total = (lines: string[]) => lines.filter((l) => l.startsWith("| total |"));
    const olderTotals = total(older);
    assert.ok(olderTotals.length > 0, page);
    olderTotals.forEach((t, i) => assert.ok(total(recounted)[i]!.startsWith(t.slice(0, -1)), `${page}: ${t}`));
  }
});

test("the older folder's files read through the migrations: what they predate is said, not guessed", () => {
  const summary = readSummary(join(FIXTURE, "summary.tsv"), "");
  assert.equal(summary.anomaliesRecorded, false);
  assert.ok(summary.configs.every((c) => c.anomalies.size === 0));
  const provenance = readProvenance(join(FIXTURE, "provenance.json"), "");
  assert.deepEqual(provenance.report, { title: "MCP on the wire", slug: "mcp-on-the-wire" });
  assert.equal(provenance.clientProtocols, undefined);
  assert.deepEqual(provenance.tokenizers, []);
  const messages = readMessagesFile(join(FIXTURE, "logs/raw-mcp-go-http-2025-06-18-input/1.messages.tsv"))!;
  assert.ok(messages.length > 0);
  assert.ok(messages.every((m) => m.tokens === undefined && m.unattributedBytes === 0 && m.jsonFields.length === 0));
  assert.ok(
    messages.some((m) => m.headerNames.length > 0),
    "change 2's columns are read as written",
  );
});

test("a file of a shape no wirecost wrote is refused, naming the file and the column", () => {
  const current = MESSAGE_COLUMNS.join("\t");
  const without = (names: string[]) => {
    const keep = MESSAGE_COLUMNS.map((c, i) => [c, i] as const).filter(([c]) => !names.includes(c));
    const file = join(work, `messages-${names.join("-")}.tsv`);
    writeFileSync(file, `${keep.map(([c]) => c).join("\t")}\n${keep.map(() => "0").join("\t")}\n`);
    return file;
  };
  assert.ok(current.includes("json_fields"));
  const skipped = without(["json_fields"]);
  assert.throws(
    () => readMessagesFile(skipped),
    (e: unknown) => e instanceof UserError && /messages-json_fields\.tsv.*tokens_o200k_base.*change 6.*json_fields.*change 4/.test(e.message),
  );
  const partial = without(["unattributed_bytes", "json_fields", "tokens_o200k_base", "tokens_cl100k_base"]);
  assert.throws(
    () => readMessagesFile(partial),
    (e: unknown) => e instanceof UserError && /`anomalies` of change 3 but not `unattributed_bytes`/.test(e.message),
  );
  const provenance = JSON.parse(readFileSync(join(FIXTURE, "provenance.json"), "utf8")) as Record<string, unknown>;
  const file = join(work, "provenance.json");
  writeFileSync(file, JSON.stringify({ ...provenance, report: { title: "T", slug: "t" } }));
  assert.throws(
    () => readProvenance(file, ""),
    (e: unknown) => e instanceof UserError && /key `report` of change 1 but not `clients`/.test(e.message),
  );
});

test("the writer's messages.tsv columns are the first file's and each change's, in the order they landed", () => {
  const added = WIRE_CHANGES.flatMap((c) => (c.columns.messages ?? []).map((col) => col.name));
  const first = MESSAGE_COLUMNS.slice(0, MESSAGE_COLUMNS.length - added.length);
  assert.deepEqual([...MESSAGE_COLUMNS], [...first, ...added]);
  assert.deepEqual(
    WIRE_CHANGES.map((c) => c.number),
    WIRE_CHANGES.map((_, i) => i + 1),
  );
  // A current file predates nothing and is read as written.
  const table = { file: "m.tsv", header: MESSAGE_COLUMNS, rows: [] };
  assert.equal(migrateTable("messages", table).predates.size, 0);
  assert.equal(migrateTable("messages", table).table, table);
});

test("a merge of the older folder, and a recount that finds a log gone, keep its older shape: no NaN, anomalies not counted", () => {
  const merged = join(work, "merged");
  wirecost(["merge", FIXTURE, "--results", merged]);
  const partial = join(work, "partial");
  cpSync(FIXTURE, partial, { recursive: true });
  rmSync(join(partial, "logs/raw-mcp-go-stdio-2025-06-18-ten/5.jsonl"));
  assert.match(wirecost(["recount", "--results", partial]), /1 ok run\(s\) have no kept capture log/);
  for (const dir of [merged, partial]) {
    assert.doesNotMatch(readFileSync(join(dir, "medians.tsv"), "utf8"), /NaN/);
    assert.equal(readSummary(join(dir, "summary.tsv"), "").anomaliesRecorded, false, dir);
    const site = `${dir}-site`;
    wirecost(["render", "--results", dir, "--site", site]);
    assert.match(readFileSync(join(site, "mcp-on-the-wire.md"), "utf8"), /written before wirecost counted anomalies/);
  }
});

test("a json_fields cell that is not a JSON array of strings, and a count past 2^53, are refused in one line", () => {
  const current = MESSAGE_COLUMNS.map((c) =>
    c === "json_fields"
      ? '{"a":1}'
      : c.startsWith("tokens_") || c === "anomalies"
        ? ""
        : c === "body_bytes"
          ? "99999999999999999999"
          : (({ dir: "c2s", kind: "request", sse: "no", incomplete: "no" } as Record<string, string>)[c] ?? "0"),
  );
  const file = join(work, "odd-cells.messages.tsv");
  writeFileSync(file, `${MESSAGE_COLUMNS.join("\t")}\n${current.join("\t")}\n`);
  assert.throws(
    () => readMessagesFile(file),
    (e: unknown) => e instanceof UserError && /:2 \(body_bytes\): `99999999999999999999` is past the integers/.test(e.message),
  );
  writeFileSync(file, `${MESSAGE_COLUMNS.join("\t")}\n${current.map((c) => (c.startsWith("9") ? "5" : c)).join("\t")}\n`);
  assert.throws(
    () => readMessagesFile(file),
    (e: unknown) => e instanceof UserError && /:2 \(json_fields\): expected a JSON array of member paths/.test(e.message),
  );
});

test("messages.tsv cells no wirecost writes are refused in one line: a negative count, sse other than yes/no, an unknown kind, direction or anomaly code", () => {
  const good: Record<string, string> = { dir: "c2s", kind: "request", sse: "no", incomplete: "no" };
  const row = (over: Record<string, string>) =>
    MESSAGE_COLUMNS.map((c) => over[c] ?? good[c] ?? (c.startsWith("tokens_") || c === "json_fields" || c === "anomalies" ? "" : "0"));
  const file = join(work, "odd-words.messages.tsv");
  writeFileSync(file, `${MESSAGE_COLUMNS.join("\t")}\n${row({}).join("\t")}\n`);
  assert.equal(readMessagesFile(file)?.length, 1, "the well-formed row reads");
  const refused: [Record<string, string>, RegExp][] = [
    [{ body_bytes: "-5" }, /:2 \(body_bytes\): expected a non-negative integer, found `-5`/],
    [{ body_bytes: "007" }, /:2 \(body_bytes\): `007` has a leading zero, which no wirecost writes/],
    [{ sse: "maybe" }, /:2 \(sse\): expected `yes` or `no`, found `maybe`/],
    [{ kind: "gossip" }, /:2 \(kind\): expected `request` or .*, found `gossip`/],
    [{ dir: "sideways" }, /:2 \(dir\): expected `c2s` or `s2c`, found `sideways`/],
    [{ anomalies: "invalid-json,made-up-code" }, /:2 \(anomalies\): `made-up-code` is no anomaly code wirecost writes/],
  ];
  for (const [over, message] of refused) {
    writeFileSync(file, `${MESSAGE_COLUMNS.join("\t")}\n${row(over).join("\t")}\n`);
    assert.throws(
      () => readMessagesFile(file),
      (e: unknown) => e instanceof UserError && message.test(e.message) && !e.message.includes("\n"),
      JSON.stringify(over),
    );
  }
});

test("runs.tsv cells no wirecost writes are refused in one line: a status, a repeat 0, an anomaly code or count, an exit, a count, a repeat's second row", () => {
  const dir = join(work, "odd-runs");
  mkdirSync(dir, { recursive: true });
  const header = "config\trepeat\tstatus\texit\terror\tanomalies";
  writeFileSync(join(dir, "runs.tsv"), `${header}\na\t2\tok\t0\t\tinvalid-json:2\na\t1\tskipped\t\tno command\t\n`);
  const runs = readRunsTable(dir, "run first")!;
  assert.deepEqual(
    runs.rows.map((r) => [r.repeat, r.status, [...r.anomalies]]),
    [
      [1, "skipped", []],
      [2, "ok", [["invalid-json", 2]]],
    ],
    "well-formed rows read, sorted by repeat",
  );
  const refused: [string, RegExp][] = [
    ["a\t1\tmaybe\t0\t\t", /runs\.tsv:2 \(status\): expected `ok` or `failed` or `timeout` or `skipped`, found `maybe`/],
    ["a\t0\tok\t0\t\t", /runs\.tsv:2 \(repeat\): repeats are numbered from 1, found `0`/],
    ["a\t01\tok\t0\t\t", /runs\.tsv:2 \(repeat\): `01` has a leading zero/],
    ["a\t1\tok\t0\t\tmade-up-code:1", /runs\.tsv:2 \(anomalies\): .*`made-up-code` is no anomaly code/],
    ["a\t1\tok\t0\t\tinvalid-json:01", /runs\.tsv:2 \(anomalies\): .*has a count with a leading zero/],
    ["a\t1\tok\tbanana\t\t", /runs\.tsv:2 \(exit\): expected an exit code or a signal name/],
    ["a\t1\tok\t0\t\t\n", /runs\.tsv:3 \(repeat\): a second row of a repeat 1/],
  ];
  for (const cell of ["-5", "01270", "1.27e3", "+1270", "4.0"]) {
    refused.push([`a\t1\tok\t0\t\t\t${cell}`, /runs\.tsv:2 \(total_bytes\): /]);
  }
  for (const [row, message] of refused) {
    const rows = row.endsWith("\n") ? `${row}${row}` : `${row}\n`;
    writeFileSync(join(dir, "runs.tsv"), `${row.includes("\t\t\t") ? `${header}\ttotal_bytes` : header}\n${rows}`);
    assert.throws(
      () => readRunsTable(dir, "run first"),
      (e: unknown) => e instanceof UserError && message.test(e.message) && !e.message.includes("\n"),
      row,
    );
  }
});

test("medians.tsv with a median of a leading zero or a metric no wirecost counts is refused in one line", () => {
  const file = join(work, "odd-medians.tsv");
  const cases: [string, RegExp][] = [
    ["a\ttotal_bytes\t4\t04\t4", /:2 \(median\): expected a non-negative count \(one decimal at most, no leading zero\), found `04`/],
    ["a\tfrobs\t1\t1\t1", /:2 \(metric\): `frobs` is no count column wirecost writes/],
  ];
  for (const [row, message] of cases) {
    writeFileSync(file, `config\tmetric\tmin\tmedian\tmax\n${row}\n`);
    assert.throws(
      () => readMedians(file, "run first"),
      (e: unknown) => e instanceof UserError && message.test(e.message) && !e.message.includes("\n"),
      row,
    );
  }
  writeFileSync(file, "config\tmetric\tmin\tmedian\tmax\na\ttotal_bytes\t0\t0.5\t1\n");
  assert.equal(readMedians(file, "run first").get("a")?.get("total_bytes")?.median, 0.5, "a median halfway between two counts reads");
});

test("summary.tsv with an unknown anomaly code is refused in one line", () => {
  const file = join(work, "odd-summary.tsv");
  const lines = readFileSync(join(root, "results", "summary.tsv"), "utf8").split("\n");
  const header = lines[0]!.split("\t");
  assert.ok(header.includes("anomalies"), "the committed results' summary has the column");
  const cells = lines[1]!.split("\t");
  cells[header.indexOf("anomalies")] = "made-up-code:2";
  writeFileSync(file, [lines[0], cells.join("\t"), ...lines.slice(2)].join("\n"));
  assert.throws(
    () => readSummary(file, "run first"),
    (e: unknown) => e instanceof UserError && /:2 \(anomalies\): .*`made-up-code` is no anomaly code/.test(e.message),
  );
});

test("anomalies.tsv counts past 2^53 or a direction no wirecost writes, and summary anomalies counts of 0 or past 2^53, are refused in one line", () => {
  const file = join(work, "odd.anomalies.tsv");
  const cases: [string, RegExp][] = [
    ["invalid-json\t1\ts2c\t99999999999999999999\t5\tx", /:2 \(offset\): `99999999999999999999` is past the integers/],
    ["invalid-json\t1\tup\t0\t5\tx", /:2 \(dir\): expected `c2s` or `s2c`, found `up`/],
  ];
  for (const [row, message] of cases) {
    writeFileSync(file, `code\tconn\tdir\toffset\tbytes\tdetail\n${row}\n`);
    assert.throws(
      () => readAnomaliesFile(file),
      (e: unknown) => e instanceof UserError && message.test(e.message),
      row,
    );
  }
  const summary = join(work, "odd-counts-summary.tsv");
  const lines = readFileSync(join(root, "results", "summary.tsv"), "utf8").split("\n");
  const header = lines[0]!.split("\t");
  for (const cell of ["invalid-json:0", "invalid-json:99999999999999999999"]) {
    const cells = lines[1]!.split("\t");
    cells[header.indexOf("anomalies")] = cell;
    writeFileSync(summary, [lines[0], cells.join("\t"), ...lines.slice(2)].join("\n"));
    assert.throws(
      () => readSummary(summary, "run first"),
      (e: unknown) =>
        e instanceof UserError && /:2 \(anomalies\): .*is no count wirecost writes.*; fix: regenerate the results with `npx wirecost run`/.test(e.message),
      cell,
    );
  }
});

test("compare notes a count column one folder lacks, and a --fail-on rule on a column the head lost trips", () => {
  const head = join(work, "lost-total");
  cpSync(FIXTURE, head, { recursive: true });
  const medians = readFileSync(join(head, "medians.tsv"), "utf8").split("\n");
  writeFileSync(join(head, "medians.tsv"), medians.filter((l) => !l.includes("\ttotal_bytes\t")).join("\n"));
  const r = spawnSync(process.execPath, [cli, "compare", FIXTURE, head, "--fail-on", "total_bytes>0"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stdout, /note: total_bytes counted in the base only, for 2 configurations/);
  assert.match(r.stdout, /fail-on total_bytes>0: raw-mcp-go-http-2025-06-18-input total_bytes not counted in head/);
});
