/**
 * Server CPU per request by stage in a cpu run, through the real CLI
 * (test/fixtures/matrices/timing-stages.yaml): the floor spending 1,000 µs of CPU per request in
 * burnCpu and the A2A JS SDK server, both sampling themselves over the signal window in their first
 * trial. Each stage table sums to its window's measured CPU per request; the floor's burn is its
 * largest stage; the SDK server's rows name its HTTP parsing, decode and validation, dispatch and
 * response; little is unclassified; the A2A page shows the section with its chart and data.
 */
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { tsv } from "../execute/helpers.js";
import { cli, root } from "../paths.js";

describe("server CPU per request by stage (cpu runs)", { timeout: 600_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-timing-stages-"));
  const site = mkdtempSync(join(tmpdir(), "wirecost-timing-stages-site-"));
  let rows: Record<string, string>[] = [];
  before(async () => {
    const r = await execa(process.execPath, [cli, "run", "test/fixtures/matrices/timing-stages.yaml", "--results", out], { cwd: root, reject: false });
    assert.equal(r.exitCode, 0, r.stderr.slice(-2000));
    rows = tsv(join(out, "timings-stages.tsv"));
    const s = await execa(process.execPath, [cli, "render", "--results", out, "--site", site], { cwd: root, reject: false });
    assert.equal(s.exitCode, 0, s.stderr.slice(-2000));
  });
  const of = (config: string) => rows.filter((r) => r.config === config);

  it("each server's stage rows sum to its profiled window's measured CPU per request", () => {
    for (const config of ["floor", "a2a-js"]) {
      const rs = of(config);
      assert.ok(rs.length > 0, `${config}: a stage table`);
      const sum = rs.reduce((n, r) => n + Number(r.us_per_request), 0);
      const cpu = Number(rs[0]!.window_cpu_per_request_us);
      assert.ok(Math.abs(sum - cpu) <= 0.005 * cpu, `${config}: rows ${sum.toFixed(1)} µs against ${cpu} µs`);
      assert.equal(rs[0]!.sampler, "self");
      const unclassified = rs.find((r) => r.stage === "unclassified");
      assert.ok(!unclassified || Number(unclassified.us_per_request) < 0.05 * cpu, `${config}: little unclassified`);
    }
  });

  it("the floor's burn is its largest stage; the SDK server's rows name its layers", () => {
    const floor = of("floor").filter((r) => r.stage !== "kernel");
    const top = [...floor].sort((a, b) => Number(b.us_per_request) - Number(a.us_per_request))[0]!;
    assert.equal(top.stage, "work");
    const js = new Set(of("a2a-js").map((r) => r.stage));
    for (const stage of ["transport", "parse-validate", "dispatch", "build-result", "kernel"]) assert.ok(js.has(stage), `a2a-js: ${stage}`);
  });

  it("only the first trial runs the profiled window", () => {
    const t1 = JSON.parse(readFileSync(join(out, "timings", "floor", "trial-1.json"), "utf8")) as { stages?: unknown };
    const t2 = JSON.parse(readFileSync(join(out, "timings", "floor", "trial-2.json"), "utf8")) as { stages?: unknown };
    assert.ok(t1.stages !== undefined && t2.stages === undefined);
  });

  it("the A2A page has the section, the stacked bar chart and its data", () => {
    const md = readFileSync(join(site, "a2a-layer-cost.md"), "utf8");
    assert.match(md, /## Server CPU per request by stage/);
    assert.match(md, /### A2A JS SDK\n\nConfiguration `a2a-js`, sampler self\. The rows sum to [\d,.]+ µs/);
    assert.ok(existsSync(join(site, "a2a-layer-cost-stages.svg")));
    assert.match(readFileSync(join(site, "a2a-layer-cost-stages.tsv"), "utf8"), /^server\tstage\tus_per_request\n/);
  });
});
