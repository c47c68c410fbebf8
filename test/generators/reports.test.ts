/**
 * Report discovery: a results folder holding a wire report at its root and further reports in
 * sub-folders (timings, per-call) renders every report, and the index links each one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "../../generators/render.js";
import { buildsTable } from "../../generators/sections/builds.js";
import { DEFINITIONS } from "../../generators/sections/definitions.js";
import { root } from "../paths.js";

test("render finds the wire report at the root and the timing and per-call reports in sub-folders", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "wirecost-reports-"));
  const results = join(tmp, "results");
  cpSync(join(root, "test/fixtures/results-basic"), results, { recursive: true });
  cpSync(join(root, "results/a2a-layer-cost"), join(results, "a2a-layer-cost"), { recursive: true });
  cpSync(join(root, "test/fixtures/results-percall"), join(results, "mcp-per-call-overhead"), { recursive: true });
  const site = join(tmp, "site");
  const { files } = await render({ results, site });
  for (const page of ["index", "mcp-on-the-wire", "a2a-layer-cost", "mcp-per-call-overhead"]) {
    assert.ok(files.includes(`${page}.html`) && files.includes(`${page}.md`), `${page} rendered`);
  }
  const index = readFileSync(join(site, "index.md"), "utf8");
  const expected: [string, string][] = [
    ["mcp-on-the-wire", "."],
    ["a2a-layer-cost", "a2a-layer-cost"],
    ["mcp-per-call-overhead", "mcp-per-call-overhead"],
  ];
  for (const [page, folder] of expected) {
    assert.match(index, new RegExp(`\\(${page}\\.md\\) \\|[^\\n]*\\| ${folder.replace(".", "\\.")} \\|`), `index links ${page} with its folder`);
  }
  assert.ok(!existsSync(join(site, "percall.tsv")), "results files are not copied into the site");
});

test("render of a folder with a timing report only writes that page, its charts with the charts' data, and the index", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "wirecost-reports-"));
  const site = join(tmp, "site");
  const { files } = await render({ results: join(root, "results/a2a-layer-cost"), site });
  assert.deepEqual(files, [
    "a2a-layer-cost-cpu.svg",
    "a2a-layer-cost-cpu.tsv",
    "a2a-layer-cost-stages.svg",
    "a2a-layer-cost-stages.tsv",
    "a2a-layer-cost-timings-summary.tsv",
    "a2a-layer-cost.html",
    "a2a-layer-cost.md",
    "index.html",
    "index.md",
  ]);
});

test("the A2A page answers first: at most 12 rows of CPU per request with the interval over trials (5 trials here: the bootstrap interval, which at 5 trials is their min–max), and the chart's data, all from timings-summary.tsv", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "wirecost-a2a-answer-"));
  const site = join(tmp, "site");
  const results = join(root, "results/a2a-layer-cost");
  await render({ results, site });
  const summary = readFileSync(join(results, "timings-summary.tsv"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((r) => r[1] === "cpu_per_request_us");
  const one = (x: string): string => Number(x).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const chart = readFileSync(join(site, "a2a-layer-cost-cpu.tsv"), "utf8")
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"));
  assert.equal(chart.length, summary.length, "one bar per configuration with a CPU figure");
  assert.equal(chart[0]?.[1], "pinned", "the chart's first panel is the headline's layout");
  const cpuSvg = readFileSync(join(site, "a2a-layer-cost-cpu.svg"), "utf8");
  assert.ok(cpuSvg.indexOf(">pinned<") >= 0 && cpuSvg.indexOf(">pinned<") < cpuSvg.indexOf(">default<"), "pinned panel drawn first");
  for (const [target, layout, median, min, max] of chart) {
    const row = summary.find((r) => r[0] === `${target}-${layout}`);
    assert.deepEqual([median, min, max], [row?.[3], row?.[4], row?.[5]], `${target} ${layout}`);
  }
  const md = readFileSync(join(site, "a2a-layer-cost.md"), "utf8");
  const answer = md.slice(md.indexOf("## The answer"), md.indexOf("## What this measures"));
  const rows = answer.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| ---") && !l.startsWith("| Target"));
  assert.ok(rows.length > 0 && rows.length <= 12, `answer rows: ${rows.length}`);
  for (const r of summary) assert.ok(answer.includes(`${one(r[3] ?? "")} (${one(r[4] ?? "")}–${one(r[5] ?? "")})`), `${r[0]} median and range in the answer`);
  assert.match(answer, /median of 5 trials, in brackets the percentile bootstrap 95 % interval of the median/);
  assert.match(answer, /busy machine/);
  // The latency tables carry the trials' range of p50 and p95 too.
  const latencyRows = readFileSync(join(results, "timings-summary.tsv"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((r) => r[1] === "p50_us" || r[1] === "p95_us");
  assert.ok(latencyRows.length > 0);
  for (const r of latencyRows) assert.ok(md.includes(`${one(r[4] ?? "")}–${one(r[5] ?? "")} |`), `${r[0]} ${r[1]} trials range in the latency table`);
  for (const term of ["floor", "trial"] as const) assert.ok(md.includes(DEFINITIONS[term]), `the ${term} definition, from the one source`);
  // The headline's layout (pinned) comes first, and each layout is defined above the table from the run record.
  const header = answer.split("\n").find((l) => l.startsWith("| Target")) ?? "";
  assert.ok(header.indexOf("pinned:") > 0 && header.indexOf("pinned:") < header.indexOf("default:"), header);
  const run = JSON.parse(readFileSync(join(results, "timings-run.json"), "utf8")) as { layouts: Record<string, string> };
  assert.ok(answer.includes(`**pinned**: \`${run.layouts["floor-pinned"]}\``), "the pinned layout is defined in the caption");
  assert.match(answer, /^Targets: `a2a-[a-z]+`: A2A /m);
  // Per target, the layouts are said to differ only when their trial ranges do not overlap.
  const range = (config: string): [number, number] => {
    const r = summary.find((x) => x[0] === config);
    return [Number(r?.[4]), Number(r?.[5])];
  };
  const targets = [...new Set(summary.map((r) => (r[0] ?? "").replace(/-(pinned|default)$/, "")))];
  const overlapLine = answer.split("\n").find((l) => l.includes("layouts overlap")) ?? "";
  const apartLine = answer.split("\n").find((l) => l.includes("beyond the intervals for")) ?? "";
  for (const n of targets) {
    const [a0, a1] = range(`${n}-pinned`);
    const [b0, b1] = range(`${n}-default`);
    const overlaps = a0 <= b1 && b0 <= a1;
    assert.equal(overlapLine.includes(`\`${n}\``) || overlapLine.startsWith("- For every target"), overlaps, `${n}: overlap said iff the ranges overlap`);
    assert.equal(apartLine.includes(`\`${n}\``), !overlaps, `${n}: a difference claimed iff the ranges are apart`);
  }
});

test("a package resolved at two versions is listed under its name once, both versions named", () => {
  const table = buildsTable([
    {
      target: "t",
      ecosystem: "crates",
      toolchain: [],
      packages: [
        { name: "syn", version: "2.0.119, 3.0.10" },
        { name: "synstructure", version: "0.14.0" },
      ],
    },
  ]);
  assert.equal(table?.rows[0]?.[3], "syn 2.0.119 and 3.0.10, synstructure 0.14.0");
});
