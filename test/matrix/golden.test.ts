/**
 * Golden expansions: ids, order, repeats, warm-up and excluded cells of the matrices under
 * test/fixtures/matrices/good/ are pinned in test/fixtures/matrices/golden/<name>.tsv.
 * UPDATE_GOLDEN=1 rewrites the golden files.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { expand } from "../../runner/matrix/expand.js";
import { expansionSummary, expansionTsv, runCount } from "../../runner/matrix/format.js";
import { loadMatrix, parseMatrix } from "../../runner/matrix/parse.js";
import { root } from "../paths.js";
import { fixtures } from "./support.js";

const update = process.env.UPDATE_GOLDEN === "1";

/** Expansion text of a fixture: TSV with excluded cells, then `# <summary>`. */
function render(name: string): string {
  const rel = `test/fixtures/matrices/good/${name}`;
  const m = parseMatrix(readFileSync(resolve(root, rel), "utf8"), rel);
  const e = expand(m);
  return expansionTsv(m, e, true) + `# ${expansionSummary(e)}\n`;
}

for (const name of readdirSync(join(fixtures, "good"))
  .filter((f) => f.endsWith(".yaml"))
  .sort()) {
  test(`golden expansion of ${name}`, () => {
    const golden = join(fixtures, "golden", name.replace(/\.yaml$/, ".tsv"));
    const got = render(name);
    if (update || !existsSync(golden)) {
      if (!update) assert.fail(`${golden} is missing — run UPDATE_GOLDEN=1 npm test`);
      writeFileSync(golden, got);
    }
    assert.equal(got, readFileSync(golden, "utf8"));
  });
}

test("the published shape: main grid × 20 + sweeps × 5 = 90 configurations, 990 runs", () => {
  const e = expand(loadMatrix(join(fixtures, "good/published-shape.yaml")));
  assert.equal(e.configurations.length, 90);
  assert.equal(runCount(e), 990);
  assert.equal(e.configurations.filter((c) => c.repeats === 20).length, 36);
  assert.equal(e.configurations.filter((c) => c.repeats === 5).length, 54);
  // A cell in both the grid and the state sweep runs once, with the grid's 20 repeats.
  const shared = e.configurations.filter((c) => c.id === "raw-floor-http-2025-11-25-plain");
  assert.deepEqual(
    shared.map((c) => c.repeats),
    [20],
  );
});

test("the committed 8-configuration matrix keeps its ids in the grown matrix.yaml", () => {
  const before = expand(loadMatrix(join(fixtures, "good/committed-8.yaml"))).configurations.map((c) => c.id);
  assert.equal(before.length, 8);
  const now = new Set(expand(loadMatrix(join(root, "matrix.yaml"))).configurations.map((c) => c.id));
  for (const id of before) assert.ok(now.has(id), `matrix.yaml lost configuration ${id}`);
});
