/**
 * Stage attribution against a known answer, through the real per-call mode and the real CLI
 * (test/fixtures/matrices/percall-known-cost.yaml, and percall-known-cost-py.yaml for the Python
 * target, whose slower sampler needs more calls): the known-cost targets (targets/known-cost/ts
 * and py) spend 1,500 µs in parse_and_validate, 1,000 µs in do_work and 500 µs in build_result of
 * CPU time per tools/call; the profiled trial's stage table must give each within 15 % and their
 * sum within 10 % (TypeScript: V8 through the signal window; Python: py-spy by pid, installed by
 * the mcp-py build). Stage rules that match nothing leave every server sample unclassified, shown
 * as such; a py-spy that is not there makes the server's row "not attributed: <reason>" with its
 * measured CPU, and the run still succeeds. The Python paths need the mcp-py build (Python 3.11
 * with venv): skipped with the reason where it is missing, required under CI=true.
 */
import { before, describe, it, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { tsv } from "../execute/helpers.js";
import { cli, root } from "../paths.js";

const MATRIX = "test/fixtures/matrices/percall-known-cost.yaml";
const PY_MATRIX = "test/fixtures/matrices/percall-known-cost-py.yaml";
const pyMatrix = loadMatrix(join(root, PY_MATRIX));
const missing = missingToolchain(pyMatrix.targets["known-cost-py"]!, dirname(pyMatrix.file));
const pySkip = missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
const KNOWN: Record<string, number> = { "parse-validate": 1500, work: 1000, "build-result": 500 };

describe("known-cost targets through the per-call mode", { timeout: 900_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-known-cost-"));
  let stages: Record<string, string>[] = [];
  let profiled: Record<string, string>[] = [];
  const runInto = async (matrixFile: string, dir: string, only: string[]): Promise<void> => {
    const r = await execa(process.execPath, [cli, "run", matrixFile, "--results", dir, ...only], { cwd: root, reject: false });
    assert.equal(r.exitCode, 0, r.stderr.slice(-2000));
  };
  before(async () => {
    await runInto(MATRIX, out, pySkip ? ["--only", "known-cost-ts-*", "--only", "rules-match-nothing-*"] : []);
    stages = tsv(join(out, "percall-stages.tsv"));
    profiled = tsv(join(out, "percall-profiled.tsv"));
  });
  /** The ways the profiled trial of `config` in a results folder's tables misses the known costs ([] when it holds). */
  const misses = (st: Record<string, string>[], pr: Record<string, string>[], config: string): string[] => {
    const p = pr.find((x) => x.config!.startsWith(config));
    if (p?.status !== "ok") return [`${config}: profiled trial ${p?.status ?? "missing"}: ${p?.reason ?? ""}`];
    const out: string[] = [];
    let sum = 0;
    for (const [stage, us] of Object.entries(KNOWN)) {
      const row = st.find((s) => s.config!.startsWith(config) && s.process === "server" && s.stage === stage);
      const got = row ? Number(row.us_per_call) : Number.NaN;
      sum += got;
      if (!(Math.abs(got - us) <= 0.15 * us)) out.push(`${stage} ${got.toFixed(0)} µs per call, known ${us} µs (±15 %)`);
    }
    if (!(Math.abs(sum - 3000) <= 0.1 * 3000)) out.push(`the three stages sum to ${sum.toFixed(0)} µs, known 3000 µs (±10 %)`);
    if (p.server_profile === "" || p.client_profile === "") out.push("a folded profile is not kept or not linked");
    return out;
  };
  /**
   * Each window is an independent measurement by a wall-clock sampler: on a machine whose run queue
   * is longer than its cores, a window's samples can fall in step with the calls' preemptions. Up to
   * three windows (a run of `matrixFile` whose window is already in the `before` tables, or not,
   * then runs of the configuration alone); the stages hold when one window recovers every known
   * cost, and all three windows' misses are reported otherwise.
   */
  const recovered = async (t: TestContext, matrixFile: string, config: string, firstInBefore: boolean): Promise<void> => {
    const seen: string[] = [];
    for (let w = 1; w <= 3; w++) {
      let m: string[];
      if (w === 1 && firstInBefore) m = misses(stages, profiled, config);
      else {
        const dir = mkdtempSync(join(tmpdir(), "wirecost-known-cost-again-"));
        await runInto(matrixFile, dir, ["--only", `${config}*`]);
        m = misses(tsv(join(dir, "percall-stages.tsv")), tsv(join(dir, "percall-profiled.tsv")), config);
      }
      if (m.length === 0) {
        for (const s of seen) t.diagnostic(`missed before: ${s}`);
        return;
      }
      seen.push(`window ${w}: ${m.join("; ")}`);
    }
    assert.fail(`${config}: no window of three recovered the known costs — ${seen.join(" | ")}`);
  };

  it("TypeScript (V8, signal window): each stage within 15 %, their sum within 10 %", (t) => recovered(t, MATRIX, "known-cost-ts-", true));
  it("Python (py-spy by pid): each stage within 15 %, their sum within 10 %", { skip: pySkip }, (t) => recovered(t, PY_MATRIX, "known-cost-py-", false));

  it("stage rules that match nothing leave every server sample unclassified", () => {
    const rows = stages.filter((s) => s.config!.startsWith("rules-match-nothing-") && s.process === "server");
    assert.deepEqual(rows.map((r) => r.stage).sort(), ["kernel", "unclassified"], "only the unclassified row and the measured kernel row");
    const u = rows.find((r) => r.stage === "unclassified")!;
    assert.ok(Number(u.us_per_call) > 2000, `the unclassified row holds the server's user CPU (${u.us_per_call} µs per call)`);
    const top = tsv(join(out, "percall-unclassified.tsv")).filter((x) => x.config!.startsWith("rules-match-nothing-") && x.process === "server");
    assert.ok(
      top.some((x) => /^(spin|cpuUsage|parse_and_validate|do_work|build_result)\b/.test(x.frame!)),
      "its top leaf functions are listed",
    );
  });

  it("a py-spy that is not there: the server's row says not attributed: <reason> with its measured CPU, never zeros, and the run succeeds", {
    skip: pySkip,
  }, () => {
    const rows = stages.filter((s) => s.config!.startsWith("no-py-spy-") && s.process === "server");
    const na = rows.find((r) => r.stage === "not-attributed")!;
    assert.match(na.note!, /^not attributed: py-spy not found at .*no-such-py-spy/);
    assert.ok(Number(na.us_per_call) > 1000, "the measured user CPU per call, not zero");
    assert.ok(!rows.some((r) => ["parse-validate", "work", "build-result"].includes(r.stage!)), "no stage rows without a profile");
    assert.equal(profiled.find((x) => x.config!.startsWith("no-py-spy-"))!.server_sampler, "none");
  });
});
