/**
 * Benchmark: `wirecost compare` on two committed wire result sets. Goal: under 5 s end to end
 * (README, "What changed?").
 *
 * 1. `wirecost compare OLD results`, the command as a user runs it (a new node process): OLD is
 *    the first committed wire result set (commit 47bcdcf, 106 configurations), extracted with
 *    `git archive` into a temp folder; results/ is the current one (220 configurations).
 * 2. `wirecost compare results results` (every configuration read, none changed).
 * 3. The cause finder on every configuration whose logs differ: byteChangeCauses on repeat 1 and
 *    repeat 2 of each configuration of results/ (they differ in dates and session ids, so every
 *    exchange is aligned and diffed): what compare adds when every configuration changed.
 * Each is timed best of 3, wall clock. Run: `npx tsc -p tsconfig.json && node dist/bench/compare.js`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { byteChangeCauses } from "../runner/compare/causes.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/bin/wirecost.js");
const GOAL_S = 5;
const OLD_COMMIT = "47bcdcf";

function best(label: string, run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    run();
    times.push((performance.now() - t) / 1000);
  }
  const s = Math.min(...times);
  process.stdout.write(`${label}: ${s.toFixed(2)} s best of 3 (${times.map((x) => x.toFixed(2)).join(", ")})\n`);
  return s;
}

function compareCli(base: string, head: string): void {
  const r = spawnSync(process.execPath, [cli, "compare", base, head], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`wirecost compare ${base} ${head}: exit ${r.status}: ${r.stderr}`);
}

const results = join(root, "results");
const old = mkdtempSync(join(tmpdir(), "bench-compare-"));
let endToEnd: number | undefined;
try {
  execFileSync("bash", ["-c", `git -C ${JSON.stringify(root)} archive ${OLD_COMMIT} results | tar -x -C ${JSON.stringify(old)}`]);
  endToEnd = best(`wirecost compare <${OLD_COMMIT}>/results results`, () => compareCli(join(old, "results"), results));
} catch (e) {
  process.stdout.write(`skipped the committed pair: ${(e as Error).message.split("\n")[0]} (needs the git history)\n`);
}
const self = best("wirecost compare results results", () => compareCli(results, results));
const configs = readdirSync(join(results, "logs")).filter((c) => existsSync(join(results, "logs", c, "2.jsonl")));
let causes = 0;
const finder = best(`byteChangeCauses, repeat 1 vs 2 of ${configs.length} configurations`, () => {
  causes = 0;
  for (const c of configs) {
    const transport = c.includes("-stdio-") ? "stdio" : "http";
    causes += byteChangeCauses({ log: join(results, "logs", c, "1.jsonl"), transport }, { log: join(results, "logs", c, "2.jsonl"), transport }).causes.length;
  }
});
process.stdout.write(`  (${causes} causes named; byte-identical repeats give none)\n`);
const worst = Math.max(endToEnd ?? 0, self);
process.stdout.write(
  `goal: compare on two committed wire result sets under ${GOAL_S} s: ${worst.toFixed(2)} s, ${worst < GOAL_S ? "met" : "NOT met"} (${(worst / GOAL_S).toFixed(2)}× the goal); every configuration changed would add about ${finder.toFixed(2)} s\n`,
);
