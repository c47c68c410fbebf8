/**
 * A built target's resolved dependency set, read the way its ecosystem records it (the matrix's
 * `build.resolved`): the distributions installed for a Python executable (importlib.metadata), the
 * packages of a Cargo.lock, the `dep` lines of `go version -m`, the packages of an npm
 * package-lock.json, the jars of a Maven repository-layout folder. And the version check of a
 * target's `package` against that set, by the ecosystem's own rules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { satisfies as pep440Satisfies, validRange as pep440ValidRange } from "@renovatebot/pep440";
import { execaSync } from "execa";
import semver from "semver";
import { parse as parseToml } from "smol-toml";
import type { ResolvedSource } from "../matrix/types.js";

/**
 * What a build resolved: `packages` (name → version; for pip, names as the distributions spell
 * them) and `toolchain` facts the set itself carries (pip: `python`, `pip`; go: `go`).
 */
export interface ResolvedSet {
  ecosystem: "pypi" | "crates" | "go" | "npm" | "maven";
  packages: Record<string, string>;
  toolchain: Record<string, string>;
}

const PIP_SCRIPT =
  "import importlib.metadata as m, json, platform\n" +
  "print(json.dumps({'python': platform.python_version(), 'distributions': sorted([d.metadata['Name'], d.version] for d in m.distributions())}))";

/**
 * Read the resolved set at `src`.
 * @throws Error naming the file or command when it cannot be read (a build that did not produce it)
 */
export function readResolved(src: ResolvedSource): ResolvedSet {
  switch (src.from) {
    case "pip": {
      const r = execaSync(src.path, ["-c", PIP_SCRIPT], { reject: false, timeout: 60_000, stdin: "ignore" });
      if (r.exitCode !== 0)
        throw new Error(
          `${src.path}: cannot list its installed distributions (${String(r.stderr || r.shortMessage)
            .trim()
            .split("\n")
            .pop()})`,
        );
      const got = JSON.parse(String(r.stdout)) as { python: string; distributions: [string, string][] };
      const packages = Object.fromEntries(got.distributions);
      return { ecosystem: "pypi", packages, toolchain: { python: got.python, ...(packages.pip ? { pip: packages.pip } : {}) } };
    }
    case "cargo": {
      const lock = parseToml(readFileSync(src.path, "utf8")) as { package?: { name: string; version: string; source?: string }[] };
      const packages: Record<string, string> = {};
      for (const p of lock.package ?? []) {
        if (!p.source) continue; // the workspace's own crates
        packages[p.name] = packages[p.name] ? `${packages[p.name]}, ${p.version}` : p.version;
      }
      return { ecosystem: "crates", packages, toolchain: {} };
    }
    case "go": {
      const r = execaSync("go", ["version", "-m", src.path], { reject: false, timeout: 60_000, stdin: "ignore" });
      if (r.exitCode !== 0)
        throw new Error(
          `${src.path}: go version -m failed (${String(r.stderr || r.shortMessage)
            .trim()
            .split("\n")
            .pop()})`,
        );
      const packages: Record<string, string> = {};
      const lines = String(r.stdout).split("\n");
      const goLine = /:\s+(go\S+)/.exec(lines[0] ?? "");
      for (const line of lines) {
        const f = line.trim().split(/\t+/);
        if (f[0] === "dep" && f[1] && f[2]) packages[f[1]] = f[2];
      }
      return { ecosystem: "go", packages, toolchain: goLine ? { go: goLine[1]! } : {} };
    }
    case "npm": {
      // lockfileVersion 2 and 3 (npm 7 and later): `packages` keyed by install path,
      // "node_modules/<name>" (nested: "node_modules/a/node_modules/<name>"); "" is the root project.
      const lock = JSON.parse(readFileSync(src.path, "utf8")) as { packages?: Record<string, { version?: string }> };
      if (!lock.packages) throw new Error(`${src.path}: no "packages" map — write it with npm 7 or later (lockfileVersion 2 or 3)`);
      const packages: Record<string, string> = {};
      // The hoisted copies first (the ones bare imports from the build folder find), then nested ones.
      const entries = Object.entries(lock.packages).filter(([path, p]) => path.startsWith("node_modules/") && p.version);
      const nested = (path: string) => path.indexOf("/node_modules/") >= 0;
      for (const [path, p] of [...entries.filter(([path]) => !nested(path)), ...entries.filter(([path]) => nested(path))]) {
        const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
        if (!packages[name]) packages[name] = p.version!;
        else if (!packages[name].split(", ").includes(p.version!)) packages[name] = `${packages[name]}, ${p.version}`;
      }
      return { ecosystem: "npm", packages, toolchain: {} };
    }
    case "maven":
      return { ecosystem: "maven", packages: mavenJars(src.path), toolchain: {} };
  }
}

/**
 * The jars under `dir`, a Maven repository-layout folder (`GROUP/PATH/ARTIFACT/VERSION/ARTIFACT-VERSION.jar`,
 * as a Maven repository and `mvn dependency:copy-dependencies -Dmdep.useRepositoryLayout=true` lay
 * them out), as `group:artifact` → version (several versions joined by ", ").
 * @throws Error naming `dir` when it cannot be read or holds a jar outside that layout
 */
function mavenJars(dir: string): Record<string, string> {
  const packages: Record<string, string> = {};
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jar"))
    .sort()) {
    const parts = file.split(sep);
    const [artifact, version, jar] = parts.slice(-3);
    if (parts.length < 4 || jar !== `${artifact}-${version}.jar`)
      throw new Error(`${join(dir, file)}: not in Maven's repository layout (GROUP/…/ARTIFACT/VERSION/ARTIFACT-VERSION.jar)`);
    const name = `${parts.slice(0, -3).join(".")}:${artifact}`;
    packages[name] = packages[name] ? `${packages[name]}, ${version}` : version!;
  }
  return packages;
}

/** PEP 503 normalised name: lower case, runs of `-`, `_`, `.` as one `-`. */
function pypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The version of `pkg` in `set` (PyPI names compared normalised), or undefined. */
export function resolvedVersion(set: ResolvedSet, pkg: string): string | undefined {
  if (set.ecosystem !== "pypi") return set.packages[pkg];
  const want = pypiName(pkg);
  return Object.entries(set.packages).find(([n]) => pypiName(n) === want)?.[1];
}

/**
 * Is `range` well formed for the ecosystem? PyPI: a PEP 440 specifier, or a bare version (meaning
 * `==`); crates, Go, npm and Maven: a semver range (Go's leading `v` allowed).
 */
export function validVersionRange(ecosystem: ResolvedSet["ecosystem"], range: string): boolean {
  if (ecosystem === "pypi") return pep440ValidRange(pypiRange(range));
  return semver.validRange(range) !== null;
}

/** Does `version` satisfy `range` by the ecosystem's rules (see {@link validVersionRange})? */
export function versionSatisfies(ecosystem: ResolvedSet["ecosystem"], version: string, range: string): boolean {
  if (ecosystem === "pypi") return pep440Satisfies(version, pypiRange(range));
  return semver.satisfies(version.replace(/\+incompatible$/, ""), range);
}

function pypiRange(range: string): string {
  return /^\d/.test(range.trim()) ? `==${range.trim()}` : range;
}
