/**
 * Package versions as an axis (README "Package versions as an axis"): a target listing versions is
 * parsed into one entry per version with its own build folder, `{version}` substituted, the exact
 * version checked, its own revisions; cells of versions a target does not list are excluded with
 * the reason; ids carry the version. And the npm resolved set read from a committed lock, the
 * maven one from a folder of jars.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { readResolved, resolvedVersion, versionSatisfies } from "../../runner/build/resolved.js";
import { expand } from "../../runner/matrix/expand.js";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { targetKey, targetOf } from "../../runner/matrix/target-of.js";
import { buildRoot, repoRoot } from "../../runner/paths.js";
import { UserError } from "../../format/errors.js";
import { buildDigest } from "../../runner/build/build.js";
import { planRun } from "../../runner/execute/run-matrix.js";

const matrix = (versions: string, extraAxis = "") => `version: 1
axes:
  - name: client
    values: [raw]
  - name: target
    values: [a, b]
  - name: version
    values: ["1.0.0", "1.1.0", "2.0.0"]
${extraAxis}  - name: transport
    values: [stdio]
  - name: revision
    values: ["2025-06-18", "2025-11-25"]
  - name: flow
    values: [plain]
targets:
  a:
    package: pkg-a
    revisions: ["2025-06-18"]
    versions: ${versions}
    build:
      command: [bash, build.sh, "{build}", "locks/a@{version}"]
      inputs: ["locks/a@{version}"]
      resolved: { from: npm, path: "{build}/package-lock.json" }
    stdio: { argv: [node, "{build}/server.js", --v, "{version}"] }
  b:
    versions: ["2.0.0"]
    build:
      command: [bash, build.sh, "{build}", "{version}"]
      inputs: [build.sh]
    stdio: { argv: [node, "{build}/server.js"] }
`;

test("a target listing versions gets one entry per version: its build folder, {version} substituted, the exact version, its revisions", () => {
  const m = parseMatrix(matrix(`["1.0.0", { version: "1.1.0", revisions: ["2025-06-18", "2025-11-25"] }]`), "m.yaml");
  const v = m.targets["a@1.1.0"]!;
  assert.equal(v.version, "1.1.0");
  assert.equal(v.family, "a");
  assert.deepEqual(v.revisions, ["2025-06-18", "2025-11-25"]);
  assert.deepEqual(m.targets["a@1.0.0"]!.revisions, ["2025-06-18"]);
  assert.equal(v.build!.dir, join(buildRoot(), "a@1.1.0"));
  assert.deepEqual(v.build!.command, ["bash", "build.sh", "{build}", "locks/a@1.1.0"]);
  assert.deepEqual(v.build!.inputs, [join(process.cwd(), "locks/a@1.1.0")]);
  assert.equal(v.build!.resolved!.path, join(buildRoot(), "a@1.1.0", "package-lock.json"));
  assert.deepEqual(v.commands.stdio!.argv, ["node", join(buildRoot(), "a@1.1.0", "server.js"), "--v", "1.1.0"]);
  assert.deepEqual(m.targets.a!.versions, ["1.0.0", "1.1.0"]);
  assert.equal(targetKey(m, { target: "a", version: "1.0.0" }), "a@1.0.0");
  assert.equal(targetOf(m, { target: "b", version: "2.0.0" })!.name, "b@2.0.0");
});

test("ids carry the version; versions a target does not list, and revisions a version does not speak, are excluded with the reason", () => {
  const m = parseMatrix(matrix(`["1.0.0", { version: "1.1.0", revisions: ["2025-06-18", "2025-11-25"] }]`), "m.yaml");
  const e = expand(m);
  assert.deepEqual(
    e.configurations.map((c) => c.id),
    [
      "raw-a-1.0.0-stdio-2025-06-18-plain",
      "raw-a-1.1.0-stdio-2025-06-18-plain",
      "raw-a-1.1.0-stdio-2025-11-25-plain",
      "raw-b-2.0.0-stdio-2025-06-18-plain",
      "raw-b-2.0.0-stdio-2025-11-25-plain",
    ],
  );
  const why = Object.fromEntries(e.excluded.map((x) => [x.id, x.reason]));
  assert.match(why["raw-a-2.0.0-stdio-2025-06-18-plain"]!, /target a does not list version 2\.0\.0 \(versions: 1\.0\.0, 1\.1\.0\)/);
  assert.match(why["raw-a-1.0.0-stdio-2025-11-25-plain"]!, /target a@1\.0\.0 does not speak revision 2025-11-25/);
  assert.match(why["raw-b-1.0.0-stdio-2025-06-18-plain"]!, /target b does not list version 1\.0\.0/);
});

test("versions: needs a version axis holding each version, a build:, and no version:", () => {
  const refuse = (text: string, what: RegExp) =>
    assert.throws(
      () => parseMatrix(text, "m.yaml"),
      (e: unknown) => e instanceof UserError && what.test(e.message) && / — /.test(e.message),
    );
  refuse(matrix(`["1.0.0", "3.0.0"]`), /^m\.yaml:\d+:\d+: version "3\.0\.0" of target a is not a value of axis "version"/);
  refuse(matrix(`["1.0.0", "1.0.0"]`), /version "1\.0\.0" repeats in targets\.a\.versions/);
  // Only exact releases: a range, a wildcard, an empty or spaced value, a path would name a build folder.
  for (const v of ["^1.0.0", "1.x", "", "1.0.0 ", "../x"])
    refuse(matrix(`["1.0.0", ${JSON.stringify(v)}]`), /^m\.yaml:\d+:\d+: version ".*" of target a is not an exact version — list exact releases/);
  refuse(
    matrix(`["1.0.0"]`)
      .replace(/ {2}- name: version\n {4}values: .*\n/, "")
      .replace('--v, "{version}"', "--v"),
    /lists versions:, but the matrix has no "version" axis/,
  );
  refuse(matrix(`["1.0.0"]`).replace("    package: pkg-a\n", "    package: pkg-a\n    version: 1.0.0\n"), /lists versions: and a version:/);
  refuse(matrix(`["1.0.0"]`).replace('inputs: ["locks/a@{version}"]', 'inputs: ["locks/{flow}"]'), /placeholder \{flow\} in a build input/);
});

test("--only matching only excluded cells (a version the target does not list) says why", () => {
  const m = parseMatrix(matrix(`["1.0.0", "1.1.0"]`), "m.yaml");
  assert.throws(
    () => planRun(m, { only: ["raw-a-2.0.0-*"] }),
    (e: unknown) =>
      e instanceof UserError &&
      /^--only raw-a-2\.0\.0-\*: matches only excluded cells, e\.g\. raw-a-2\.0\.0-stdio-2025-06-18-plain: target a does not list version 2\.0\.0 .* — list them with: npx wirecost expand m\.yaml --all$/.test(
        e.message,
      ),
  );
  assert.throws(() => planRun(m, { only: ["raw-a-9.9.9-*"] }), /matches no configuration — list ids with/);
});

test("a target without versions runs only the version axis' default", () => {
  const text = matrix(`["1.0.0"]`)
    .replace('values: ["1.0.0", "1.1.0", "2.0.0"]', 'values: ["none", "1.0.0", "1.1.0", "2.0.0"]\n    default: none')
    .replace(
      '  b:\n    versions: ["2.0.0"]\n    build:\n      command: [bash, build.sh, "{build}", "{version}"]\n      inputs: [build.sh]\n    stdio: { argv: [node, "{build}/server.js"] }\n',
      "  b:\n    stdio: { argv: [node, b.js] }\n",
    );
  const e = expand(parseMatrix(text, "m.yaml"));
  assert.ok(e.configurations.some((c) => c.id === "raw-b-stdio-2025-06-18-plain"));
  assert.match(
    e.excluded.find((x) => x.id === "raw-b-1.0.0-stdio-2025-06-18-plain")!.reason,
    /target b lists no versions: it runs only the version axis' default none/,
  );
});

test("the npm resolved set is read from a package-lock.json and checked by semver", () => {
  const set = readResolved({ from: "npm", path: join(repoRoot, "targets/mcp-ts-releases/locks/v1@1.13.0/package-lock.json") });
  assert.equal(set.ecosystem, "npm");
  assert.equal(resolvedVersion(set, "@modelcontextprotocol/sdk"), "1.13.0");
  assert.ok(versionSatisfies("npm", "1.13.0", "1.13.0"));
  assert.ok(!versionSatisfies("npm", "1.13.0", "1.15.0"));
  assert.ok(Object.keys(set.packages).includes("zod"));
});

test("the maven resolved set is read from a repository-layout folder of jars, named group:artifact", () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-maven-"));
  for (const path of ["io/modelcontextprotocol/sdk/mcp/2.2.0/mcp-2.2.0.jar", "org/slf4j/slf4j-api/2.0.17/slf4j-api-2.0.17.jar"]) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), "");
  }
  const set = readResolved({ from: "maven", path: dir });
  assert.equal(set.ecosystem, "maven");
  assert.deepEqual(set.packages, { "io.modelcontextprotocol.sdk:mcp": "2.2.0", "org.slf4j:slf4j-api": "2.0.17" });
  assert.ok(versionSatisfies("maven", "2.2.0", "2.2.0") && !versionSatisfies("maven", "2.2.0", "2.3.0"));
  writeFileSync(join(dir, "stray.jar"), "");
  assert.throws(() => readResolved({ from: "maven", path: dir }), /stray\.jar: not in Maven's repository layout/);
});

test("a version's own missing input (a release without its lock) names the lock command, or removing the version", () => {
  const m = parseMatrix(
    matrix(`["1.0.0"]`).replace('inputs: ["locks/a@{version}"]', `inputs: [${JSON.stringify(join(repoRoot, "targets/mcp-ts-releases/locks/v1@{version}"))}]`),
    "m.yaml",
  );
  assert.throws(
    () => buildDigest(m.targets["a@1.0.0"]!, {}),
    (e: unknown) =>
      e instanceof UserError &&
      /locks\/v1@1\.0\.0 of target a@1\.0\.0 does not exist — write its lock: bash .*targets\/mcp-ts-releases\/lock\.sh v1 1\.0\.0, or remove 1\.0\.0 from targets\.a\.versions$/.test(
        e.message,
      ),
  );
});

test("a compiled input missing from dist/ is named with the command that makes it", () => {
  const m = parseMatrix(
    matrix(`["1.0.0"]`).replace('inputs: ["locks/a@{version}"]', `inputs: [${JSON.stringify(join(repoRoot, "dist", "no-such-target"))}]`),
    "m.yaml",
  );
  assert.throws(
    () => buildDigest(m.targets["a@1.0.0"]!, {}),
    (e: unknown) =>
      e instanceof UserError &&
      /build input .*dist\/no-such-target of target a@1\.0\.0 does not exist — compile the project first: npm run build/.test(e.message),
  );
});
