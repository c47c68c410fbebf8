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

test("render of a folder with a timing report only writes that page and the index", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "wirecost-reports-"));
  const site = join(tmp, "site");
  const { files } = await render({ results: join(root, "results/a2a-layer-cost"), site });
  assert.deepEqual(files, ["a2a-layer-cost.html", "a2a-layer-cost.md", "index.html", "index.md"]);
});
