/**
 * `wirecost compare` on wire results folders with known differences. Each head folder is a real
 * run of the JSON-RPC echo fixture (test/fixtures/matrices/compare/*.yaml: one configuration,
 * `jsonrpc-echo-http`) with one knob that changes the bytes by a known amount; the SSE case is
 * two real runs of the Python SDK server from the committed results (JSON answers on and off),
 * copied under one configuration id (the documented edit: the id). Exit codes: 0 no rule
 * tripped, 2 a --fail-on rule tripped, 1 a user error.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import MarkdownIt from "markdown-it";
import { cli, root } from "../paths.js";

const work = mkdtempSync(join(tmpdir(), "wirecost-compare-"));
const folder = (name: string) => join(work, name);

function wirecost(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
}

/** The comparison as JSON (`--format json`). */
function compareJson(base: string, head: string, ...more: string[]) {
  const r = wirecost("compare", base, head, "--format", "json", ...more);
  assert.ok(r.status === 0 || r.status === 2, r.stderr);
  return { status: r.status, json: JSON.parse(r.stdout) as import("../../runner/compare/compare.js").Comparison & { trips: unknown[] } };
}

before(() => {
  for (const m of ["base", "header", "field", "two", "key", "bidi"]) {
    const r = wirecost("run", `test/fixtures/matrices/compare/${m}.yaml`, "--results", folder(m));
    assert.equal(r.status, 0, r.stderr);
  }
  const broken = wirecost("run", "test/fixtures/matrices/compare/broken.yaml", "--results", folder("broken"));
  assert.equal(broken.status, 1, "every run of the broken fixture fails");
});

test("wirecost compare results results: no change, exit 0", () => {
  const r = wirecost("compare", "results", "results");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /no change in any count/);
  assert.match(r.stdout, /configurations: [0-9]+ in both, 0 only in base, 0 only in head/);
});

test("a header added: +12 bytes per answer (X-Extra: 1 and its CRLF), named; --fail-on total_bytes>0 exits 2", () => {
  const { json } = compareJson(folder("base"), folder("header"));
  assert.equal(json.bytes.length, 1);
  const b = json.bytes[0]!;
  assert.equal(b.config, "jsonrpc-echo-http");
  assert.deepEqual(
    b.changes.find((c) => c.column === "total_bytes"),
    {
      column: "total_bytes",
      base: b.changes.find((c) => c.column === "total_bytes")!.base,
      head: b.changes.find((c) => c.column === "total_bytes")!.base + 12,
      delta: 12,
    },
  );
  assert.deepEqual(
    b.causes!.causes.map((c) => [c.kind, c.change, c.name, c.dir, c.method, c.bytes]),
    [["header", "added", "x-extra", "s2c", "echo", 12]],
  );
  assert.equal(b.causes!.unexplainedBytes, 0);
  assert.match(json.notes[0]!, /different matrix/);
  const tripped = wirecost("compare", folder("base"), folder("header"), "--fail-on", "total_bytes>0");
  assert.equal(tripped.status, 2);
  assert.match(tripped.stdout, /fail-on total_bytes>0: jsonrpc-echo-http total_bytes \+12/);
  assert.equal(wirecost("compare", folder("base"), folder("header"), "--fail-on", "total_bytes>12").status, 0);
  assert.equal(wirecost("compare", folder("base"), folder("header"), "--fail-on", "total_bytes>+5%").status, 0, "12 bytes of ~390 is about 3%");
});

test('a body field added: result.extra ("extra":"yes" and its comma, 14 bytes)', () => {
  const { json } = compareJson(folder("base"), folder("field"));
  const r = json.bytes[0]!.causes!;
  const path = r.causes.filter((c) => c.kind === "json path");
  assert.deepEqual(
    path.map((c) => [c.change, c.name, c.dir, c.method, c.bytes]),
    [["added", "result.extra", "s2c", "echo", ',"extra":"yes"'.length]],
  );
  // Anything else is the Content-Length header's value growing with the body.
  assert.ok(r.causes.filter((c) => c.kind !== "json path").every((c) => c.kind === "header" && c.name === "content-length"));
  assert.equal(
    r.causes.reduce((s, c) => s + c.bytes, 0),
    r.delta.total_bytes,
  );
  assert.equal(r.unexplainedBytes, 0);
  assert.equal(wirecost("compare", folder("base"), folder("field"), "--fail-on", "unexplained_bytes>0").status, 0);
  // Without the head's capture logs no cause can be found: the whole change is unexplained.
  cpSync(folder("field"), folder("field-no-logs"), { recursive: true, filter: (src) => !src.includes("/logs") });
  const noLogs = wirecost("compare", folder("base"), folder("field-no-logs"), "--fail-on", "unexplained_bytes>0");
  assert.equal(noLogs.status, 2);
  assert.match(noLogs.stdout, /causes: not found \(no capture log kept in .*field-no-logs for jsonrpc-echo-http\)/);
  assert.match(noLogs.stdout, /fail-on unexplained_bytes>0: jsonrpc-echo-http unexplained_bytes \+14\n/);
});

test("--format md: a JSON key from the wire holding a backtick, HTML, a pipe and a link stays literal text in its code span and cell", () => {
  const key = "a`<script>alert(1)</script>|[x](y)";
  const { json } = compareJson(folder("base"), folder("key"));
  assert.ok(
    json.bytes[0]!.causes!.causes.some((c) => c.kind === "json path" && c.name.includes(key)),
    "the key is a cause's name",
  );
  const md = wirecost("compare", folder("base"), folder("key"), "--format", "md");
  assert.equal(md.status, 0, md.stderr);
  // Rendered as GitHub does for a comment: raw HTML on, tables on.
  const html = new MarkdownIt({ html: true }).render(md.stdout);
  assert.doesNotMatch(html, /<script>/, "no live HTML from the wire");
  assert.doesNotMatch(html, /<a href/, "no link from the wire");
  const row = html.split("<tr>").find((r) => r.includes("alert(1)"));
  assert.ok(row, html);
  assert.equal((row.match(/<td/g) ?? []).length, 3, `one row of three cells: ${row}`);
  const escaped = key.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  assert.ok(row.includes(`<code>result.${escaped}</code>`) || row.includes(escaped), row);
  assert.match(row, new RegExp(`<code>[^<]*${escaped.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^<]*</code>`), row);
});

test("--format md: bidirectional formatting characters from the wire (U+202E, U+2066) show as text, never reorder the comment", () => {
  const { json } = compareJson(folder("base"), folder("bidi"));
  assert.ok(
    json.bytes[0]!.causes!.causes.some((c) => c.kind === "json path" && c.name.includes("b\u202eevil\u2066x")),
    "the key is a cause's name",
  );
  const md = wirecost("compare", folder("base"), folder("bidi"), "--format", "md");
  assert.equal(md.status, 0, md.stderr);
  assert.doesNotMatch(md.stdout, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, "no bidirectional formatting character in the markdown");
  assert.ok(md.stdout.includes("b<U+202E>evil<U+2066>x"), md.stdout);
  const text = wirecost("compare", folder("base"), folder("bidi"));
  assert.equal(text.status, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, "no bidirectional formatting character in the terminal text");
  assert.ok(text.stdout.includes("b<U+202E>evil<U+2066>x"), text.stdout);
});

test("terminal text: control characters from a results folder (ESC sequences, a line break, C1, U+2028 in provenance.json's matrix file) show as text", () => {
  const forged = folder("control");
  cpSync(folder("field"), forged, { recursive: true });
  const provenance = JSON.parse(readFileSync(join(forged, "provenance.json"), "utf8")) as { matrix: { file: string } };
  provenance.matrix.file = "m\u001b]0;PWNED\u0007\u001b[2J\nfake line\u0085\u009b31m\u2028x";
  writeFileSync(join(forged, "provenance.json"), JSON.stringify(provenance, null, 2));
  const text = wirecost("compare", folder("base"), forged);
  assert.equal(text.status, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/, "no control character but tab and line end");
  assert.ok(text.stdout.includes("m<U+001B>]0;PWNED<U+0007><U+001B>[2J<U+000A>fake line<U+0085><U+009B>31m<U+2028>x"), text.stdout);
  assert.doesNotMatch(text.stdout, /^fake line/m, "the line break in it starts no line");
});

test("one more round trip (flow two): an exchange added, http_round_trips +1; --fail-on http_round_trips>0 exits 2", () => {
  const { json, status } = compareJson(folder("base"), folder("two"), "--fail-on", "http_round_trips>0");
  assert.equal(status, 2);
  const b = json.bytes[0]!;
  assert.equal(b.changes.find((c) => c.column === "http_round_trips")!.delta, 1);
  assert.equal(b.changes.find((c) => c.column === "jsonrpc_c2s")!.delta, 1);
  const r = b.causes!;
  const added = r.causes.filter((c) => c.kind === "exchange" && c.change === "added");
  assert.equal(added.length, 1);
  assert.equal(added[0]!.method, "echo");
  assert.equal(added[0]!.count, 1);
  // The added exchange holds the change but for ids and lengths that grew with it (none here: id 2 is as long as id 1).
  assert.equal(r.unexplainedBytes, 0);
  assert.equal(
    r.causes.reduce((s, c) => s + c.bytes, 0),
    r.delta.total_bytes,
  );
});

/** A wire folder holding one configuration of `src`, renamed `as` (summary, medians, runs, logs). */
function oneConfig(src: string, config: string, dest: string, as: string): void {
  mkdirSync(join(dest, "logs"), { recursive: true });
  for (const f of ["summary.tsv", "medians.tsv", "runs.tsv"]) {
    const [head, ...rows] = readFileSync(join(src, f), "utf8").trimEnd().split("\n");
    const mine = rows.filter((r) => r.split("\t")[0] === config).map((r) => [as, ...r.split("\t").slice(1)].join("\t"));
    writeFileSync(join(dest, f), [head, ...mine, ""].join("\n"));
  }
  cpSync(join(src, "provenance.json"), join(dest, "provenance.json"));
  cpSync(join(src, "logs", config), join(dest, "logs", as), { recursive: true });
}

test("SSE instead of JSON: the Python SDK server's answers as events, not JSON bodies", () => {
  const results = resolve(root, "results");
  oneConfig(results, "raw-mcp-py-http-2025-11-25-plain-ans-json", folder("py-json"), "py-http");
  oneConfig(results, "raw-mcp-py-http-2025-11-25-plain", folder("py-sse"), "py-http");
  const { json, status } = compareJson(folder("py-json"), folder("py-sse"), "--fail-on", "unexplained_bytes>0");
  assert.equal(status, 0, "every byte is named");
  const r = json.bytes[0]!.causes!;
  const sse = r.causes.filter((c) => c.kind === "framing" && c.name === "json → sse");
  assert.deepEqual(sse.map((c) => c.method).sort(), ["initialize", "tools/call", "tools/list"]);
  assert.equal(r.unexplainedBytes, 0);
  const md = wirecost("compare", folder("py-json"), folder("py-sse"), "--format", "md");
  assert.equal(md.status, 0);
  assert.match(md.stdout, /\| \+[0-9]+ \| framing `json → sse` changed \(s2c, tools\/list\) \|/);
});

test("configurations in one folder only are listed; --only narrows", () => {
  oneConfig(resolve(root, "results"), "raw-mcp-go-http-2025-11-25-plain", folder("go-only"), "go-http");
  const { json } = compareJson(folder("py-json"), folder("go-only"));
  assert.deepEqual([json.onlyBase, json.onlyHead], [["py-http"], ["go-http"]]);
  const text = wirecost("compare", folder("py-json"), folder("go-only"));
  assert.match(text.stdout, /only in base: py-http\nonly in head: go-http/);
  assert.equal(wirecost("compare", "results", "results", "--only", "raw-mcp-go-*").status, 0);
});

test("a configuration whose every run failed in the head: listed, and a count rule trips (exit 2), never `no change`", () => {
  const { status, json } = compareJson(folder("base"), folder("broken"), "--fail-on", "total_bytes>0");
  assert.equal(status, 2);
  assert.deepEqual([json.compared, json.failedBase, json.failedHead], [["jsonrpc-echo-http"], [], ["jsonrpc-echo-http"]]);
  assert.deepEqual(json.trips, [{ rule: "total_bytes>0", config: "jsonrpc-echo-http", metric: "total_bytes", change: "no ok run in head" }]);
  const text = wirecost("compare", folder("base"), folder("broken"));
  assert.equal(text.status, 0, "no rule given");
  assert.match(text.stdout, /no ok run in head \(every run failed\): jsonrpc-echo-http/);
  assert.doesNotMatch(text.stdout, /^no change in any count$/m);
  assert.equal(wirecost("compare", folder("broken"), folder("broken"), "--fail-on", "total_bytes>0").status, 0, "failed on both sides: nothing changed");
  assert.equal(wirecost("compare", folder("broken"), folder("base"), "--fail-on", "total_bytes<0").status, 2);
});

test("user errors: one line naming the folder or rule and the fix, exit 1", () => {
  const missing = wirecost("compare", "results", folder("nope"));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^wirecost: .*nope: no such folder; fix: /);
  assert.equal(missing.stderr.trim().split("\n").length, 1);
  const kinds = wirecost("compare", "results", "results/a2a-layer-cost");
  assert.equal(kinds.status, 1);
  assert.match(kinds.stderr, /a timing results folder, but results is a wire one; fix: compare two folders of the same report kind/);
  const rule = wirecost("compare", "results", "results", "--fail-on", "total_bytes=>1");
  assert.equal(rule.status, 1);
  assert.match(rule.stderr, /--fail-on total_bytes=>1: not a rule; fix: write METRIC OP VALUE/);
  const metric = wirecost("compare", "results", "results", "--fail-on", "cpu_per_request_us>0");
  assert.equal(metric.status, 1);
  assert.match(metric.stderr, /not a count column of a wire folder/);
  mkdirSync(join(folder("folder-as-file"), "summary.tsv"), { recursive: true });
  const isDir = wirecost("compare", folder("folder-as-file"), "results");
  assert.equal(isDir.status, 1);
  assert.match(isDir.stderr, /^wirecost: BASE .*folder-as-file: cannot read .*folder-as-file\/summary\.tsv: it is a folder, not a file/);
  assert.equal(isDir.stderr.trim().split("\n").length, 1);
  const pct = wirecost("compare", "results", "results", "--fail-on", "unexplained_bytes>5%");
  assert.equal(pct.status, 1);
  assert.match(pct.stderr, /unexplained_bytes has no base to take a percentage of; fix: give bytes/);
  const only = wirecost("compare", "results", "results", "--only", "nothing-*");
  assert.equal(only.status, 1);
  assert.match(only.stderr, /--only nothing-\*: matches no configuration/);
});
