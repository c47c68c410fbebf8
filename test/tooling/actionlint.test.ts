/**
 * Every workflow under .github/workflows passes actionlint (github.com/rhysd/actionlint), pinned
 * at {@link ACTIONLINT_VERSION} and installed from the Go module proxy with `go install` into
 * `.wirecost/tools/actionlint-<version>/` (git-ignored, kept between runs). Without Go the test is
 * skipped with the install line, except with CI=true, where it is required (test/tools.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../paths.js";
import { onPath, toolSkip } from "../tools.js";

/** The actionlint release the workflows are checked with. */
const ACTIONLINT_VERSION = "v1.7.12";
const bin = join(root, ".wirecost", "tools", `actionlint-${ACTIONLINT_VERSION}`);
const actionlint = join(bin, "actionlint");
const go = onPath("go");

const skip = existsSync(actionlint)
  ? false
  : toolSkip({
      tool: "go (to install actionlint)",
      found: go !== undefined,
      install: "Go 1.22 or later (https://go.dev/dl/)",
      optOut: "WIRECOST_NO_ACTIONLINT",
    });

test(`every workflow passes actionlint ${ACTIONLINT_VERSION}`, { skip, timeout: 300_000 }, () => {
  if (!existsSync(actionlint)) {
    assert.ok(go, "go not found: install Go 1.22 or later (https://go.dev/dl/) to install actionlint");
    mkdirSync(bin, { recursive: true });
    const install = spawnSync(go, ["install", `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
      env: { ...process.env, GOBIN: bin, GOFLAGS: "-buildvcs=false" },
      encoding: "utf8",
    });
    assert.equal(install.status, 0, `go install actionlint@${ACTIONLINT_VERSION} failed: ${install.stderr}`);
  }
  const dir = join(root, ".github", "workflows");
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
  assert.ok(files.length >= 2, "matrix.yml and compare.yml at least");
  const r = spawnSync(actionlint, ["-no-color", ...files], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // The linter is live: a job needing one that does not exist is refused.
  const bad = join(mkdtempSync(join(tmpdir(), "actionlint-")), "bad.yml");
  writeFileSync(bad, "on: push\njobs:\n  a:\n    needs: nowhere\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n");
  const refused = spawnSync(actionlint, ["-no-color", bad], { encoding: "utf8" });
  assert.equal(refused.status, 1, refused.stdout);
  assert.match(refused.stdout, /nowhere/);
});
