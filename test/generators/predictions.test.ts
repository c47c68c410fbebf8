/** Predictions: verdicts from expressions, and pre-registration from a temp git repository. */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { simpleGit } from "simple-git";
import { UserError } from "../../format/errors.js";
import { readPredictions } from "../../generators/predictions/load.js";
import { checkRegistration } from "../../generators/predictions/registration.js";
import type { PredictionResult } from "../../generators/predictions/evaluate.js";
import { render } from "../../generators/render.js";
import { predictionViews } from "../../generators/sections/predictions.js";
import { FIXTURE, tempDir } from "./support.js";

async function commitAt(dir: string, files: string[], date: string): Promise<void> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  const git = simpleGit({ baseDir: dir, allowEnvironment: ["GIT_COMMITTER_DATE", "GIT_AUTHOR_DATE", "HOME", "PATH"] } as Parameters<typeof simpleGit>[0]).env(
    env,
  );
  await git.add(files);
  await git.raw(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", `at ${date}`]);
}

describe("pre-registration", () => {
  it("marks a back-dated prediction pre-registered and a post-dated one not", async () => {
    const repo = tempDir("git");
    await simpleGit({ baseDir: repo }).init();
    const pred = join(repo, "predictions.yaml");
    writeFileSync(pred, "version: 1\npredictions:\n  - id: EARLY\n    text: a\n");
    await commitAt(repo, ["predictions.yaml"], "2026-01-01T00:00:00Z");
    cpSync(FIXTURE, join(repo, "results"), { recursive: true });
    await commitAt(repo, ["results"], "2026-02-01T00:00:00Z");
    writeFileSync(pred, "version: 1\npredictions:\n  - id: EARLY\n    text: a\n  - id: LATE\n    text: b\n");
    await commitAt(repo, ["predictions.yaml"], "2026-03-01T00:00:00Z");
    const reg = await checkRegistration(pred, join(repo, "results"), ["EARLY", "LATE", "NEVER"]);
    assert.equal(reg.get("EARLY")?.preRegistered, true);
    assert.equal(reg.get("LATE")?.preRegistered, false);
    assert.match(reg.get("LATE")?.reason ?? "", /at or after the first commit/);
    assert.equal(reg.get("NEVER")?.preRegistered, false);
    assert.match(reg.get("NEVER")?.reason ?? "", /not committed/);
  });
});

describe("registration as declared in predictions.yaml", () => {
  it("labels a prediction declared after trial runs as such even when git would call it pre-registered; rejects an unknown value", async () => {
    const repo = tempDir("git-declared");
    await simpleGit({ baseDir: repo }).init();
    const pred = join(repo, "predictions.yaml");
    writeFileSync(
      pred,
      "version: 1\npredictions:\n  - id: LATER\n    registered: after-trial-runs\n    text: a\n  - id: BEFORE\n    registered: before-run\n    text: b\n  - id: PLAIN\n    text: c\n",
    );
    await commitAt(repo, ["predictions.yaml"], "2026-01-01T00:00:00Z");
    cpSync(FIXTURE, join(repo, "results"), { recursive: true });
    await commitAt(repo, ["results"], "2026-02-01T00:00:00Z");
    const site = tempDir("site-declared");
    await render({ results: join(repo, "results"), site });
    const md = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const line = (id: string): string => /^Registration: .*$/m.exec(md.slice(md.indexOf(`### ${id}:`)))?.[0] ?? "";
    assert.match(line("LATER"), /^Registration: \*\*written after trial runs\*\* \(declared in the predictions file\); git check: /);
    assert.doesNotMatch(line("LATER"), /\*\*pre-registered\*\*/);
    assert.match(line("BEFORE"), /^Registration: \*\*pre-registered\*\* \(declared before the run, and git agrees\)/);
    assert.match(line("PLAIN"), /^Registration: \*\*pre-registered\*\* \(not declared in the predictions file: from git alone\)/);
    writeFileSync(pred, "version: 1\npredictions:\n  - id: X\n    registered: sometime\n    text: a\n");
    assert.throws(
      () => readPredictions(pred),
      (e: unknown) => e instanceof UserError && /X\.registered/.test(e.message) && /before-run, after-trial-runs/.test(e.message),
    );
  });
});

describe("why a prediction failed", () => {
  it("names how many configuration groups do not hold it, and the first of them", () => {
    const row = (id: string, outcome: boolean | undefined) => ({ configs: [["old", `${id}-a`] as const, ["new", `${id}-b`] as const], values: [], outcome });
    const check = { claim: "c", expect: "old.x == 1" } as unknown as PredictionResult["checks"][number]["check"];
    const result = {
      prediction: { id: "P", text: "t", checks: [check], registered: undefined },
      verdict: "failed",
      checks: [{ check, verdict: "failed", evidence: [row("x1", true), row("x2", false), row("x3", undefined), row("x4", false)] }],
    } as unknown as PredictionResult;
    const [view] = predictionViews([result], new Map());
    assert.equal(view?.why, "2 of 3 configuration groups");
    assert.equal(view?.checks[0]?.why, "2 of 3 configuration groups: old = `x2-a`, new = `x2-b`; old = `x4-a`, new = `x4-b`");
    const held = { ...result, verdict: "held", checks: [{ check, verdict: "held", evidence: [row("x1", true)] }] } as unknown as PredictionResult;
    assert.equal(predictionViews([held], new Map())[0]?.why, "");
  });
});
